/**
 * Labelled JSON Lines for the lab: every non-blank line parsed and checked against a schema,
 * then turned into an example. All bad lines are reported at once, in one typed error, so a
 * file is fixed in one pass and nothing half-read is ever scored.
 */
import type { z } from "zod";
import { InvalidInputError } from "../../src/core/errors.js";

/**
 * Reads `text` line by line. `each` makes the example of a good line (it may report more
 * problems with `problem`). Throws `InvalidInputError` naming every bad line, or when the file
 * holds no `noun` at all.
 */
export function readJsonl<T, O>(
  text: string,
  schema: z.ZodType<T>,
  source: string,
  noun: string,
  each: (value: T, line: number, problem: (message: string) => void) => O,
): O[] {
  const out: O[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    const line = i + 1;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      problems.push(`line ${line}: not JSON (${(error as Error).message})`);
      return;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      problems.push(
        `line ${line}: ${parsed.error.issues.map((x) => `${x.path.join(".")} ${x.message}`).join("; ")}`,
      );
      return;
    }
    out.push(each(parsed.data, line, (message) => problems.push(`line ${line}: ${message}`)));
  });
  if (problems.length)
    throw new InvalidInputError(
      `${source} has ${problems.length} bad line(s):\n${problems.slice(0, 20).join("\n")}`,
      { problems },
    );
  if (out.length === 0) throw new InvalidInputError(`${source} holds no ${noun}`);
  return out;
}
