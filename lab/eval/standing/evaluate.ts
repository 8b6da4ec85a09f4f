/**
 * `memlane eval standing`: does a later request get the standing instruction it should follow?
 * Two measures, on lab/data/standing-dev (written by a second hand; see its README):
 *   - the detector, by k-fold cross-validation over the labelled utterances (sentences.jsonl):
 *     precision, recall and F1 per label, recall per style;
 *   - the conversations (conversations.json): each probe is asked where its `asked_after` says,
 *     after the earlier sessions were consolidated, and again at the start of the next session
 *     while its version is still in force (most probes are written into the session the
 *     instruction was given in; the next-session ask is the one only memory can serve). A probe
 *     is served when its evidence (the turn holding the version in force) is shown to the reply:
 *     in the reply window of the current session, as a standing item in force, or among the top k
 *     of a recall for the probe. It is stale when a superseded version is shown as holding (a
 *     standing item in force, or a current memory of the strategy) and the version in force is
 *     not in the window to correct it.
 * Conversations are split before looking: the odd ones tune the matching thresholds, the even ones
 * are reported (see SPLIT).
 */

import type { StandingInput } from "../../../src/cognition/inputs.js";
import type { LearnedStandingModel } from "../../../src/cognition/offline/learned/standing-model.js";
import { OfflineCognition } from "../../../src/cognition/offline/offline-cognition.js";
import { partnerLines, standingOffline } from "../../../src/cognition/offline/standing-reader.js";
import { InvalidInputError } from "../../../src/core/errors.js";
import type { Scope } from "../../../src/core/types.js";
import { readLocomo } from "../../../src/engine/ingest/formats/locomo.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import { DEFAULT_REPLY_WINDOW } from "../../../src/engine/reply/reply-window.js";
import { standingFor } from "../../../src/engine/standing/standing-memory.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { EngineCaches } from "../../../src/retrieval/engine-caches.js";
import { recallFor } from "../recall-for.js";
import {
  chooseThreshold,
  crossValidated,
  macroF1,
  readUtterances,
  type StandingSentence,
  THRESHOLDS_CHOSEN,
} from "./train.js";

export interface StandingProbe {
  question: string;
  asked_after: string;
  evidence: string[];
  superseded: string[];
  kind: string;
}

/** Which conversations tune and which are reported: by position, odd (1st, 3rd…) tune. */
export const SPLIT = { tune: (i: number) => i % 2 === 0, report: (i: number) => i % 2 === 1 };

export interface DetectorReport {
  /** The parse features alone, or with this encoder's vectors. */
  embedder: string | null;
  folds: number;
  utterances: number;
  /** The threshold shipped: set on the tuning conversations, or chosen by cross-validated F1. */
  threshold: number;
  perLabel: Record<string, { precision: number; recall: number; f1: number; support: number }>;
  macroF1: number;
  /** Share of standing utterances (any label but none) read as standing, by style. */
  recallByStyle: Record<string, { recall: number; support: number }>;
  /** Share of `none` utterances read as standing, by style (hard negatives are most of them). */
  falseAlarmsByStyle: Record<string, { rate: number; support: number }>;
  accuracy: number;
}

/**
 * k-fold cross-validation of a detector: each fold scored by a detector trained on the others, at
 * the threshold the cross-validation chose. (The threshold is chosen on these same utterances, so
 * the figure is a little optimistic; the conversations are the held-out measure.)
 */
export async function evaluateDetector(
  rows: StandingSentence[],
  embedder: Embedder | null,
  folds = 5,
): Promise<DetectorReport> {
  if (rows.length < folds) throw new InvalidInputError(`${folds} folds need at least ${folds} utterances`);
  const read = await readUtterances(rows, embedder ?? undefined);
  const name = embedder?.name ?? null;
  // The shipped threshold where one was set on the tuning conversations, else the F1 choice.
  const threshold = (name && THRESHOLDS_CHOSEN[name]) || chooseThreshold(read, name);
  const said = crossValidated(read, name, threshold, folds);
  const predicted = new Map(rows.map((r, i) => [r.id, said[i]!]));
  const perLabel: DetectorReport["perLabel"] = {};
  for (const label of ["instruction", "preference", "revoke", "none"]) {
    const tp = rows.filter((r) => r.label === label && predicted.get(r.id) === label).length;
    const saidN = rows.filter((r) => predicted.get(r.id) === label).length;
    const support = rows.filter((r) => r.label === label).length;
    const precision = saidN ? tp / saidN : 0;
    const recall = support ? tp / support : 0;
    perLabel[label] = {
      precision,
      recall,
      f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
      support,
    };
  }
  const recallByStyle: DetectorReport["recallByStyle"] = {};
  const falseAlarmsByStyle: DetectorReport["falseAlarmsByStyle"] = {};
  for (const style of [...new Set(rows.map((r) => r.style))].sort()) {
    const standing = rows.filter((r) => r.style === style && r.label !== "none");
    const none = rows.filter((r) => r.style === style && r.label === "none");
    recallByStyle[style] = {
      recall: standing.filter((r) => predicted.get(r.id) !== "none").length / Math.max(1, standing.length),
      support: standing.length,
    };
    falseAlarmsByStyle[style] = {
      rate: none.filter((r) => predicted.get(r.id) !== "none").length / Math.max(1, none.length),
      support: none.length,
    };
  }
  return {
    embedder: name,
    folds,
    utterances: rows.length,
    threshold,
    perLabel,
    macroF1: macroF1(
      rows.map((r) => r.label),
      said,
    ),
    recallByStyle,
    falseAlarmsByStyle,
    accuracy: rows.filter((r) => predicted.get(r.id) === r.label).length / rows.length,
  };
}

