/**
 * Reads BEAM ("Beyond a Million Tokens", Tavakoli et al. 2025) into a QaSet, so `memlane eval qa`
 * can run it without knowing its layout. BEAM ships each conversation as a folder holding
 * `chat.json` (the dialogue, in batches) and `probing_questions/probing_questions.json` (twenty
 * questions over ten memory abilities); each folder becomes one conversation (agent "assistant",
 * partner "user"), each batch one session.
 *
 * Format read from the public repository mohammadtavakoli78/BEAM: src/beam/download_dataset.py
 * (how chat.json and probing_questions.json are written, and the 10M layout), src/beam/utils.py
 * (time anchors are written "%B-%d-%Y", e.g. "March-15-2024"),
 * src/answer_probing_questions/answer_generation.py (folder layout `chats/<size>/<n>/`, and
 * `chat_trunecated.json` is read instead of chat.json when present), src/evaluation/run_evaluation.py
 * (graded per ability against `rubric`), and the data under chats/ (checked: message ids are unique
 * integers per chat and every `source_chat_ids` entry names one of them).
 *
 * - chat.json: a list of batches `{ batch_number, time_anchor, turns }`; `turns` is a list of
 *   exchanges, each a list of messages `{ id, role, content, time_anchor?, index?, question_type? }`.
 *   10M chats are a list of `{ "plan-<n>": [batches] }` with ids running on across plans.
 * - probing_questions.json: ability → list of questions with `question`, `rubric` (strings), an
 *   answer under one of `answer`, `ideal_answer`, `ideal_response` (abstention), `ideal_summary`
 *   (summarization) or `expected_compliance` (instruction and preference following), and
 *   `source_chat_ids` (abstention has none).
 *
 * Ambiguities and what this reader decided:
 * - The batch-level `time_anchor` is null in the published files (the converter only fills it from
 *   a later exchange); the anchor sits on the batch's first user message. A batch is dated by its
 *   own anchor, else the first anchor among its messages. A batch with neither is dated the day
 *   after the batch before it (never past the next dated batch; before the first dated batch, a day
 *   earlier per batch), with a note; a chat with no anchor at all is refused.
 * - Anchors are days; sessions start at 00:00 UTC that day, and questions are asked at 00:00 UTC of
 *   the day after the last batch's date.
 * - `source_chat_ids` comes as a list of ids, nested lists, or an object of labelled lists
 *   ({ first_statement, second_statement }, …); every id found is evidence, in order, once. Ids
 *   naming no turn of the transcript are left out with a note.
 * - Questions have no ids: they are `<conversation>:<ability>:<n>` (n from 1, file order). Turn ids
 *   are `<conversation>:<BEAM message id>`, so evidence matches them.
 * - Message text is kept as written, with BEAM's " ->-> <batch>,<bullet>" markers, as BEAM's own
 *   answer generation feeds it; an empty message is left out with a note.
 * - A folder with chat_trunecated.json is read from it, as BEAM's answer generation does (noted).
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { InvalidInputError } from "../../../../src/core/errors.js";
import { monthIndex, parseConversationTime } from "../../../../src/core/time.js";
import { idSchema } from "../../../../src/engine/api.js";
import {
  type RawTranscript,
  type Transcript,
  validateTranscript,
} from "../../../../src/engine/ingest/formats/transcript.js";
import type { QaConversation, QaQuestion, QaSet } from "../qa-set.js";
import { isRecord, pad } from "./read-kit.js";

const AGENT = "assistant";
const PARTNER = "user";
const DAY_MS = 86_400_000;
const ABSTENTION = "abstention";
/** Where BEAM writes the gold answer, by ability; the first one present is taken. */
const ANSWER_FIELDS = ["answer", "ideal_answer", "ideal_response", "ideal_summary", "expected_compliance"];
const CHAT_FILES = ["chat_trunecated.json", "chat.json"];
const PROBING_FILES = [join("probing_questions", "probing_questions.json"), "probing_questions.json"];
/** How deep readBeamFolder looks for conversation folders (chats/ → 100K/ → 1/). */
const MAX_FOLDER_DEPTH = 3;

