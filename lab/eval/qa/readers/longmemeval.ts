/**
 * Reads LongMemEval (Wu et al., ICLR 2025: longmemeval_s / _m / _oracle .json) into a QaSet, so
 * `memlane eval qa` can run the benchmark without knowing its layout. Every LongMemEval item
 * brings its own haystack of chat sessions, so every item becomes its own conversation (agent
 * "assistant", partner "user") holding exactly one question.
 *
 * Format read from the public repository xiaowu0162/LongMemEval: README.md ("Dataset Format"),
 * src/retrieval/run_retrieval.py (turns of answer sessions carry `has_answer` true or false; its
 * turn corpus ids count turns from 1), src/generation/run_generation.py (dates, ids and sessions
 * are parallel lists) and data/custom_history/sample_haystack_and_timestamp.py (session dates are
 * written "%Y/%m/%d (%a) %H:%M", e.g. "2023/05/30 (Tue) 23:40").
 *
 * Ambiguities and what this reader decided:
 * - Turn ids are `<question_id>:<session_id>:<n>` with n counted from 1, as LongMemEval numbers
 *   its own turn corpus ids (`<session_id>_<n>`); session ids are `<question_id>:<session_id>`.
 * - The README says longmemeval_oracle.json lists sessions unsorted; a memlane transcript must run
 *   forward in time, so sessions are sorted by date (stably) and one note counts such items.
 * - Dates carry no zone; they are read as UTC, like every zoneless time in memlane. The weekday
 *   in brackets is not checked.
 * - Evidence is every turn marked `has_answer: true`. Some items mark none; then, unless the
 *   question is an abstention one (nothing holds its answer), evidence falls back to every turn of
 *   the `answer_session_ids` sessions, with a note.
 * - A turn with empty content cannot be a memlane turn: it is left out (its number stays unused)
 *   with a note; a session left with no turns is left out with a note. A session id repeated in
 *   one haystack gets a `#2`, `#3`… suffix, with a note. Sessions dated after the question are
 *   kept, with a note.
 */
import { z } from "zod";
import { InvalidInputError } from "../../../../src/core/errors.js";
import { parseConversationTime } from "../../../../src/core/time.js";
import { type RawTranscript, validateTranscript } from "../../../../src/engine/ingest/formats/transcript.js";
import type { QaConversation, QaQuestion, QaSet } from "../qa-set.js";
import { isRecord, pad } from "./read-kit.js";

const AGENT = "assistant";

/**
 * How a question type's answers are graded beyond the generous default, as LongMemEval grades
 * them: a preference gold describes what a good answer does; an update's answer may mention the
 * old value if it ends on the new one; a count of days may be off by one.
 */
const GRADING_RULES: Record<string, QaQuestion["rule"]> = {
  "single-session-preference": "preference",
  "knowledge-update": "latest",
  "temporal-reasoning": "dates",
};
const PARTNER = "user";

const turnSchema = z.object({
  role: z.string(),
  content: z.string().nullable(),
  has_answer: z.boolean().nullable().optional(),
});

const itemSchema = z.object({
  question_id: z.string().min(1),
  question_type: z.string().min(1),
  question: z.string().min(1),
  answer: z.union([z.string(), z.number()]),
  question_date: z.string().min(1),
  haystack_session_ids: z.array(z.string().min(1)),
  haystack_dates: z.array(z.string()),
  haystack_sessions: z.array(z.array(turnSchema)),
  answer_session_ids: z.array(z.string()).default([]),
});

type LongMemEvalItem = z.infer<typeof itemSchema>;
type LongMemEvalTurn = z.infer<typeof turnSchema>;

/** One haystack session, dated and given its transcript id. */
interface HaystackSession {
  sourceId: string;
  id: string;
  at: string;
  turns: LongMemEvalTurn[];
}

/**
 * True when `raw` looks like LongMemEval: a list of items (or one item) with `question_id` and
 * `haystack_sessions`.
 */
export function isLongMemEval(raw: unknown): boolean {
  const first = Array.isArray(raw) ? raw[0] : raw;
  return isRecord(first) && "question_id" in first && "haystack_sessions" in first;
}