/** One condition's counts over probes. */
export interface ProbeCounts {
  probes: number;
  served: number;
  /** Probes with a superseded version (the others cannot be stale). */
  withSuperseded: number;
  stale: number;
}

/** Where a probe is asked: where the data set puts it, or again at the start of the next session. */
export type Placement = "as written" | "next session";

export interface ConversationReport {
  /**
   * Probe counts per placement and condition: what the reply is shown besides the question:
   * the reply window, plus the top k turns, the strategy's top k memories, or standing items.
   */
  conditions: Record<Placement, Record<string, ProbeCounts>>;
  /** Standing items in force when probes were asked, on average. */
  shownPerProbe: number;
  /** Of the standing items shown, the share whose source turn some probe names (a lower bound on their precision). */
  shownNamed: number;
}

interface Ask {
  probe: StandingProbe;
  placement: Placement;
  /** Index of the session it is asked in, and of the last turn said before it there (-1: at its start). */
  session: number;
  upTo: number;
}

/**
 * Where each probe is asked: as written, and again at the start of the session after that when
 * the version it asks about is still in force then (no probe names its evidence as superseded by
 * a turn said before that session began). The next-session ask is the one only memory can serve.
 */
function asksOf(probes: StandingProbe[], sessions: number): Ask[] {
  const replacedAt = new Map<string, [number, number]>();
  for (const q of probes)
    for (const old of q.superseded) {
      const by = q.evidence.map(placeOf).sort(compare)[0]!;
      const known = replacedAt.get(old);
      if (!known || compare(by, known) < 0) replacedAt.set(old, by);
    }
  const asks: Ask[] = [];
  for (const probe of probes) {
    const [session, turn] = placeOf(probe.asked_after);
    asks.push({ probe, placement: "as written", session: session - 1, upTo: turn - 1 });
    const next: [number, number] = [session + 1, 0];
    const stillInForce = probe.evidence.every((e) => {
      const by = replacedAt.get(e);
      return !by || compare(by, next) >= 0;
    });
    if (session < sessions && stillInForce)
      asks.push({ probe, placement: "next session", session, upTo: -1 });
  }
  return asks;
}

const compare = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

/**
 * Asks every probe of the conversations at its places (asksOf), with the given detector (and its
 * matching thresholds) and memory strategy; `k` hits of recall for the recall conditions.
 */
