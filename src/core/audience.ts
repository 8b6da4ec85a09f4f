/**
 * Who may hear a memory. One agent serves many partners, and what one partner said is theirs:
 * every memory carries its audience (the partners of the sessions it was learned in, so the
 * agent's own words to a partner are heard by that partner) and, when the statement was private
 * (asked to be kept secret, or sensitive by kind), the partners it stays with. A recall is made
 * for someone, its `Hearing`; this file is the one place that decides what they may hear, for
 * memories held in this process and turns. The SQL stores say the same in their WHERE clause
 * (store/sql/memory-filter.ts).
 */
import type { Hearing, Memory, Session, Turn } from "./types.js";

export type { Hearing };

/** Memory attributes this file reads and the write path sets (engine/privacy/audience-stamp.ts). */
export interface AudienceAttributes {
  /** Partners of the sessions the memory was learned in: who heard it. */
  audience?: string[];
  /** Present when the statement is private: the partners it stays with (who said it). */
  privateTo?: string[];
  /** Why it is private: "request" (the person asked) or the sensitive kind ("health", "money"…). */
  privateWhy?: string;
}

const listOf = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined;

/** The partners who heard a memory, or undefined for a memory written before audiences were kept. */
export function audienceOf(memory: Pick<Memory, "attributes">): string[] | undefined {
  return listOf(memory.attributes.audience);
}

/** The partners a private memory stays with; undefined when the memory is not private. */
export function privateTo(memory: Pick<Memory, "attributes">): string[] | undefined {
  return listOf(memory.attributes.privateTo);
}

const meets = (a: readonly string[], b: ReadonlySet<string>) => a.some((x) => b.has(x));

/**
 * A test of one memory against a hearing. A memory without a recorded audience (written before
 * audiences were kept) is heard by the partner it is about.
 */
export function hearingTest(hearing: Hearing): (memory: Pick<Memory, "attributes" | "about">) => boolean {
  const present = new Set(hearing.partners);
  return (m) => {
    const keptFor = privateTo(m);
    if (keptFor && !meets(keptFor, present)) return false;
    if (hearing.scope === "agent") return true;
    const heard = audienceOf(m);
    return heard ? meets(heard, present) : present.has(m.about);
  };
}

/**
 * A test of one raw turn against a hearing, given the partners of each session (`partnersOf`).
 * Under `partner`, a turn is heard by the partners of its session; a private turn
 * (`isPrivateTurn`) only by its speaker, under either scope.
 */
export function turnHearingTest(
  hearing: Hearing,
  partnersOf: (sessionId: string) => readonly string[] | undefined,
  isPrivateTurn: (turn: Turn) => boolean,
): (turn: Turn) => boolean {
  const present = new Set(hearing.partners);
  return (t) => {
    if (hearing.scope === "partner" && !meets(partnersOf(t.sessionId) ?? [], present)) return false;
    return present.has(t.speaker) || !isPrivateTurn(t);
  };
}

/**
 * The partners in a session now: every partner it lists (one who left stays listed, with the
 * time in `meta.left`) except those who left and have not joined again.
 */
export function presentPartners(session: Pick<Session, "partners" | "meta">): string[] {
  const left = session.meta.left;
  const gone = new Set(left && typeof left === "object" ? Object.keys(left) : []);
  return session.partners.filter((p) => !gone.has(p));
}