/**
 * Reads LongMemEval's date form "2023/05/30 (Tue) 23:40" (weekday and clock optional) as a UTC
 * ISO string; an ISO time is accepted too. Throws InvalidInputError on anything else.
 */
export function parseLongMemEvalDate(text: string): string {
  const match = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s*\([A-Za-z]+\))?(?:\s+(\d{1,2}):(\d{2}))?$/.exec(
    text.trim(),
  );
  try {
    if (!match) return parseConversationTime(text);
    const [, year, month, day, hour = "0", minute = "00"] = match;
    return parseConversationTime(`${year}-${pad(month!)}-${pad(day!)}T${pad(hour)}:${minute}`);
  } catch {
    throw new InvalidInputError(`"${text}" is not a LongMemEval date (like "2023/05/30 (Tue) 23:40")`, {
      value: text,
    });
  }
}

/**
 * Reads a LongMemEval file (its parsed JSON: a list of items, or one item) into a QaSet with one
 * conversation per item. Throws InvalidInputError naming the item index and question id.
 */
export function readLongMemEval(raw: unknown): QaSet {
  const items = Array.isArray(raw) ? raw : [raw];
  if (items.length === 0) throw new InvalidInputError("The LongMemEval file holds no items");
  const notes: string[] = [];
  const seen = new Set<string>();
  let reordered = 0;
  const conversations = items.map((rawItem, index) => {
    const item = parseItem(rawItem, index);
    if (seen.has(item.question_id))
      throw new InvalidInputError(`LongMemEval item ${index}: question_id "${item.question_id}" repeats`, {
        field: `${index}.question_id`,
      });
    seen.add(item.question_id);
    const { conversation, wasReordered } = readItem(
      item,
      `LongMemEval item ${index} (${item.question_id})`,
      notes,
    );
    if (wasReordered) reordered++;
    return conversation;
  });
  if (reordered > 0)
    notes.push(
      `${reordered} item(s) listed their sessions out of date order; their sessions were sorted by date`,
    );
  return { format: "longmemeval", conversations, notes };
}

function parseItem(raw: unknown, index: number): LongMemEvalItem {
  const parsed = itemSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const id = isRecord(raw) && typeof raw.question_id === "string" ? ` (${raw.question_id})` : "";
  throw new InvalidInputError(
    `LongMemEval item ${index}${id} is malformed:\n${z.prettifyError(parsed.error)}`,
    {
      field: `${index}.${parsed.error.issues[0]?.path.join(".") ?? ""}`,
    },
  );
}

function readItem(
  item: LongMemEvalItem,
  where: string,
  notes: string[],
): { conversation: QaConversation; wasReordered: boolean } {
  const dated = haystackSessions(item, where, notes);
  const sessions = [...dated].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const wasReordered = sessions.some((s, i) => s !== dated[i]);
  const transcript = validateTranscript(
    { agent: AGENT, sessions: transcriptSessions(sessions, where, notes) },
    where,
  );
  const kept = new Set(transcript.sessions.flatMap((s) => s.turns.map((t) => t.id)));
  const askedAt = dateIn(item.question_date, `${where}: question_date`);
  const later = transcript.sessions.filter((s) => s.at > askedAt).length;
  if (later > 0) notes.push(`${where}: ${later} session(s) dated after the question (${askedAt})`);
  const question: QaQuestion = {
    id: item.question_id,
    category: item.question_type,
    question: item.question,
    answer: String(item.answer),
    askedAt,
    evidence: evidenceFor(item, sessions, kept, where, notes),
  };
  if (isAbstention(item.question_id)) question.abstention = true;
  else {
    const rule = GRADING_RULES[item.question_type];
    if (rule) question.rule = rule;
  }
  return { conversation: { id: item.question_id, transcript, questions: [question] }, wasReordered };
}

