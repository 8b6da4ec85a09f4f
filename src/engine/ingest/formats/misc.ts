/**
 * Reads MiSC (Jang, Kim and Kim 2024, "Mixed-Session Conversation with Egocentric Memory"; CC BY 4.0,
 * Hugging Face `jihyoung/MiSC`, train/val/test JSONL) into memlane transcripts: one transcript per
 * episode, the main speaker as the agent, each session with its one partner.
 *
 * No MiSC file was at hand when this was written: the field names below come from the paper's
 * description and one third-party viewer's notes (sessions as `first_session_dialogue` …
 * `sixth_session_dialogue`, each `[[speakers…], [utterances…]]`; the main speaker as
 * `main_speaker`, or first in `speaker_list`). They are kept in MISC_FIELDS, the one place to
 * correct once a real file is checked. The reader also takes a session as a list of
 * `{speaker, text}` objects, or as a list of utterances with a parallel `<ordinal>_session_speakers`
 * list (the layout of Conversation Chronicles, the same authors' earlier set). Without a main
 * speaker field, the agent is the one speaker present in every session. MiSC has no dates:
 * sessions are placed a week apart from MISC_START. Anything else in a record (memories, links,
 * tags) is kept in the session's meta under `misc`: a session's own fields
 * (`<ordinal>_session_<field>`) under `<field>` in that session, the episode's in every session.
 */
import { InvalidInputError } from "../../../core/errors.js";
import { slug } from "../../../core/ids.js";
import { type RawTranscript, type Transcript, validateTranscript } from "./transcript.js";

/** Every MiSC field name the reader relies on, in one place. */
export const MISC_FIELDS = {
  id: ["dataID", "data_id", "id", "episode_id"],
  mainSpeaker: ["main_speaker", "mainSpeaker"],
  speakerList: ["speaker_list", "speakers"],
  ordinals: ["first", "second", "third", "fourth", "fifth", "sixth"],
  /** `<ordinal>` + this: the session's dialogue. */
  dialogue: "_session_dialogue",
  /** `<ordinal>` + this: the session's speakers, when the dialogue is utterances only. */
  speakers: "_session_speakers",
  /** A line's speaker and text, when a session is a list of objects. */
  lineSpeaker: ["speaker", "name"],
  lineText: ["text", "utterance"],
} as const;

/** Conversation time of the first session of every episode (MiSC has no dates). */
export const MISC_START = "2024-01-01T12:00:00.000Z";
const WEEK = 7 * 86_400_000;

type Line = { speaker: string; text: string };

function pick(record: Record<string, unknown>, names: readonly string[]): unknown {
  for (const n of names) if (record[n] !== undefined && record[n] !== null) return record[n];
  return undefined;
}

/** True when a record looks like a MiSC episode: it has at least one `<ordinal>_session_dialogue`. */
export function isMisc(raw: unknown): boolean {
  const first = Array.isArray(raw) ? raw[0] : raw;
  return (
    !!first &&
    typeof first === "object" &&
    MISC_FIELDS.ordinals.some((o) => `${o}${MISC_FIELDS.dialogue}` in (first as Record<string, unknown>))
  );
}

/** One session's lines, whichever of the accepted shapes it has; null when it has none. */
function sessionLines(record: Record<string, unknown>, ordinal: string, where: string): Line[] | null {
  const dialogue = record[`${ordinal}${MISC_FIELDS.dialogue}`];
  if (dialogue === undefined || dialogue === null) return null;
  if (!Array.isArray(dialogue)) throw new InvalidInputError(`${where}: the dialogue is not a list`);
  if (dialogue.length === 0) return [];
  // [[speakers…], [utterances…]]
  if (dialogue.length === 2 && Array.isArray(dialogue[0]) && Array.isArray(dialogue[1])) {
    const [speakers, utterances] = dialogue as [unknown[], unknown[]];
    if (speakers.length !== utterances.length)
      throw new InvalidInputError(
        `${where}: ${speakers.length} speakers but ${utterances.length} utterances`,
      );
    return speakers.map((s, i) => ({ speaker: String(s), text: String(utterances[i]) }));
  }
  // [{speaker, text}…]
  if (dialogue.every((d) => d && typeof d === "object" && !Array.isArray(d)))
    return (dialogue as Record<string, unknown>[]).map((d, i) => {
      const speaker = pick(d, MISC_FIELDS.lineSpeaker);
      const text = pick(d, MISC_FIELDS.lineText);
      if (typeof speaker !== "string" || typeof text !== "string")
        throw new InvalidInputError(`${where}: line ${i} needs a speaker and a text`);
      return { speaker, text };
    });
  // [utterance…] with a parallel speakers list
  const speakers = record[`${ordinal}${MISC_FIELDS.speakers}`];
  if (
    dialogue.every((d) => typeof d === "string") &&
    Array.isArray(speakers) &&
    speakers.length === dialogue.length
  )
    return dialogue.map((text, i) => ({ speaker: String(speakers[i]), text: text as string }));
  throw new InvalidInputError(`${where}: a session's dialogue is not in a shape MiSC is known to use`);
}

