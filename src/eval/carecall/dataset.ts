/**
 * The `memlane eval carecall` file: JSON Lines, one episode a line:
 *   { "memory": [...], "summary": [...], "gold": [...], "pairs"?: [{ "m": 0, "s": 1, "op": "REPLACE" }], "about"?: "Sam" }
 * `gold` is the next memory; `pairs` (optional) are gold pairwise labels; `about` defaults to the
 * first word of the first sentence (our sentences start with the subject's name).
 */
import { z } from "zod";
import { InvalidInputError } from "../../core/errors.js";
import { PAIR_LABELS_WITH_FUSION } from "../../core/memory-update.js";

const lineSchema = z.object({
  memory: z.array(z.string().min(1)),
  summary: z.array(z.string().min(1)),
  gold: z.array(z.string().min(1)),
  about: z.string().min(1).optional(),
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

export type CarecallExample = z.infer<typeof lineSchema> & { about: string; line: number };

export function parseCarecallJsonl(text: string, source = "input"): CarecallExample[] {
  const out: CarecallExample[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      problems.push(`line ${i + 1}: not JSON (${(error as Error).message})`);
      return;
    }
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) {
      problems.push(
        `line ${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join(".")} ${x.message}`).join("; ")}`,
      );
      return;
    }
    const e = parsed.data;
    for (const p of e.pairs ?? [])
      if (p.m >= e.memory.length || p.s >= e.summary.length)
        problems.push(`line ${i + 1}: pair (${p.m}, ${p.s}) is out of range`);
    const first = e.memory[0] ?? e.summary[0] ?? "";
    out.push({ ...e, about: e.about ?? first.split(/[\s']/)[0] ?? "", line: i + 1 });
  });
  if (problems.length)
    throw new InvalidInputError(
      `${source} has ${problems.length} bad line(s):\n${problems.slice(0, 20).join("\n")}`,
      { problems },
    );
  if (out.length === 0) throw new InvalidInputError(`${source} holds no examples`);
  return out;
}
