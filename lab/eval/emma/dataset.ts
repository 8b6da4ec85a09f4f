/**
 * EMMA's lab set (data/emma/episodes.json, written by us, CC0): mixed-session episodes — one agent,
 * six sessions, three partners in mixed order, partners recurring — and questions put to the
 * agent while it talks with one partner about what another said, or how something developed,
 * each with its gold turns ("s3:2" = session s3's turn 2). Episodes split into tune and test by
 * a hash of their id, fixed before any score was seen.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { InvalidInputError, NotFoundError } from "../../../src/core/errors.js";
import { fnv1a } from "../../../src/core/text.js";
import { type Transcript, validateTranscript } from "../../../src/engine/ingest/formats/transcript.js";

const idText = z.string().min(1);
const sessionSchema = z.object({
  id: idText,
  at: idText,
  partner: idText,
  event: z.string().optional(),
  turns: z.array(z.tuple([idText, z.string().min(1)])).min(1),
});
const questionSchema = z.object({
  id: idText,
  askedBy: idText,
  ask: z.string().min(1),
  gold: z.array(z.string().regex(/^[^:]+:\d+$/, 'a gold turn is "<session suffix>:<turn index>"')).min(1),
  kind: z.enum(["cross-partner", "development"]).default("cross-partner"),
});
const episodeSchema = z.object({
  id: idText,
  agent: idText,
  roles: z.record(z.string(), z.string()).default({}),
  sessions: z.array(sessionSchema).min(1),
  questions: z.array(questionSchema),
});
const fileSchema = z.object({ episodes: z.array(episodeSchema).min(1) });

export interface EmmaQuestion {
  id: string;
  episode: string;
  askedBy: string;
  ask: string;
  kind: "cross-partner" | "development";
  /** Stored turn ids any of which answers the question. */
  goldTurns: string[];
  /** Whom the answer is about: the speaker of the first gold turn. */
  person: string;
  /** Conversation time the question is asked at: a week after the last session. */
  at: string;
}

export interface EmmaEpisode {
  id: string;
  transcript: Transcript;
  questions: EmmaQuestion[];
  part: "tune" | "test";
}

/** Episodes in the tune part: one in three by a hash of the id. */
export function emmaPart(id: string): "tune" | "test" {
  return (fnv1a(`memlane-emma:${id}`) >>> 0) % 3 === 0 ? "tune" : "test";
}

/** The turn id a transcript gives turn `index` of session `session`. */
export const turnId = (session: string, index: number) => `${session}-t${index}`;

export function parseEmmaEpisodes(raw: unknown, source = "input"): EmmaEpisode[] {
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success)
    throw new InvalidInputError(`${source} is not an EMMA episode file:\n${z.prettifyError(parsed.error)}`, {
      field: parsed.error.issues[0]?.path.join(".") ?? "",
    });
  const problems: string[] = [];
  const episodes = parsed.data.episodes.map((e) => {
    const transcript = validateTranscript(
      {
        agent: e.agent,
        sessions: e.sessions.map((s) => ({
          id: s.id,
          at: s.at,
          partner: s.partner,
          meta: { roles: e.roles, ...(s.event ? { event: s.event } : {}) },
          turns: s.turns.map(([speaker, text], i) => ({ id: turnId(s.id, i), speaker, text })),
        })),
      },
      `${source} episode ${e.id}`,
    );
    for (const s of e.sessions)
      for (const [speaker] of s.turns)
        if (speaker !== e.agent && speaker !== s.partner)
          problems.push(`${e.id}/${s.id}: speaker "${speaker}" is neither the agent nor the partner`);
    const last = transcript.sessions.at(-1)!.at;
    const questions = e.questions.map((q): EmmaQuestion => {
      const goldTurns: string[] = [];
      let person = "";
      for (const g of q.gold) {
        const [suffix, index] = g.split(":") as [string, string];
        const session = e.sessions.find((s) => s.id === suffix || s.id.endsWith(`-${suffix}`));
        const turn = session?.turns[Number(index)];
        if (!session || !turn) {
          problems.push(`${q.id}: gold "${g}" names no turn`);
          continue;
        }
        goldTurns.push(turnId(session.id, Number(index)));
        person ||= turn[0];
      }
      return {
        id: q.id,
        episode: e.id,
        askedBy: q.askedBy,
        ask: q.ask,
        kind: q.kind,
        goldTurns,
        person,
        at: new Date(Date.parse(last) + 7 * 86_400_000).toISOString(),
      };
    });
    return { id: e.id, transcript, questions, part: emmaPart(e.id) };
  });
  if (problems.length)
    throw new InvalidInputError(
      `${source} has ${problems.length} problem(s):\n${problems.slice(0, 20).join("\n")}`,
      {
        problems,
      },
    );
  return episodes;
}

export async function loadEmmaEpisodes(path: string): Promise<EmmaEpisode[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") throw new NotFoundError(`No file at ${path}`);
    throw new InvalidInputError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseEmmaEpisodes(raw, path);
}
