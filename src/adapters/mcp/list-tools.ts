/**
 * The MCP tools that page through an agent's sessions and turns (`list_sessions`, `list_turns`):
 * their inputs, the library's own list filters and page fields beside the agent, and what they
 * answer. A partner given keeps the answer to what that partner may hear, as a recall for them
 * does: their sessions, and of the turns only those of their sessions, without anyone else's
 * private words. A server walled to a partner (partner-wall.ts) always lists for them.
 */
import { z } from "zod";
import type { Session, Turn } from "../../core/types.js";
import { idSchema, storedIdSchema, unknownFields } from "../../engine/api.js";
import { pageShape, sessionListShape, turnListShape } from "../../engine/list/list-inputs.js";
import type { Memlane } from "../../engine/memlane.js";
import { heardTurns } from "./partner-wall.js";

export const sessionListInput = z.strictObject(
  { agent: idSchema.describe("whose sessions"), ...sessionListShape, ...pageShape },
  unknownFields,
);

export const turnListInput = z.strictObject(
  {
    agent: idSchema.describe("whose turns"),
    partner: storedIdSchema
      .optional()
      .describe(
        "only what this partner may hear: turns of sessions they took part in, without others' private words",
      ),
    ...turnListShape,
    ...pageShape,
  },
  unknownFields,
);

/** A session as a list shows it: who, when, how far along, and the caller's meta. */
const sessionView = ({ id, partners, at, status, strategy, meta }: Session) => ({
  id,
  partners,
  at,
  status,
  strategy,
  meta,
});

/** A turn as a list shows it (the scope is the caller's own). */
const turnView = ({ tenant: _t, agent: _a, ...turn }: Turn) => turn;

/** `list_sessions`: a page of the agent's sessions, `{ sessions, nextCursor }`. */
export async function listSessionsTool(mem: Memlane, input: z.output<typeof sessionListInput>) {
  const { agent, ...list } = input;
  const page = await mem.listSessions(agent, list);
  return { sessions: page.items.map(sessionView), nextCursor: page.nextCursor };
}

/**
 * `list_turns`: a page of the agent's turns, `{ turns, nextCursor }`. For a partner, the page is
 * read as asked and then kept to what they may hear, so it may hold fewer than `limit` turns
 * (none, even) while `nextCursor` still leads on: the cursor stays the list's own, and a page
 * never skips or repeats a turn.
 */
export async function listTurnsTool(mem: Memlane, input: z.output<typeof turnListInput>) {
  const { agent, partner, ...list } = input;
  const page = await mem.listTurns(agent, list);
  const turns = partner === undefined ? page.items : await heardTurns(mem, agent, partner, page.items);
  return { turns: turns.map(turnView), nextCursor: page.nextCursor };
}
