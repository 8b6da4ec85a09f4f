/**
 * The `memlane eval carecall` file: JSON Lines, one episode a line:
 *   { "memory": [...], "summary": [...], "gold": [...], "pairs"?: [{ "m": 0, "s": 1, "op": "REPLACE" }],
 *     "about"?: "Sam" | null, "id"?: "mo-nm-001", "style"?: "named", "domain"?: "health",
 *     "fused"?: [{ "m": 1, "s": 1, "text": "..." }] }
 * `gold` is the next memory; `pairs` (optional) are gold pairwise labels; `about` is the person
 * (null or absent when the sentences do not name them: "the partner" is used); `style` and
 * `domain` group the scores; `fused` gives the gold text of FUSION pairs. This is the format of
 * memory-ops/train.jsonl (MEMLANE_SHARED_DATA) and of data/carecall/dev.jsonl.
 */
import { z } from "zod";
import { PAIR_LABELS_WITH_FUSION } from "../../../src/core/memory-update.js";
import { readJsonl } from "../jsonl.js";

const lineSchema = z.object({
  memory: z.array(z.string().min(1)),
  summary: z.array(z.string().min(1)),
  gold: z.array(z.string().min(1)),
  about: z.string().min(1).nullable().optional(),
  id: z.string().min(1).optional(),
  style: z.string().min(1).optional(),
  domain: z.string().min(1).optional(),
  fused: z
    .array(z.object({ m: z.number().int().min(0), s: z.number().int().min(0), text: z.string().min(1) }))
    .optional(),
  pairs: z
    .array(
      z.object({
        m: z.number().int().min(0),
        s: z.number().int().min(0),
        op: z.enum(PAIR_LABELS_WITH_FUSION as [string, ...string[]]),
      }),
    )
    .optional(),
});

/** One episode; `about` is always a display name ("the partner" when the data names nobody). */
export type CarecallExample = Omit<z.infer<typeof lineSchema>, "about"> & {
  about: string;
  /** The person is named in the sentences (false for first-person, pronoun and note styles). */
  named: boolean;
  id: string;
  style: string;
  line: number;
};

/** What sentences that name nobody are about, for prompts and the offline steps. */
export const UNNAMED = "the partner";

export function parseCarecallJsonl(text: string, source = "input"): CarecallExample[] {
  return readJsonl(text, lineSchema, source, "examples", (e, line, problem) => {
    for (const p of e.pairs ?? [])
      if (p.m >= e.memory.length || p.s >= e.summary.length) problem(`pair (${p.m}, ${p.s}) is out of range`);
    const about = e.about === undefined ? firstWord(e.memory[0] ?? e.summary[0] ?? "") : e.about;
    return {
      ...e,
      about: about || UNNAMED,
      named: Boolean(about),
      id: e.id ?? `line-${line}`,
      style: e.style ?? "unstyled",
      line,
    };
  });
}

/** Our own dev sentences start with the subject's name; a lower-case first word names nobody. */
function firstWord(sentence: string): string {
  const word = sentence.split(/[\s']/)[0] ?? "";
  return /^\p{Lu}/u.test(word) ? word : "";
}
