/**
 * The memory-rules set (data/rules/): `cases.jsonl`, one case a line — a person's two or three
 * short sessions with an agent, and what memory must hold after the last one:
 *   { "id": "add-07", "class": "same" | "addition" | "change" | "stop" | "clean", "style": "chatty",
 *     "partner": "Sam", "agent": "Ava",
 *     "sessions": [{ "at": "2024-03-01T10:00", "turns": [{ "speaker": "Sam", "text": "…" }, …] }, …],
 *     "expect": { "active": [Matcher], "once": [Matcher], "retired": [Matcher], "absent": [Matcher] } }
 * A Matcher `{ "all": [word | [alternatives]], "none": [word] }` matches a memory whose text holds
 * every `all` element (any one alternative of an array) and no `none` word, ignoring case.
 * Each case falls in the tune or the test half by a hash of its id, fixed before anyone looked.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { InvalidInputError, NotFoundError } from "../../../src/core/errors.js";
import { slug } from "../../../src/core/ids.js";
import { type Transcript, validateTranscript } from "../../../src/engine/ingest/formats/transcript.js";

export const RULE_CLASSES = ["same", "addition", "change", "stop", "clean"] as const;
export type RuleClass = (typeof RULE_CLASSES)[number];
export type RuleSplit = "tune" | "test";

const word = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const matcherSchema = z
  .object({ all: z.array(word).min(1), none: z.array(z.string().min(1)).optional() })
  .strict();
export type Matcher = z.infer<typeof matcherSchema>;

const caseSchema = z
  .object({
    id: z.string().min(1),
    class: z.enum(RULE_CLASSES),
    style: z.string().min(1),
    partner: z.string().min(1),
    agent: z.string().min(1),
    sessions: z
      .array(
        z
          .object({
            at: z.string().min(1),
            turns: z.array(z.object({ speaker: z.string().min(1), text: z.string().min(1) }).strict()).min(1),
          })
          .strict(),
      )
      .min(1),
    expect: z
      .object({
        active: z.array(matcherSchema).default([]),
        once: z.array(matcherSchema).default([]),
        retired: z.array(matcherSchema).default([]),
        absent: z.array(matcherSchema).default([]),
      })
      .strict(),
    /** Optional: overrides the half the id's hash gives. */
    split: z.enum(["tune", "test"]).optional(),
  })
  .strict();

export interface RuleCase {
  id: string;
  class: RuleClass;
  style: string;
  /** The partner's and agent's ids as stored (lower case). */
  partner: string;
  agent: string;
  transcript: Transcript;
  expect: { active: Matcher[]; once: Matcher[]; retired: Matcher[]; absent: Matcher[] };
  split: RuleSplit;
  line: number;
}

/** The half a case falls in: the parity of the first byte of its id's SHA-1. */
export function splitOf(id: string): RuleSplit {
  return createHash("sha1").update(id).digest()[0]! % 2 === 0 ? "tune" : "test";
}

/** A person's id as the engine makes it from a name: "Rubén" is "ruben", not "rub-n". */
const idOf = (name: string) => slug(name.trim());

/** Parses `cases.jsonl` (its text); every problem is collected and reported together. */
export function parseRuleCases(text: string, source = "cases.jsonl"): RuleCase[] {
  const problems: string[] = [];
  const cases: RuleCase[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    const where = `${source}:${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      problems.push(`${where}: not JSON (${(error as Error).message})`);
      return;
    }
    const parsed = caseSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      problems.push(`${where}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
      return;
    }
    const c = parsed.data;
    if (seen.has(c.id)) problems.push(`${where}: duplicate id "${c.id}"`);
    seen.add(c.id);
    const partner = idOf(c.partner);
    const agent = idOf(c.agent);
    let transcript: Transcript;
    try {
      transcript = validateTranscript(
        {
          agent,
          sessions: c.sessions.map((s, n) => ({
            id: `${c.id}-s${n + 1}`,
            at: s.at,
            partner,
            turns: s.turns.map((t, k) => ({
              id: `${c.id}-s${n + 1}-t${k + 1}`,
              speaker: idOf(t.speaker),
              text: t.text,
            })),
          })),
        },
        `${where} ("${c.id}")`,
      );
    } catch (error) {
      problems.push((error as Error).message);
      return;
    }
    cases.push({
      id: c.id,
      class: c.class,
      style: c.style,
      partner,
      agent,
      transcript,
      expect: c.expect,
      split: c.split ?? splitOf(c.id),
      line: i + 1,
    });
  });
  if (problems.length > 0)
    throw new InvalidInputError(`${source} has ${problems.length} problem(s):\n${problems.join("\n")}`);
  if (cases.length === 0) throw new InvalidInputError(`${source} holds no case`);
  return cases;
}

/** Reads `<dir>/cases.jsonl`. */
export async function loadRuleCases(dir: string): Promise<RuleCase[]> {
  const file = join(dir, "cases.jsonl");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new NotFoundError(`No cases.jsonl in ${dir}`, { path: file });
  }
  return parseRuleCases(text, file);
}

/** Whether a memory's text satisfies a matcher (case-insensitive substrings). */
export function matches(text: string, m: Matcher): boolean {
  const t = text.toLowerCase();
  const has = (w: string) => t.includes(w.toLowerCase());
  return m.all.every((w) => (Array.isArray(w) ? w.some(has) : has(w))) && !(m.none ?? []).some(has);
}
