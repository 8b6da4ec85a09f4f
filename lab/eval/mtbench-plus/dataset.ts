/**
 * MT-Bench+ (Lu et al. 2023, MIT): 54 long conversations built from MT-Bench questions, each
 * ending in one long-range question of a type — retrospection, continuation or conjunction —
 * whose turn-info names the earlier topic(s) it draws on. Every chatbot line in the file is empty:
 * the system under test writes them.
 *   - A normal turn's info is "<category>-<question>-<k>": its topic is "<category>-<question>".
 *   - The final question's is "<topic>-Q", or "<topic>-<topic>-Q" for a conjunction.
 * The split into a tuning and a test half is fixed before anything is measured: within each type,
 * conversations are ordered by the FNV-1a hash of their id and the first half tunes.
 */
import { InvalidInputError } from "../../../src/core/errors.js";
import { fnv1a } from "../../../src/core/text.js";

export const MTBENCH_TYPES = ["retrospection", "continuation", "conjunction"] as const;
export type MtbenchType = (typeof MTBENCH_TYPES)[number];
export type MtbenchSplit = "tune" | "test";

export interface MtbenchTurn {
  text: string;
  /** "<category>-<question>", e.g. "roleplay-95". */
  topic: string;
}

export interface MtbenchConversation {
  id: string;
  type: MtbenchType;
  /** The partner's turns before the final question, in order. */
  turns: MtbenchTurn[];
  /** The long-range question and the topics it names. */
  final: { text: string; topics: string[] };
  split: MtbenchSplit;
}

const TURN_INFO = /^([a-z]+-\d+)-(\d+)$/;
const FINAL_INFO = /^((?:[a-z]+-\d+-)+)Q$/;

/** Parses and checks an MT-Bench+ file's JSON; `source` names it in errors. */
export function readMtbench(raw: unknown, source: string): MtbenchConversation[] {
  if (!Array.isArray(raw)) throw new InvalidInputError(`${source}: expected a JSON list of conversations`);
  const conversations = raw.map((c, i) => readConversation(c, `${source}[${i}]`));
  return assignSplits(conversations);
}

function readConversation(c: unknown, where: string): Omit<MtbenchConversation, "split"> {
  const conv = c as { id?: unknown; type?: unknown; conversations?: unknown };
  if (typeof conv?.id !== "string") throw new InvalidInputError(`${where}: "id" must be a string`);
  if (!MTBENCH_TYPES.includes(conv.type as MtbenchType))
    throw new InvalidInputError(`${where} (${conv.id}): "type" must be one of ${MTBENCH_TYPES.join(", ")}`);
  if (!Array.isArray(conv.conversations))
    throw new InvalidInputError(`${where} (${conv.id}): "conversations" must be a list`);
  const human = (conv.conversations as { from?: unknown; value?: unknown; "turn-info"?: unknown }[]).filter(
    (t) => t?.from === "human",
  );
  if (human.length < 2)
    throw new InvalidInputError(`${where} (${conv.id}): needs turns and a final question`);
  const turns: MtbenchTurn[] = [];
  for (const [k, t] of human.slice(0, -1).entries()) {
    const info = String(t["turn-info"] ?? "");
    const m = TURN_INFO.exec(info);
    if (!m || typeof t.value !== "string")
      throw new InvalidInputError(`${where} (${conv.id}): human turn ${k} has turn-info "${info}"`);
    turns.push({ text: t.value, topic: m[1]! });
  }
  const last = human.at(-1)!;
  const info = String(last["turn-info"] ?? "");
  const m = FINAL_INFO.exec(info);
  if (!m || typeof last.value !== "string")
    throw new InvalidInputError(`${where} (${conv.id}): the final question has turn-info "${info}"`);
  const topics = [...m[1]!.matchAll(/([a-z]+-\d+)-/g)].map((x) => x[1]!);
  const known = new Set(turns.map((t) => t.topic));
  const missing = topics.filter((t) => !known.has(t));
  if (missing.length)
    throw new InvalidInputError(
      `${where} (${conv.id}): the final question names ${missing.join(", ")}, never discussed`,
    );
  return { id: conv.id, type: conv.type as MtbenchType, turns, final: { text: last.value, topics } };
}

/** Within each type, the first half by hash of the id tunes and the rest is the test half. */
function assignSplits(conversations: Omit<MtbenchConversation, "split">[]): MtbenchConversation[] {
  const split = new Map<string, MtbenchSplit>();
  for (const type of MTBENCH_TYPES) {
    const ofType = conversations
      .filter((c) => c.type === type)
      .sort((a, b) => fnv1a(a.id) - fnv1a(b.id) || a.id.localeCompare(b.id));
    for (const [i, c] of ofType.entries())
      split.set(c.id, i < Math.ceil(ofType.length / 2) ? "tune" : "test");
  }
  return conversations.map((c) => ({ ...c, split: split.get(c.id)! }));
}
