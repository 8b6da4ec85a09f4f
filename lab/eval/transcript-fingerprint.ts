/**
 * A conversation's fingerprint: a hash of its agent, sessions, times and turns. A TeaFarm exam
 * records it to refuse being run against another conversation; the QA lab keys its cached answers
 * on it, so an edited file is never answered from the old one's cache.
 */
import { createHash } from "node:crypto";
import type { Transcript } from "../../src/engine/ingest/formats/transcript.js";

/** The fingerprint of `t` (hex SHA-256). */
export function transcriptFingerprint(t: Transcript): string {
  const h = createHash("sha256");
  h.update(t.agent);
  for (const s of t.sessions) {
    h.update(`\u0000${s.id}\u0000${s.at}\u0000${s.partners.join(",")}`);
    for (const turn of s.turns) h.update(`\u0001${turn.id}\u0001${turn.speaker}\u0001${turn.text}`);
  }
  return h.digest("hex");
}
