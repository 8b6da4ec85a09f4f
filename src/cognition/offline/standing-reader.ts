/**
 * The offline reading of a session for standing instructions and preferences (step `standing`):
 * each partner utterance is read by the learned detector (learned/standing-model.ts); a new one
 * replaces the item in force that it is closest to, when close enough, and a taking-back removes
 * the closest. Both distances are cosines of the sentence encoder, with thresholds chosen on the
 * tuning conversations and shipped with the model. Without a model, nothing is read as standing.
 */

import type { Turn } from "../../core/types.js";
import { cosine } from "../../core/vector.js";
import type { Embedder } from "../../models/embedder.js";
import type { StandingDecision, StandingInput } from "../inputs.js";
import { type LearnedStandingModel, readStanding } from "./learned/standing-model.js";

/**
 * The lines a standing item can come from, in order: the partners' own words. Generated text
 * (another agent's reply in a conversation between agents) asks nothing of this agent. The LLM
 * step numbers the same lines.
 */
export function partnerLines(input: StandingInput): Turn[] {
  return input.turns.filter(
    (t) => t.speaker !== input.agent && input.partners.includes(t.speaker) && t.meta?.generated !== true,
  );
}

interface Live {
  /** An id from the input, or `new:<n>` for the n-th decision of this session. */
  id: string;
  about: string;
  vector: Float32Array;
}

export async function standingOffline(
  input: StandingInput,
  embedder: Embedder,
  model: LearnedStandingModel | null,
): Promise<StandingDecision[]> {
  if (!model) return [];
  const said = partnerLines(input);
  const readings = await readStanding(
    model,
    said.map((t) => t.text),
    embedder,
  );
  const found = said
    .map((turn, i) => ({ turn, reading: readings[i]! }))
    .filter((c) => c.reading.label !== "none");
  if (found.length === 0) return [];
  // The detector embedded the sentences it read with the encoder; only the rest are embedded here.
  const unread = found.filter((c) => !c.reading.vector).map((c) => c.reading.sentence);
  const vectors = await embedder.embed([...input.standing.map((s) => s.text), ...unread]);
  const fresh = vectors.slice(input.standing.length);
  const live: Live[] = input.standing.map((s, i) => ({ id: s.id, about: s.about, vector: vectors[i]! }));
  const decided: (StandingDecision | null)[] = [];
  for (const [n, { turn, reading }] of found.entries()) {
    const vector = reading.vector ?? fresh.shift()!;
    let best: Live | null = null;
    let similarity = Number.NEGATIVE_INFINITY;
    for (const item of live) {
      if (item.about !== turn.speaker) continue;
      const c = cosine(vector, item.vector);
      if (c > similarity) [best, similarity] = [item, c];
    }
    const revoke = reading.label === "revoke";
    const matched = best && similarity >= (revoke ? model.revokeAt : model.replaceAt) ? best : null;
    if (revoke && !matched) {
      decided.push(null);
      continue;
    }
    let replaces = matched?.id ?? null;
    if (matched) live.splice(live.indexOf(matched), 1);
    // Changed again within this session: only the final version is kept, replacing what the
    // first version replaced.
    if (replaces?.startsWith("new:")) {
      const earlier = Number(replaces.slice(4));
      replaces = decided[earlier]!.replaces;
      decided[earlier] = null;
      // Said and taken back within the session: nothing was in force before, nothing is now.
      if (revoke && replaces === null) {
        decided.push(null);
        continue;
      }
    }
    decided.push({
      kind: reading.label as StandingDecision["kind"],
      about: turn.speaker,
      text: reading.sentence,
      turn: turn.id,
      replaces,
    });
    if (!revoke) live.push({ id: `new:${n}`, about: turn.speaker, vector });
  }
  return decided.filter((d): d is StandingDecision => d !== null);
}
