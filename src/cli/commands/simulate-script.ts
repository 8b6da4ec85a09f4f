/**
 * A self-play script for `memlane simulate`: sessions of some of the agents, each with turns as
 * written or an opener the agents answer in turn. `$1`, `$2`… stand for the agents given on the
 * command line. Loaded when simulate runs (zod is not needed to print help).
 */
import { z } from "zod";
import { InvalidInputError } from "../../core/errors.js";

const line = z.object({ speaker: z.string().min(1), text: z.string().min(1) });
const scriptSchema = z.object({
  roles: z.record(z.string(), z.string()).default({}),
  sessions: z
    .array(
      z
        .object({
          agents: z.array(z.string().min(1)).min(2),
          at: z.string().min(1).optional(),
          turns: z.array(line).optional(),
          opener: line.optional(),
        })
        .refine((s) => (s.turns?.length ?? 0) > 0 || s.opener, "a session needs turns or an opener"),
    )
    .min(1),
});

/** A self-play script, its `$1`, `$2`… placeholders bound to the given agents. */
export type SimulationScript = z.infer<typeof scriptSchema>;

/** The script with its placeholders bound to `agents`, checked: every speaker is in its session. */
export function bindScript(raw: unknown, agents: string[], source = "script"): SimulationScript {
  const bound = JSON.parse(JSON.stringify(raw), (_k, v) =>
    typeof v === "string" ? v.replace(/\$(\d+)/g, (m, n: string) => agents[Number(n) - 1] ?? m) : v,
  );
  const parsed = scriptSchema.safeParse(bound);
  if (!parsed.success)
    throw new InvalidInputError(`${source} is not a simulation script:\n${z.prettifyError(parsed.error)}`);
  const problems: string[] = [];
  parsed.data.sessions.forEach((s, i) => {
    for (const a of s.agents)
      if (!agents.includes(a))
        problems.push(`sessions[${i}]: "${a}" is not one of --agents (${agents.join(", ")})`);
    for (const t of [...(s.turns ?? []), ...(s.opener ? [s.opener] : [])])
      if (!s.agents.includes(t.speaker))
        problems.push(`sessions[${i}]: speaker "${t.speaker}" is not in the session`);
  });
  if (problems.length) throw new InvalidInputError(`${source}: ${problems.join("; ")}`, { problems });
  return parsed.data;
}
