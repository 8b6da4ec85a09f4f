/**
 * A forget applied to transcripts that wait to be stored: the transcripts of an unfinished upload
 * (an ingest job's row, or the copy a running ingest holds in memory). What goes is what the
 * forget erases from stored turns, so the rest of the upload lands as if it had been stored
 * before the forget: a forgotten session whole; for a person, their turns and the replies that
 * answered them (`repliesTo`, the rule forget applies to stored turns), and a session left with
 * no turn. Sessions are matched by id and people by id (a speaker, a partner, an agent of a
 * conversation), never by words in the text.
 *
 * Works on raw uploads (as `memlane serve` keeps them) and on validated transcripts alike. A kept
 * turn keeps the id and time it had in the whole session, so a job resumed after a forget stores
 * each turn under the id it would have had, after the turns stored before.
 */
import { erasedTexts, quoteFinder, repliesTo, Scrubber } from "./redaction.js";

/** What is forgotten of an agent's pending transcripts: a session, or a person. */
export interface PendingForget {
  sessionId?: string;
  about?: string;
  /**
   * Set when `about` is known to be a person of the scope: only then is their name looked for in
   * the agent's words of sessions they are not in. A word that names no one is never matched.
   */
  known?: boolean;
}

/** Ids are compared in the normal form every new id is in (NFC), so an id stored otherwise still matches. */
export function sameId(a: string, b: string): boolean {
  return a === b || a.normalize("NFC") === b.normalize("NFC");
}

interface LooseTurn {
  id?: unknown;
  speaker?: unknown;
  text?: unknown;
  at?: unknown;
  meta?: unknown;
}

interface LooseSession {
  id?: unknown;
  partner?: unknown;
  partners?: unknown;
  meta?: unknown;
  turns?: unknown;
}

interface LooseTranscript {
  agent?: unknown;
  sessions?: unknown;
}

const record = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);

/** The people of a session: its partners and the other agents of a conversation. */
function peopleOf(s: LooseSession): string[] {
  const partners = strings(s.partners);
  if (typeof s.partner === "string") partners.push(s.partner);
  const agents = record(s.meta) ? strings(s.meta.agents) : [];
  return [...partners, ...agents];
}

/**
 * A session with what `forget` takes from it: null when nothing of it is left, the same object
 * when nothing goes, else a copy without the person's turns and the replies to them.
 */
export function forgetInSession<S extends LooseSession>(
  agent: string,
  session: S,
  forget: PendingForget,
): S | null {
  if (
    forget.sessionId !== undefined &&
    typeof session.id === "string" &&
    sameId(session.id, forget.sessionId)
  )
    return null;
  const about = forget.about;
  // The agent is no one's person in its own memory: its words go only as replies to someone.
  if (about === undefined || sameId(about, agent) || !Array.isArray(session.turns)) return session;
  const turns = session.turns as LooseTurn[];
  const agents = [agent, ...(record(session.meta) ? strings(session.meta.agents) : [])];
  const named = [...peopleOf(session), ...turns.map((t) => String(t.speaker))].find((p) => sameId(p, about));
  const spoken = turns.map((t, i) => ({
    id: String(i),
    speaker: String(t.speaker),
    text: String(t.text ?? ""),
    generated: record(t.meta) && t.meta.generated === true,
  }));
  const gone = new Set(named === undefined ? [] : repliesTo(spoken, agents, named, peopleOf(session)));
  for (const [i, t] of spoken.entries()) if (sameId(t.speaker, about)) gone.add(String(i));
  if (gone.size === turns.length) return null;
  // As forget redacts stored turns: verbatim copies of the person's words anywhere, and, in the
  // agent's own words and generated replies, facts told back (read closely in a session the person
  // spoke in; elsewhere only their name inside a sentence).
  const evidence = spoken.filter((t) => sameId(t.speaker, about) && !t.generated).map((t) => t.text);
  const verbatim = new Scrubber(erasedTexts([], evidence));
  const quotes = quoteFinder(evidence, named ?? about);
  // Away from the person's sessions only their name can be looked for: never for a word that
  // may name no one.
  if (named === undefined && forget.known !== true) return session;
  const reach = named === undefined ? "far" : "near";
  // A turn's id and time came from its place and the turns before it: both are pinned, so that
  // what is kept is stored exactly as it would have been.
  let at: unknown;
  let changed = gone.size > 0;
  const kept: LooseTurn[] = [];
  for (const [i, t] of turns.entries()) {
    if (t.at !== undefined) at = t.at;
    if (gone.has(String(i))) continue;
    const said = spoken[i]!;
    let text = verbatim.value(said.text).value as string;
    if (agents.includes(said.speaker) || said.generated) text = quotes(text, reach).value;
    if (text === said.text && !changed) {
      kept.push(t);
      continue;
    }
    changed = true;
    kept.push({
      ...t,
      id: t.id ?? `${String(session.id)}:${i + 1}`,
      ...(at === undefined ? {} : { at }),
      ...(text === said.text ? {} : { text, meta: { ...(record(t.meta) ? t.meta : {}), redacted: true } }),
    });
  }
  if (!changed) return session;
  // Turns before the first change kept as they were: their ids and times are pinned too.
  return {
    ...session,
    turns: kept.map((t) => {
      const i = turns.indexOf(t);
      if (i < 0) return t;
      let pinnedAt: unknown;
      for (const earlier of turns.slice(0, i + 1)) if (earlier.at !== undefined) pinnedAt = earlier.at;
      return {
        ...t,
        id: t.id ?? `${String(session.id)}:${i + 1}`,
        ...(pinnedAt === undefined ? {} : { at: pinnedAt }),
      };
    }),
  };
}

/**
 * An upload's transcripts with what `forget` takes from the agent's sessions; null when nothing
 * changes. A transcript left with no session goes.
 */
export function forgetInTranscripts(
  transcripts: unknown[],
  agent: string,
  forget: PendingForget,
): unknown[] | null {
  let changed = false;
  const out: unknown[] = [];
  for (const t of transcripts) {
    const transcript = t as LooseTranscript;
    if (!record(t) || transcript.agent !== agent || !Array.isArray(transcript.sessions)) {
      out.push(t);
      continue;
    }
    const sessions: unknown[] = [];
    for (const s of transcript.sessions as LooseSession[]) {
      const left = record(s) ? forgetInSession(agent, s, forget) : s;
      if (left !== s) changed = true;
      if (left !== null) sessions.push(left);
    }
    if (sessions.length) out.push({ ...t, sessions });
  }
  return changed ? out : null;
}

/** Who an agent's pending transcripts speak with, and which sessions they hold: what a forget may name. */
export function pendingOf(transcripts: unknown[], agent: string): { people: string[]; sessions: string[] } {
  const people = new Set<string>();
  const sessions = new Set<string>();
  for (const t of transcripts) {
    const transcript = t as LooseTranscript;
    if (!record(t) || transcript.agent !== agent || !Array.isArray(transcript.sessions)) continue;
    for (const s of transcript.sessions as LooseSession[]) {
      if (!record(s)) continue;
      if (typeof s.id === "string") sessions.add(s.id);
      for (const p of peopleOf(s)) if (p !== agent) people.add(p);
    }
  }
  return { people: [...people], sessions: [...sessions] };
}
