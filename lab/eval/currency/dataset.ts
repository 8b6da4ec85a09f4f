/**
 * The currency set (data/currency/): `conversations.json`, an array of memlane transcripts each
 * with an extra `id`, and `questions.jsonl`, one labelled question a line:
 *   { "conv": "c01", "question": "…", "asked_at": "2024-04-10T10:00",
 *     "kind": "current" | "stable" | "past", "gold_turns": [...], "stale_turns": [...] }
 * Every problem in either file is collected and reported together, naming the line or the
 * conversation, so a hand-written set is fixed in one pass.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { InvalidInputError, NotFoundError } from "../../../src/core/errors.js";
import { parseConversationTime } from "../../../src/core/time.js";
import { type Transcript, validateTranscript } from "../../../src/engine/ingest/formats/transcript.js";

export const CURRENCY_KINDS = ["current", "stable", "past"] as const;
export type CurrencyKind = (typeof CURRENCY_KINDS)[number];
export type CurrencySplit = "tune" | "test";

const questionSchema = z.object({
  conv: z.string().min(1),
  question: z.string().trim().min(1),
  asked_at: z.string().min(1),
  kind: z.enum(CURRENCY_KINDS),
  gold_turns: z.array(z.string().min(1)).min(1),
  stale_turns: z.array(z.string().min(1)).default([]),
  /** Optional: overrides the split the conversation falls in. */
  split: z.enum(["tune", "test"]).optional(),
});

export interface CurrencyQuestion {
  conv: string;
  question: string;
  /** Conversation time as memlane stores it (UTC ISO). */
  askedAt: string;
  kind: CurrencyKind;
  gold: string[];
  stale: string[];
  split: CurrencySplit;
  line: number;
}

export interface CurrencyConversation {
  id: string;
  transcript: Transcript;
  /** The one partner the questions ask about. */
  partner: string;
  split: CurrencySplit;
}

export interface CurrencySet {
  conversations: CurrencyConversation[];
  questions: CurrencyQuestion[];
}

/**
 * Which half a conversation belongs to: sorted by id, the first half tunes and the second is held
 * out (c01–c07 and c08–c14 in the shipped set), unless a question names its split.
 */
function splitsOf(ids: string[]): Map<string, CurrencySplit> {
  const sorted = [...ids].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const half = Math.ceil(sorted.length / 2);
  return new Map(sorted.map((id, i) => [id, i < half ? "tune" : "test"]));
}

/** Parses `conversations.json` and `questions.jsonl` (texts) and checks every reference between them. */
export function parseCurrencySet(
  conversationsText: string,
  questionsText: string,
  source = { conversations: "conversations.json", questions: "questions.jsonl" },
): CurrencySet {
  const problems: string[] = [];
  let raw: unknown;
  try {
    raw = JSON.parse(conversationsText);
  } catch (error) {
    throw new InvalidInputError(`${source.conversations} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(raw) || raw.length === 0)
    throw new InvalidInputError(`${source.conversations} must be a non-empty JSON array of transcripts`);
  const parsed: { id: string; transcript: Transcript; partner: string }[] = [];
  const turnOwner = new Map<string, { conv: string; speaker: string }>();
  raw.forEach((entry, i) => {
    const id = (entry as { id?: unknown } | null)?.id;
    const where = `${source.conversations}[${i}]`;
    if (typeof id !== "string" || !id) {
      problems.push(`${where}: needs a string "id" (the name questions.jsonl uses)`);
      return;
    }
    if (parsed.some((p) => p.id === id)) problems.push(`${where}: duplicate id "${id}"`);
    let transcript: Transcript;
    try {
      transcript = validateTranscript(entry, `${where} ("${id}")`);
    } catch (error) {
      problems.push((error as Error).message);
      return;
    }
    const partners = new Set(transcript.sessions.flatMap((s) => s.partners));
    if (partners.size !== 1) {
      problems.push(`${where} ("${id}"): needs exactly one partner, has ${[...partners].join(", ")}`);
      return;
    }
    for (const s of transcript.sessions)
      for (const t of s.turns) {
        if (turnOwner.has(t.id)) problems.push(`${where} ("${id}"): turn id "${t.id}" is used twice`);
        turnOwner.set(t.id, { conv: id, speaker: t.speaker });
      }
    parsed.push({ id, transcript, partner: [...partners][0]! });
  });
  const splits = splitsOf(parsed.map((p) => p.id));
  const byId = new Map(parsed.map((p) => [p.id, p]));
  const questions: CurrencyQuestion[] = [];
  questionsText.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${source.questions}:${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      problems.push(`${where}: not JSON (${(error as Error).message})`);
      return;
    }
    const q = questionSchema.safeParse(json);
    if (!q.success) {
      problems.push(
        `${where}: ${q.error.issues.map((x) => `${x.path.join(".") || "line"} ${x.message}`).join("; ")}`,
      );
      return;
    }
    const { data } = q;
    const conv = byId.get(data.conv);
    if (!conv) {
      problems.push(`${where}: conversation "${data.conv}" is not in ${source.conversations}`);
      return;
    }
    let askedAt = "";
    try {
      askedAt = parseConversationTime(data.asked_at);
    } catch (error) {
      problems.push(`${where}: asked_at ${(error as Error).message}`);
    }
    for (const [field, ids] of [
      ["gold_turns", data.gold_turns],
      ["stale_turns", data.stale_turns],
    ] as const)
      for (const id of ids) {
        const owner = turnOwner.get(id);
        if (!owner) problems.push(`${where}: ${field} names "${id}", which is no turn`);
        else if (owner.conv !== data.conv)
          problems.push(`${where}: ${field} names "${id}", a turn of "${owner.conv}", not "${data.conv}"`);
      }
    const both = data.gold_turns.filter((id) => data.stale_turns.includes(id));
    if (both.length) problems.push(`${where}: ${both.join(", ")} is both gold and stale`);
    if (data.kind !== "current" && data.stale_turns.length)
      problems.push(`${where}: only "current" questions have stale turns`);
    questions.push({
      conv: data.conv,
      question: data.question,
      askedAt,
      kind: data.kind,
      gold: data.gold_turns,
      stale: data.stale_turns,
      split: data.split ?? splits.get(data.conv)!,
      line: i + 1,
    });
  });
  if (problems.length)
    throw new InvalidInputError(
      `The currency set has ${problems.length} problem(s):\n${problems.slice(0, 20).join("\n")}${problems.length > 20 ? "\n…" : ""}`,
      { problems },
    );
  if (questions.length === 0) throw new InvalidInputError(`${source.questions} holds no questions`);
  return {
    conversations: parsed.map((p) => ({ ...p, split: splits.get(p.id)! })),
    questions,
  };
}

/** Reads a currency set directory (`conversations.json` + `questions.jsonl`). */
export async function loadCurrencySet(dir: string): Promise<CurrencySet> {
  const read = async (name: string) => {
    const path = join(dir, name);
    try {
      return await readFile(path, "utf8");
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "ENOENT" || code === "ENOTDIR")
        throw new NotFoundError(
          `No ${name} in ${dir}: a currency set is a directory with conversations.json and questions.jsonl`,
        );
      throw new InvalidInputError(`Cannot read ${path}: ${(error as Error).message}`);
    }
  };
  const [conversations, questions] = [await read("conversations.json"), await read("questions.jsonl")];
  return parseCurrencySet(conversations, questions, {
    conversations: join(dir, "conversations.json"),
    questions: join(dir, "questions.jsonl"),
  });
}