export async function evaluateConversations(
  raw: unknown,
  embedder: Embedder,
  model: LearnedStandingModel,
  options: {
    strategy?: string;
    k?: number;
    pick?: (index: number) => boolean;
    onProgress?: (line: string) => void;
  } = {},
): Promise<ConversationReport> {
  const strategy = options.strategy ?? "carecall";
  const k = options.k ?? 10;
  const samples = Array.isArray(raw) ? raw : [raw];
  const conditions: ConversationReport["conditions"] = { "as written": {}, "next session": {} };
  const count = (
    placement: Placement,
    name: string,
    served: boolean,
    hasSuperseded: boolean,
    stale: boolean,
  ) => {
    conditions[placement][name] ??= { probes: 0, served: 0, withSuperseded: 0, stale: 0 };
    const c = conditions[placement][name]!;
    c.probes++;
    if (served) c.served++;
    if (hasSuperseded) c.withSuperseded++;
    if (stale) c.stale++;
  };
  let shown = 0;
  let shownNamed = 0;
  let asked = 0;
  for (const [index, sample] of samples.entries()) {
    if (options.pick && !options.pick(index)) continue;
    const conversation = (sample as { conversation: { speaker_b: string } }).conversation;
    const [read] = readLocomo(sample, { agent: conversation.speaker_b });
    const { sampleId, transcript } = read!;
    const probes = ((sample as { qa?: StandingProbe[] }).qa ?? []).filter((q) => q.asked_after);
    const asks = asksOf(probes, transcript.sessions.length);
    const named = new Set(
      probes.flatMap((p) => [...p.evidence, ...p.superseded]).map((id) => `${sampleId}:${id}`),
    );
    options.onProgress?.(
      `${sampleId}: ${transcript.sessions.length} sessions, ${asks.length} asks of ${probes.length} probes`,
    );
    const mem = await openMemlane({
      store: ":memory:",
      cognition: new OfflineCognition(embedder, { standing: model }),
      embedder,
      strategy,
      tenant: "eval",
    });
    const scope: Scope = mem.scope(transcript.agent);
    for (const [s, session] of transcript.sessions.entries()) {
      for (const { probe, placement, upTo } of asks.filter((a) => a.session === s)) {
        const window = new Set(
          session.turns
            .slice(0, upTo + 1)
            .slice(-DEFAULT_REPLY_WINDOW.turns)
            .map((t) => t.id),
        );
        const evidence = probe.evidence.map((id) => `${sampleId}:${id}`);
        const superseded = probe.superseded.map((id) => `${sampleId}:${id}`);
        const inForce = await standingFor(new EngineCaches(mem.store), scope);
        const standingTurns = new Set(inForce.flatMap((m) => m.sourceTurns));
        shown += inForce.length;
        shownNamed += inForce.filter((m) => m.sourceTurns.some((t) => named.has(t))).length;
        asked++;
        const covered = (found: Set<string>) => evidence.every((id) => found.has(id) || window.has(id));
        // An old version shown while the new one is in the window is corrected in view (the prompt
        // says the conversation wins); stale is an old version shown with nothing to correct it.
        const staleIn = (shown: Set<string>) =>
          superseded.some((id) => shown.has(id)) && !evidence.every((id) => window.has(id));
        const turnHits = await mem.recall({
          agent: transcript.agent,
          ...recallFor(transcript),
          query: probe.question,
          k,
          units: "turns",
        });
        const memoryHits = await mem.recall({
          agent: transcript.agent,
          ...recallFor(transcript),
          query: probe.question,
          k,
        });
        const turnsFound = new Set(turnHits.hits.flatMap((h) => h.sourceTurns));
        const memoriesFound = new Set(memoryHits.hits.flatMap((h) => h.sourceTurns));
        const has = superseded.length > 0;
        count(placement, "window", covered(new Set()), has, false);
        count(placement, `window + turns@${k}`, covered(turnsFound), has, false);
        // Turns are shown dated, as what was said then; memories and standing items as what holds.
        count(placement, `window + ${strategy}@${k}`, covered(memoriesFound), has, staleIn(memoriesFound));
        count(placement, "window + standing", covered(standingTurns), has, staleIn(standingTurns));
        const both = new Set([...memoriesFound, ...standingTurns]);
        count(placement, `window + ${strategy}@${k} + standing`, covered(both), has, staleIn(both));
      }
      await mem.ingest({ agent: transcript.agent, sessions: [session] });
    }
    await mem.close();
  }
  return {
    conditions,
    shownPerProbe: asked ? shown / asked : 0,
    shownNamed: shown ? shownNamed / shown : 0,
  };
}

/** The session and turn numbers of a LoCoMo dia id ("D3:7" → [3, 7]). */
function placeOf(diaId: string): [number, number] {
  const m = /^D(\d+):(\d+)$/.exec(diaId);
  if (!m) throw new InvalidInputError(`"${diaId}" is not a LoCoMo dia id (D<session>:<turn>)`);
  return [Number(m[1]), Number(m[2])];
}

export interface FalseAlarmReport {
  conversations: number;
  /** Turns of the partner read (the agent's own are never read). */
  partnerTurns: number;
  /** Standing items read (new or replacing); in talk with none, every one is a false alarm. */
  itemsRead: number;
  /** Items in force at the end of each conversation, summed: what every later reply would be shown. */
  inForceAtEnd: number;
  examples: string[];
}

/**
 * Reads conversations that hold no standing instructions (talk between friends) session by
 * session, as consolidation does, and counts what the detector keeps: each item is a false alarm.
 */
export async function evaluateFalseAlarms(
  raw: unknown,
  embedder: Embedder,
  model: LearnedStandingModel,
): Promise<FalseAlarmReport> {
  const report: FalseAlarmReport = {
    conversations: 0,
    partnerTurns: 0,
    itemsRead: 0,
    inForceAtEnd: 0,
    examples: [],
  };
  for (const { transcript } of readLocomo(raw)) {
    report.conversations++;
    let held: StandingInput["standing"] = [];
    for (const session of transcript.sessions) {
      const partners = session.partners ?? [];
      const turns = session.turns.map((t, index) => ({
        id: t.id!,
        tenant: "eval",
        agent: transcript.agent,
        sessionId: session.id!,
        index,
        speaker: t.speaker,
        text: t.text,
        at: session.at,
        meta: {},
      }));
      const input: StandingInput = {
        agent: transcript.agent,
        partners,
        at: session.at,
        turns,
        standing: held,
      };
      report.partnerTurns += partnerLines(input).length;
      const decisions = await standingOffline(input, embedder, model);
      const gone = new Set(decisions.map((d) => d.replaces).filter((id) => id !== null));
      held = held.filter((h) => !gone.has(h.id));
      for (const d of decisions.filter((d) => d.kind !== "revoke")) {
        report.itemsRead++;
        if (report.examples.length < 12) report.examples.push(d.text);
        held.push({ id: `${d.turn}`, about: d.about, text: d.text, at: session.at });
      }
    }
    report.inForceAtEnd += held.length;
  }
  return report;
}