const messageSchema = z.object({
  id: z.union([z.number().int().nonnegative(), z.string().min(1)]),
  role: z.string(),
  content: z.string().nullable(),
  time_anchor: z.string().nullable().optional(),
  index: z.unknown().optional(),
  question_type: z.string().nullable().optional(),
});

const batchSchema = z.object({
  batch_number: z.number().int().optional(),
  time_anchor: z.string().nullable().optional(),
  turns: z.array(z.union([z.array(messageSchema), messageSchema])),
});

type BeamMessage = z.infer<typeof messageSchema>;
type BeamBatch = z.infer<typeof batchSchema>;

/** A batch, with the session id it becomes. */
interface LabelledBatch {
  sessionId: string;
  label: string;
  batch: BeamBatch;
}

/** True when `raw` looks like a BEAM chat.json: a list of batches, or of 10M `{ "plan-<n>": [...] }` parts. */
export function isBeamChat(raw: unknown): boolean {
  if (!Array.isArray(raw) || raw.length === 0) return false;
  return isBatchLike(raw[0]) || planEntry(raw[0]) !== undefined;
}

/**
 * Reads BEAM's time anchor ("March-15-2024"; also "March 15, 2024", "03/15/2024" or ISO) as the
 * UTC ISO start of that day. Throws InvalidInputError.
 */
export function parseBeamAnchor(text: string): string {
  const named = /^([A-Za-z]+)[-\s]+(\d{1,2}),?[-\s]+(\d{4})$/.exec(text.trim());
  const slashed = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(text.trim());
  try {
    if (named) {
      const month = monthIndex(named[1]!);
      if (month < 0) throw new Error("no such month");
      return parseConversationTime(`${named[3]}-${pad(String(month + 1))}-${pad(named[2]!)}`);
    }
    if (slashed) return parseConversationTime(`${slashed[3]}-${pad(slashed[1]!)}-${pad(slashed[2]!)}`);
    return parseConversationTime(text);
  } catch {
    throw new InvalidInputError(`"${text}" is not a BEAM time anchor (like "March-15-2024")`, {
      value: text,
    });
  }
}

/**
 * Reads one BEAM conversation: `chat` is chat.json's parsed JSON, `probing` probing_questions.json's.
 * `id` names the conversation and prefixes every session, turn and question id. Throws
 * InvalidInputError naming the batch, ability or question at fault.
 */
export function readBeam(chat: unknown, probing: unknown, id = "beam"): QaSet {
  const where = `BEAM conversation "${id}"`;
  if (!idSchema.safeParse(id).success)
    throw new InvalidInputError(`${where}: the conversation id is not a valid memlane id`, { value: id });
  const notes: string[] = [];
  const transcript = beamTranscript(chat, id, where, notes);
  const lastAt = transcript.sessions.at(-1)!.at;
  const askedAt = new Date(Date.parse(lastAt) + DAY_MS).toISOString();
  const turnIds = new Set(transcript.sessions.flatMap((s) => s.turns.map((t) => t.id)));
  const questions = beamQuestions(probing, { id, where, askedAt, turnIds, notes });
  const conversation: QaConversation = { id, transcript, questions };
  return { format: "beam", conversations: [conversation], notes };
}

/**
 * Reads a BEAM folder: one conversation folder (chat.json, or chat_trunecated.json, beside
 * probing_questions/probing_questions.json), or a folder holding such folders (like BEAM's
 * `chats/100K/` or `chats/`). Conversation ids are the folder's name, followed by the path to each
 * conversation folder inside it ("100K/7"). Throws InvalidInputError when nothing is found.
 */
