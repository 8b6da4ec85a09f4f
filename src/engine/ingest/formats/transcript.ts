/**
 * The memlane transcript format (JSON), and its validation. One file holds one agent's sessions:
 *
 *   { "agent": "ava",
 *     "sessions": [ { "id": "s1", "at": "2024-03-02T18:00", "partners": ["sam"],
 *                     "turns": [ { "speaker": "sam", "text": "…", "at"?: "…", "id"?: "…" } ] } ] }
 *
 * `partner` may stand for a one-element `partners`. A file may also hold an array of such objects.
 * Validation collects every problem and reports them together; nothing is stored unless the
 * whole file is sound.
 */
import { z } from "zod";
import { InvalidInputError } from "../../../core/errors.js";
import { parseConversationTime } from "../../../core/time.js";
import { describeIssue, idSchema, inputIssues, turnTextSchema, unknownFields } from "../../api.js";

export interface TranscriptTurn {
  id: string;
  speaker: string;
  text: string;
  at: string;
  meta: Record<string, unknown>;
}

export interface TranscriptSession {
  id: string;
  at: string;
  partners: string[];
  turns: TranscriptTurn[];
  meta: Record<string, unknown>;
}

/** A validated transcript: times are UTC ISO strings, every turn has an id. */
export interface Transcript {
  agent: string;
  sessions: TranscriptSession[];
}

// Sessions and turns refuse fields they do not name: a misspelt `speakr` or `partner_id` would
// otherwise be dropped on the way into memory. Their `meta` stays open for the caller's own data.
const turnSchema = z.strictObject(
  {
    id: idSchema.optional(),
    speaker: idSchema,
    text: turnTextSchema,
    at: z.string().optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  },
  unknownFields,
);

const sessionSchema = z.strictObject(
  {
    id: z.union([idSchema, z.number()]).transform(String),
    at: z.string().min(1),
    partner: idSchema.optional(),
    partners: z.array(idSchema).optional(),
    turns: z.array(turnSchema),
    meta: z.record(z.string(), z.unknown()).optional(),
  },
  unknownFields,
);

const transcriptShape = { agent: idSchema, sessions: z.array(sessionSchema).min(1) };

/**
 * A transcript as a request body (`POST /v1/ingest`): strict at every level, since a field the
 * service does not read would be silently dropped from an upload.
 */
export const transcriptSchema = z.strictObject(transcriptShape, unknownFields);

/**
 * A transcript as a file: its top level may carry data beside the transcript, which is not read
 * (the shipped demo conversations keep their questions, roles and history there; lab datasets an
 * id). Sessions and turns are strict all the same.
 */
const transcriptFileSchema = z.object(transcriptShape);

export type RawTranscript = z.input<typeof transcriptSchema>;

/**
 * Checks and normalizes one transcript (as read from a file: other top-level fields are
 * ignored, unknown fields of sessions and turns refused); throws InvalidInputError listing every
 * problem, an unknown field first.
 */
export function validateTranscript(raw: unknown, source = "transcript"): Transcript {
  const parsed = transcriptFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = inputIssues(parsed.error);
    throw new InvalidInputError(
      `${source} is not a memlane transcript:\n${issues.map((i) => `✖ ${describeIssue(i)}`).join("\n")}`,
      {
        field: issues[0]?.field ?? "",
        problems: issues.map((i) => `${i.field}: ${i.message}`),
      },
    );
  }
  const problems: string[] = [];
  const { agent } = parsed.data;
  const sessionIds = new Set<string>();
  const turnIds = new Set<string>();
  const sessions: TranscriptSession[] = [];
  let previousAt = "";
  parsed.data.sessions.forEach((s, si) => {
    const where = `sessions[${si}] ("${s.id}")`;
    if (sessionIds.has(s.id)) problems.push(`${where}: duplicate session id`);
    sessionIds.add(s.id);
    const partners = [...new Set(s.partners ?? (s.partner ? [s.partner] : []))];
    if (partners.length === 0) problems.push(`${where}: names no partner`);
    if (partners.includes(agent)) problems.push(`${where}: the agent "${agent}" cannot be its own partner`);
    let at = "";
    try {
      at = parseConversationTime(s.at);
    } catch (error) {
      problems.push(`${where}: ${(error as Error).message}`);
    }
    if (at && previousAt && at < previousAt)
      problems.push(`${where}: starts at ${s.at}, before the session listed above it`);
    if (at) previousAt = at;
    if (s.turns.length === 0) problems.push(`${where}: has no turns`);
    const speakers = new Set([agent, ...partners]);
    let lastAt = at;
    const turns: TranscriptTurn[] = [];
    s.turns.forEach((t, ti) => {
      const tw = `${where}.turns[${ti}]`;
      if (!speakers.has(t.speaker))
        problems.push(`${tw}: unknown speaker "${t.speaker}" (expected one of ${[...speakers].join(", ")})`);
      if (!t.text.trim()) problems.push(`${tw}: empty text`);
      let turnAt = lastAt;
      if (t.at) {
        try {
          turnAt = parseConversationTime(t.at);
          if (lastAt && turnAt < lastAt)
            problems.push(`${tw}: at ${t.at} is earlier than the turn before it`);
        } catch (error) {
          problems.push(`${tw}: ${(error as Error).message}`);
        }
      }
      lastAt = turnAt;
      const id = t.id ?? `${s.id}:${ti + 1}`;
      if (turnIds.has(id)) problems.push(`${tw}: duplicate turn id "${id}"`);
      turnIds.add(id);
      turns.push({ id, speaker: t.speaker, text: t.text, at: turnAt, meta: t.meta ?? {} });
    });
    sessions.push({ id: s.id, at, partners, turns, meta: s.meta ?? {} });
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n… and ${problems.length - shown.length} more` : "";
    throw new InvalidInputError(
      `${source} has ${problems.length} problem(s):\n${shown.map((p) => `- ${p}`).join("\n")}${more}`,
      { field: problems[0]!.split(":")[0], problems },
    );
  }
  return { agent, sessions };
}