/** The haystack's sessions in file order, dated, with unique ids. */
function haystackSessions(item: LongMemEvalItem, where: string, notes: string[]): HaystackSession[] {
  const { haystack_session_ids: ids, haystack_dates: dates, haystack_sessions: sessions } = item;
  if (ids.length !== dates.length || ids.length !== sessions.length)
    throw new InvalidInputError(
      `${where}: haystack_session_ids (${ids.length}), haystack_dates (${dates.length}) and haystack_sessions (${sessions.length}) differ in length`,
    );
  const used = new Map<string, number>();
  return ids.map((sourceId, k) => {
    const count = (used.get(sourceId) ?? 0) + 1;
    used.set(sourceId, count);
    const unique = count === 1 ? sourceId : `${sourceId}#${count}`;
    if (count > 1) notes.push(`${where}: session id "${sourceId}" repeats; this one is "${unique}"`);
    return {
      sourceId,
      id: `${item.question_id}:${unique}`,
      at: dateIn(dates[k]!, `${where}: haystack_dates[${k}]`),
      turns: sessions[k]!,
    };
  });
}

/** The sessions as a raw memlane transcript's, leaving out (with a note) empty turns and sessions. */
function transcriptSessions(
  sessions: HaystackSession[],
  where: string,
  notes: string[],
): RawTranscript["sessions"] {
  const out: RawTranscript["sessions"] = [];
  for (const session of sessions) {
    const turns = session.turns.flatMap((turn, i) => {
      const id = turnId(session, i);
      if (!turn.content?.trim()) {
        notes.push(`${where}: turn "${id}" has no content; left out`);
        return [];
      }
      return [
        {
          id,
          speaker: speakerOf(turn.role, `${where}: turn "${id}"`),
          text: turn.content,
          meta: turnMeta(turn),
        },
      ];
    });
    if (turns.length === 0) {
      notes.push(`${where}: session "${session.sourceId}" has no turns with content; left out`);
      continue;
    }
    out.push({
      id: session.id,
      at: session.at,
      partners: [PARTNER],
      turns,
      meta: { longmemeval_session_id: session.sourceId },
    });
  }
  return out;
}

/**
 * Turns marked `has_answer`; when none is marked and the question is not an abstention one, every
 * turn of the answer sessions (with a note).
 */
function evidenceFor(
  item: LongMemEvalItem,
  sessions: HaystackSession[],
  kept: Set<string>,
  where: string,
  notes: string[],
): string[] {
  const marked = sessions.flatMap((s) =>
    s.turns.flatMap((t, i) => (t.has_answer === true ? [turnId(s, i)] : [])),
  );
  const evidence = marked.filter((id) => kept.has(id));
  if (evidence.length > 0 || isAbstention(item.question_id)) return evidence;
  const answerIds = new Set(item.answer_session_ids);
  const answerSessions = sessions.filter((s) => answerIds.has(s.sourceId));
  const missing = item.answer_session_ids.filter((id) => !sessions.some((s) => s.sourceId === id));
  if (missing.length > 0)
    notes.push(`${where}: answer_session_ids not in the haystack: ${missing.join(", ")}`);
  const fallback = answerSessions
    .flatMap((s) => s.turns.map((_, i) => turnId(s, i)))
    .filter((id) => kept.has(id));
  notes.push(
    fallback.length > 0
      ? `${where}: no turn is marked has_answer; evidence is all ${fallback.length} turn(s) of its answer sessions`
      : `${where}: no turn is marked has_answer and no answer session is in the haystack; no evidence`,
  );
  return fallback;
}

function turnId(session: HaystackSession, index: number): string {
  return `${session.id}:${index + 1}`;
}

function turnMeta(turn: LongMemEvalTurn): Record<string, unknown> {
  return turn.has_answer === true ? { has_answer: true } : {};
}

function speakerOf(role: string, where: string): string {
  if (role === AGENT || role === PARTNER) return role;
  throw new InvalidInputError(`${where}: role "${role}" is neither "user" nor "assistant"`);
}

function dateIn(text: string, where: string): string {
  try {
    return parseLongMemEvalDate(text);
  } catch (error) {
    throw new InvalidInputError(`${where}: ${(error as Error).message}`, { value: text });
  }
}

function isAbstention(questionId: string): boolean {
  return questionId.endsWith("_abs");
}