export async function readBeamFolder(dir: string): Promise<QaSet> {
  const root = resolve(dir);
  if (!(await isDirectory(root))) throw new InvalidInputError(`BEAM folder ${dir} is not a folder`);
  const notes: string[] = [];
  const own = await conversationFiles(root);
  if (own.chat || own.probing) {
    if (!own.chat || !own.probing)
      throw new InvalidInputError(
        `BEAM folder ${dir} has ${own.chat ? "chat.json but no probing_questions/probing_questions.json" : "probing questions but no chat.json"}`,
      );
    const set = await readConversationFolder(root, own.chat, own.probing, basename(root), notes);
    return { ...set, notes };
  }
  const found = await conversationFolders(root, 1, notes);
  if (found.length === 0)
    throw new InvalidInputError(
      `BEAM folder ${dir} holds no conversation (chat.json with probing_questions.json)`,
    );
  const conversations: QaConversation[] = [];
  for (const folder of found) {
    const id = [basename(root), ...relative(root, folder.dir).split(sep)].join("/");
    const set = await readConversationFolder(folder.dir, folder.chat, folder.probing, id, notes);
    conversations.push(...set.conversations);
  }
  return { format: "beam", conversations, notes };
}

/** The transcript: one session per batch, dated by its anchor. */
function beamTranscript(chat: unknown, id: string, where: string, notes: string[]): Transcript {
  const batches = labelledBatches(chat, id, where);
  const dates = batchDates(batches, where, notes);
  const sessions: RawTranscript["sessions"] = batches.map(({ sessionId, label, batch }, b) => ({
    id: sessionId,
    at: dates[b]!,
    partners: [PARTNER],
    turns: batchTurns(batch, id, `${where} ${label}`, notes),
    meta: { beam_batch: label, ...(anchorOf(batch) ? { time_anchor: anchorOf(batch) } : {}) },
  }));
  const kept = sessions.filter((s, b) => {
    if (s.turns.length > 0) return true;
    notes.push(`${where} ${batches[b]!.label}: no message with content; left out`);
    return false;
  });
  return validateTranscript({ agent: AGENT, sessions: kept }, where);
}

/** chat.json's batches in order, flattening 10M's plans, each with its session id. */
function labelledBatches(chat: unknown, id: string, where: string): LabelledBatch[] {
  if (!Array.isArray(chat) || chat.length === 0)
    throw new InvalidInputError(`${where}: chat.json is not a non-empty list of batches`);
  const parts = chat.map((entry, p) => {
    if (isBatchLike(entry)) return { prefix: "", batches: [entry] };
    const plan = planEntry(entry);
    if (!plan)
      throw new InvalidInputError(`${where}: chat.json entry ${p} is neither a batch nor a 10M plan`);
    return { prefix: `${plan.name}/`, batches: plan.batches };
  });
  const counters = new Map<string, number>();
  return parts.flatMap(({ prefix, batches }) =>
    batches.map((raw) => {
      const position = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, position);
      const parsed = batchSchema.safeParse(raw);
      const label = `${prefix}batch ${isRecord(raw) && typeof raw.batch_number === "number" ? raw.batch_number : position}`;
      if (!parsed.success)
        throw new InvalidInputError(`${where} ${label} is malformed:\n${z.prettifyError(parsed.error)}`, {
          field: parsed.error.issues[0]?.path.join(".") ?? "",
        });
      return { sessionId: `${id}:${label.replace(" ", "-")}`, label, batch: parsed.data };
    }),
  );
}

/** The batch's messages as memlane turns, leaving out (with a note) empty ones. */
function batchTurns(batch: BeamBatch, id: string, where: string, notes: string[]) {
  return messagesOf(batch).flatMap((message) => {
    const turnId = `${id}:${message.id}`;
    if (!message.content?.trim()) {
      notes.push(`${where}: message ${message.id} has no content; left out`);
      return [];
    }
    if (message.role !== AGENT && message.role !== PARTNER)
      throw new InvalidInputError(
        `${where}: message ${message.id} has role "${message.role}", not user or assistant`,
      );
    const meta: Record<string, unknown> = { beam_id: message.id };
    if (message.question_type) meta.question_type = message.question_type;
    if (typeof message.index === "string") meta.index = message.index;
    return [{ id: turnId, speaker: message.role, text: message.content, meta }];
  });
}

