/**
 * A whole upload: every transcript is validated and checked against what is stored before any
 * is written (so a conflict in the last leaves the store untouched), then ingested in order,
 * with a forget of the tenant reaching the sessions the run has yet to store.
 */
import { ConflictError } from "../../core/errors.js";
import { compositeKey } from "../../core/ids.js";
import type { Scope } from "../../core/types.js";
import { pendingOf } from "../../store/pending-forget.js";
import { checkTurnLength } from "../api.js";
import type { Engine } from "../engine.js";
import { type ForgetNotice, forgetListenersOf } from "../forget/forget-listeners.js";
import { type Transcript, validateTranscript } from "./formats/transcript.js";
import {
  applyForgets,
  checkStored,
  emptyReport,
  type IngestOptions,
  type IngestReport,
  ingestTranscript,
} from "./ingest.js";

/**
 * Checks transcripts without reading the store: their shape, speakers, times and turn lengths,
 * and that a session named twice has the same turns.
 * @returns the transcripts, normalized (a session named twice kept once)
 * @throws {InvalidInputError} a transcript that is not valid (naming the field)
 * @throws {ConflictError} a session named twice with different turns
 */
export function validateTranscripts(transcripts: unknown[], maxTurnChars: number): Transcript[] {
  const valid = transcripts.map((t, i) =>
    validateTranscript(t, transcripts.length > 1 ? `transcript [${i}]` : "transcript"),
  );
  for (const [i, t] of valid.entries())
    for (const [j, s] of t.sessions.entries())
      for (const [k, turn] of s.turns.entries())
        checkTurnLength(
          turn.text,
          maxTurnChars,
          `${valid.length > 1 ? `transcript [${i}].` : ""}sessions[${j}].turns[${k}].text`,
        );
  // Two transcripts of one file naming the same session must agree too, before anything is
  // written; a session that appears again with the same turns is the same session, ingested once.
  const seen = new Map<string, string>();
  for (const t of valid)
    t.sessions = t.sessions.filter((s) => {
      const key = compositeKey(t.agent, s.id);
      const content = JSON.stringify(s.turns.map((x) => [x.speaker, x.text]));
      if (seen.has(key) && seen.get(key) !== content)
        throw new ConflictError(`Session "${s.id}" of "${t.agent}" appears twice with different turns`, {
          session: s.id,
        });
      const again = seen.has(key);
      seen.set(key, content);
      return !again;
    });
  return valid;
}

/** Ingests validated transcripts of one tenant; `scopeOf` scopes (and checks) each agent. */
export async function ingestValidated(
  engine: Engine,
  tenant: string,
  valid: Transcript[],
  scopeOf: (agent: string) => Scope,
  options: IngestOptions,
): Promise<IngestReport[]> {
  // A forget of this tenant while the ingest runs reaches the sessions it has yet to store, and
  // may name what only this ingest holds.
  const forgets: ForgetNotice[] = [];
  const stopListening = forgetListenersOf(engine).add(tenant, {
    starting: (notice) => forgets.push(notice),
    pending: (agent) => pendingOf(valid, agent),
  });
  const ports = {
    parts: engine.parts,
    turns: engine.turns,
    scope: scopeOf,
    strategy: engine.parts.strategy.name,
    forgets,
  };
  try {
    const checked = [];
    for (const t of valid) {
      applyForgets(ports, t);
      checked.push(await checkStored(ports, t));
    }
    const reports: IngestReport[] = [];
    for (const [i, t] of valid.entries()) {
      const report = await ingestTranscript(ports, t, options, checked[i]);
      reports.push(report);
      // A model that cannot be reached stops the whole run, not just one transcript.
      if (report.stopped) {
        for (const rest of valid.slice(i + 1))
          reports.push({
            ...emptyReport(rest.agent, rest.sessions.length),
            notAttempted: rest.sessions.length,
            stopped: report.stopped,
          });
        break;
      }
    }
    return reports;
  } finally {
    stopListening();
  }
}