/** One MiSC episode per record (an array, or the records of a JSONL file). */
export function readMisc(raw: unknown, source = "MiSC"): Transcript[] {
  const records = Array.isArray(raw) ? raw : [raw];
  if (records.length === 0) throw new InvalidInputError(`${source} holds no episode`);
  return records.map((r, n) => {
    if (!r || typeof r !== "object") throw new InvalidInputError(`${source} record ${n} is not an object`);
    const record = r as Record<string, unknown>;
    const id = String(pick(record, MISC_FIELDS.id) ?? `episode-${n + 1}`);
    const where = `${source} episode ${id}`;
    const sessions = MISC_FIELDS.ordinals
      .map((o, i) => ({
        ordinal: o as string,
        index: i,
        lines: sessionLines(record, o, `${where}, ${o} session`),
      }))
      .filter(
        (s): s is { ordinal: string; index: number; lines: Line[] } => s.lines !== null && s.lines.length > 0,
      );
    if (sessions.length === 0) throw new InvalidInputError(`${where} has no session dialogue`);
    const main = mainSpeaker(record, sessions, where);
    const { episode: rest, bySession } = otherFields(record);
    const transcript: RawTranscript = {
      agent: slug(main) || main,
      sessions: sessions.map((s) => {
        const partners = [...new Set(s.lines.map((l) => l.speaker).filter((x) => x !== main))];
        if (partners.length === 0)
          throw new InvalidInputError(`${where}, ${s.ordinal} session: only the main speaker talks`);
        return {
          id: `${id}-s${s.index + 1}`,
          at: new Date(Date.parse(MISC_START) + s.index * WEEK).toISOString(),
          partners: partners.map((p) => slug(p) || p),
          meta: { misc: { episode: id, session: s.index + 1, ...rest, ...bySession[s.ordinal] } },
          turns: s.lines.map((l, t) => ({
            id: `${id}-s${s.index + 1}-t${t}`,
            speaker: slug(l.speaker) || l.speaker,
            text: l.text,
          })),
        };
      }),
    };
    return validateTranscript(transcript, where);
  });
}

/**
 * A record's fields other than the dialogues: the episode's own, and each session's
 * (`<ordinal>_session_<field>`, e.g. its memories or links) by ordinal, under `<field>`. Nothing is
 * dropped: a session's fields go to that session's meta, the episode's to every session's.
 */
function otherFields(record: Record<string, unknown>): {
  episode: Record<string, unknown>;
  bySession: Record<string, Record<string, unknown>>;
} {
  const episode: Record<string, unknown> = {};
  const bySession: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(record)) {
    const ordinal = MISC_FIELDS.ordinals.find((o) => key.startsWith(`${o}_session_`));
    if (!ordinal) {
      episode[key] = value;
      continue;
    }
    if (key === `${ordinal}${MISC_FIELDS.dialogue}` || key === `${ordinal}${MISC_FIELDS.speakers}`) continue;
    bySession[ordinal] = { ...bySession[ordinal], [key.slice(`${ordinal}_session_`.length)]: value };
  }
  return { episode, bySession };
}

/** The main speaker: the named field, else the first of the speaker list, else whoever is in every session. */
function mainSpeaker(record: Record<string, unknown>, sessions: { lines: Line[] }[], where: string): string {
  const named = pick(record, MISC_FIELDS.mainSpeaker);
  if (typeof named === "string" && named.trim()) return named;
  const list = pick(record, MISC_FIELDS.speakerList);
  if (Array.isArray(list) && typeof list[0] === "string") return list[0];
  const everywhere = [...new Set(sessions[0]!.lines.map((l) => l.speaker))].filter((s) =>
    sessions.every((x) => x.lines.some((l) => l.speaker === s)),
  );
  if (everywhere.length === 1) return everywhere[0]!;
  throw new InvalidInputError(
    `${where}: no main speaker field, and ${everywhere.length ? `several speakers (${everywhere.join(", ")})` : "no speaker"} talk in every session`,
  );
}

/** A MiSC file's text: JSONL (the published splits) or one JSON array or object. */
export function parseMiscText(text: string, source = "MiSC"): Transcript[] {
  const trimmed = text.trim();
  if (!trimmed) throw new InvalidInputError(`${source} is empty`);
  try {
    return readMisc(JSON.parse(trimmed), source);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  const records = trimmed.split(/\r?\n/).flatMap((line, i) => {
    if (!line.trim()) return [];
    try {
      return [JSON.parse(line) as unknown];
    } catch (error) {
      throw new InvalidInputError(`${source} line ${i + 1} is not JSON: ${(error as Error).message}`);
    }
  });
  return readMisc(records, source);
}