/**
 * Each batch's date: its anchor, or one filled in from its neighbours (with a note). Throws when
 * no batch has an anchor.
 */
function batchDates(batches: LabelledBatch[], where: string, notes: string[]): string[] {
  const known = batches.map(({ batch, label }) => {
    const anchor = anchorOf(batch);
    if (!anchor) return undefined;
    try {
      return Date.parse(parseBeamAnchor(anchor));
    } catch (error) {
      throw new InvalidInputError(`${where} ${label}: ${(error as Error).message}`, { value: anchor });
    }
  });
  const firstKnown = known.findIndex((ms) => ms !== undefined);
  if (firstKnown < 0)
    throw new InvalidInputError(`${where}: no batch has a time_anchor, so nothing can be dated`);
  const dates: number[] = [];
  known.forEach((ms, b) => {
    if (ms !== undefined) {
      dates.push(ms);
      return;
    }
    const filled =
      b < firstKnown
        ? known[firstKnown]! - (firstKnown - b) * DAY_MS
        : Math.min(dates[b - 1]! + DAY_MS, nextKnown(known, b) ?? Number.POSITIVE_INFINITY);
    dates.push(filled);
    notes.push(
      `${where} ${batches[b]!.label}: no time_anchor; dated ${new Date(filled).toISOString().slice(0, 10)}`,
    );
  });
  return dates.map((ms) => new Date(ms).toISOString());
}

function nextKnown(known: (number | undefined)[], from: number): number | undefined {
  return known.slice(from + 1).find((ms) => ms !== undefined);
}

/** The batch's anchor, or the first one among its messages. */
function anchorOf(batch: BeamBatch): string | undefined {
  return batch.time_anchor || messagesOf(batch).find((m) => m.time_anchor)?.time_anchor || undefined;
}

function messagesOf(batch: BeamBatch): BeamMessage[] {
  return batch.turns.flatMap((exchange) => (Array.isArray(exchange) ? exchange : [exchange]));
}

interface QuestionContext {
  id: string;
  where: string;
  askedAt: string;
  turnIds: Set<string>;
  notes: string[];
}

/** Every probing question, ability by ability, in file order. */
function beamQuestions(probing: unknown, context: QuestionContext): QaQuestion[] {
  if (!isRecord(probing))
    throw new InvalidInputError(`${context.where}: probing_questions.json is not an object of abilities`);
  return Object.entries(probing).flatMap(([ability, list]) => {
    if (!Array.isArray(list))
      throw new InvalidInputError(`${context.where}: ability "${ability}" is not a list of questions`);
    return list.map((raw, i) => beamQuestion(raw, ability, i, context));
  });
}

function beamQuestion(raw: unknown, ability: string, index: number, context: QuestionContext): QaQuestion {
  const id = `${context.id}:${ability}:${index + 1}`;
  const where = `${context.where} question ${ability}[${index}]`;
  if (!isRecord(raw) || typeof raw.question !== "string" || !raw.question.trim())
    throw new InvalidInputError(`${where} has no question text`, { field: `${ability}.${index}.question` });
  const rubric = rubricOf(raw.rubric);
  const question: QaQuestion = {
    id,
    category: ability,
    question: raw.question,
    answer: answerOf(raw, rubric, where, context.notes),
    askedAt: context.askedAt,
    evidence: evidenceOf(raw.source_chat_ids, where, context),
  };
  if (rubric) question.rubric = rubric;
  else context.notes.push(`${where}: no rubric; graded against the answer`);
  if (ability === ABSTENTION) question.abstention = true;
  return question;
}

/** The gold answer; failing every answer field, the rubric's points (with a note). */
function answerOf(
  raw: Record<string, unknown>,
  rubric: string[] | undefined,
  where: string,
  notes: string[],
): string {
  for (const field of ANSWER_FIELDS) {
    const value = raw[field];
    if (typeof value === "string" && value.trim()) return value;
    if (typeof value === "number") return String(value);
  }
  if (!rubric)
    throw new InvalidInputError(`${where} has neither an answer (${ANSWER_FIELDS.join(", ")}) nor a rubric`);
  notes.push(`${where}: no answer field; the rubric stands as the answer`);
  return rubric.join("; ");
}

function rubricOf(value: unknown): string[] | undefined {
  const points = (Array.isArray(value) ? value : [value]).filter(
    (p): p is string => typeof p === "string" && p.trim() !== "",
  );
  return points.length > 0 ? points : undefined;
}

/** Turn ids named by `source_chat_ids`, whatever its nesting; unknown ids are left out with a note. */
function evidenceOf(value: unknown, where: string, context: QuestionContext): string[] {
  const ids = [...new Set(sourceIds(value).map((n) => `${context.id}:${n}`))];
  const missing = ids.filter((id) => !context.turnIds.has(id));
  if (missing.length > 0)
    context.notes.push(`${where}: source_chat_ids name no turn of the chat: ${missing.join(", ")}; left out`);
  return ids.filter((id) => context.turnIds.has(id));
}

/** Every id in a list, nested list, or object of lists, in order. */
function sourceIds(value: unknown): string[] {
  if (typeof value === "number" && Number.isInteger(value)) return [String(value)];
  if (typeof value === "string" && value.trim()) return [value.trim()];
  if (Array.isArray(value)) return value.flatMap(sourceIds);
  if (isRecord(value)) return Object.values(value).flatMap(sourceIds);
  return [];
}

async function readConversationFolder(
  dir: string,
  chatFile: string,
  probingFile: string,
  id: string,
  notes: string[],
): Promise<QaSet> {
  if (basename(chatFile) !== "chat.json")
    notes.push(`BEAM conversation "${id}": read ${basename(chatFile)}, not chat.json`);
  const set = readBeam(await readJson(join(dir, chatFile)), await readJson(join(dir, probingFile)), id);
  notes.push(...set.notes);
  return set;
}

/** Conversation folders below `dir`, in natural order ("2" before "10"); half-conversations are noted. */
async function conversationFolders(
  dir: string,
  depth: number,
  notes: string[],
): Promise<{ dir: string; chat: string; probing: string }[]> {
  if (depth > MAX_FOLDER_DEPTH) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  const children = entries
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const found: { dir: string; chat: string; probing: string }[] = [];
  for (const name of children) {
    const child = join(dir, name);
    const files = await conversationFiles(child);
    if (files.chat && files.probing) found.push({ dir: child, chat: files.chat, probing: files.probing });
    else if (files.chat || files.probing)
      notes.push(
        `BEAM folder ${child}: has ${files.chat ? "a chat but no probing questions" : "probing questions but no chat"}; skipped`,
      );
    else found.push(...(await conversationFolders(child, depth + 1, notes)));
  }
  return found;
}

/** Which chat and probing-question files a folder holds (paths relative to it). */
async function conversationFiles(dir: string): Promise<{ chat?: string; probing?: string }> {
  const chat = await firstFile(dir, CHAT_FILES);
  const probing = await firstFile(dir, PROBING_FILES);
  return { ...(chat ? { chat } : {}), ...(probing ? { probing } : {}) };
}

async function firstFile(dir: string, names: string[]): Promise<string | undefined> {
  for (const name of names) if (await isFile(join(dir, name))) return name;
  return undefined;
}

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, "utf8");
  if (!text.trim()) throw new InvalidInputError(`${file} is empty`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

function isBatchLike(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.turns);
}

/** A 10M chat part `{ "plan-<n>": [batches] }`. */
function planEntry(value: unknown): { name: string; batches: unknown[] } | undefined {
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const batches = value[keys[0]!];
  return Array.isArray(batches) ? { name: keys[0]!, batches } : undefined;
}
