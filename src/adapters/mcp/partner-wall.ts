/**
 * The wall around an MCP server for one partner (`memlane mcp --partner me`). The model behind a
 * desktop client talks with that one person and repeats what its tools answer, so every read
 * answers only what the partner may hear, whatever ids or names a call passes, and every write
 * is on the partner's behalf. What "may hear" means is core's (core/audience.ts), the same tests
 * a recall for the partner applies; this file only puts them in front of each tool. A memory or
 * turn behind the wall is NOT_FOUND in the very words of a missing id, so an answer never tells
 * that it exists.
 */
import { hearingTest, turnHearingTest } from "../../core/audience.js";
import { InvalidInputError, NotFoundError } from "../../core/errors.js";
import type { Edge, Hearing, Memory, Session, Turn } from "../../core/types.js";
import type { ForgetInput, RecallInput } from "../../engine/api.js";
import type { HistoryView } from "../../engine/history/history.js";
import type { TimelineView } from "../../engine/history/timeline.js";
import type { Memlane } from "../../engine/memlane.js";
import { isPrivateTurn } from "../../engine/privacy/hearing.js";

/** The NOT_FOUND of a memory id the agent lacks, or one behind the wall: the same either way. */
export const noMemory = (agent: string, memoryId: string) =>
  new NotFoundError(`No memory "${memoryId}" for agent "${agent}"`, { field: "memoryId" });

/** The NOT_FOUND of a turn id the agent lacks, or one behind the wall. */
export const noTurn = (agent: string, turnId: string) =>
  new NotFoundError(`No turn "${turnId}" for agent "${agent}"`, { field: "turnId" });

/** The NOT_FOUND of a session id the agent lacks, or one the partner was not in. */
const noSession = (agent: string, sessionId: string) =>
  new NotFoundError(`No session "${sessionId}" for agent "${agent}"`, { field: "sessionId" });

/**
 * The turns of `turns` that `partner` may hear: those of sessions they took part in, without
 * anyone else's private words (the test a recall for them puts its turn hits to). A list for one
 * partner without a wall (an operator's `list_turns` with `partner`) uses it too.
 */
export async function heardTurns(mem: Memlane, agent: string, partner: string, turns: Turn[]) {
  const partnersOf = new Map<string, string[]>();
  for (const id of new Set(turns.map((t) => t.sessionId))) {
    const session = await mem.getSession(agent, id);
    if (session) partnersOf.set(id, session.partners);
  }
  const heard = turnHearingTest(
    { scope: "partner", partners: [partner] },
    (id) => partnersOf.get(id),
    isPrivateTurn,
  );
  return turns.filter(heard);
}

/** One partner's wall: what the tools of a server for them may read and write. */
export class PartnerWall {
  /** What the partner may hear, as a recall `about` them under partner scope. */
  readonly hearing: Hearing;
  private readonly hears: (memory: Pick<Memory, "attributes" | "about">) => boolean;

  constructor(
    private readonly mem: Memlane,
    readonly partner: string,
  ) {
    this.hearing = { scope: "partner", partners: [partner] };
    this.hears = hearingTest(this.hearing);
  }

  /**
   * Refuses a field that names someone other than the partner: whose sessions to list, whom a
   * write is for. Asking is no leak, so the refusal says why, and how to ask instead.
   * @throws {InvalidInputError} `named` is another id
   */
  own(field: string, named: string | undefined): void {
    if (named !== undefined && named !== this.partner)
      throw new InvalidInputError(
        `This server answers for "${this.partner}" only: leave ${field} out (it is "${this.partner}")`,
        { field },
      );
  }

  /**
   * A recall as the partner's own. The library's `about` is whom a recall is for, its hearing: so
   * a call about someone else is still answered from what this partner may hear (their query
   * says whom it is about), and the agent's whole memory is refused.
   * @throws {InvalidInputError} `scope: "agent"`
   */
  recallInput<T extends Pick<RecallInput, "about" | "scope">>(input: T): T {
    if (input.scope === "agent")
      throw new InvalidInputError(
        `This server answers for "${this.partner}" only: a recall is what they may hear, never the agent's whole memory`,
        { field: "scope" },
      );
    return { ...input, about: this.partner, scope: "partner" };
  }

  /**
   * Refuses an erasure that is not the partner's to ask: another person, a memory they may not
   * hear, a session they were not in (NOT_FOUND, as missing ones), or one they shared with
   * others, whose words in it are not theirs to erase.
   * @throws {InvalidInputError} another person, or a shared session
   * @throws {NotFoundError} a memory or session behind the wall
   */
  async forgettable(input: ForgetInput): Promise<void> {
    this.own("about", input.about);
    for (const id of input.memoryIds ?? []) await this.memory(input.agent, id);
    if (input.sessionId === undefined) return;
    const session = await this.session(input.agent, input.sessionId);
    if (session.partners.some((p) => p !== this.partner))
      throw new InvalidInputError(
        `Session "${input.sessionId}" was shared with others: forget it with the operator, or forget your own words with about: "${this.partner}"`,
        { field: "sessionId" },
      );
  }

  /** A memory the partner may hear. @throws {NotFoundError} missing, or not theirs to hear */
  async memory(agent: string, memoryId: string): Promise<Memory> {
    const memory = await this.mem.getMemory(agent, memoryId);
    if (!memory || !this.hears(memory)) throw noMemory(agent, memoryId);
    return memory;
  }

  /** A turn the partner may hear. @throws {NotFoundError} missing, or not theirs to hear */
  async turn(agent: string, turnId: string): Promise<Turn> {
    const turn = await this.mem.getTurn(agent, turnId);
    const [heard] = turn ? await heardTurns(this.mem, agent, this.partner, [turn]) : [];
    if (!heard) throw noTurn(agent, turnId);
    return heard;
  }

  /** A session the partner took part in. @throws {NotFoundError} missing, or not theirs */
  async session(agent: string, sessionId: string): Promise<Session> {
    const session = await this.mem.getSession(agent, sessionId);
    if (!session?.partners.includes(this.partner)) throw noSession(agent, sessionId);
    return session;
  }

  /** A timeline through a memory the partner may hear, with only the steps they may hear. */
  async timeline(agent: string, memoryId: string): Promise<TimelineView> {
    await this.memory(agent, memoryId);
    const view = await this.mem.timeline(agent, memoryId);
    const memories = view.memories.filter(this.hears);
    const kept = new Set(memories.map((m) => m.id));
    return {
      memories,
      edges: this.edgesWithin(view.edges, kept),
      chain: view.chain.filter((e) => kept.has(e.id)),
    };
  }

  /**
   * The history of a memory the partner may hear: versions and edges they may hear, and the
   * operations whose every memory they may hear, without inputs and outputs, and for the
   * engine's own steps without rationale and error: those can quote the turns a step read,
   * another partner's private words among them. A caller's correction keeps its rationale.
   */
  async history(agent: string, memoryId: string): Promise<HistoryView> {
    await this.memory(agent, memoryId);
    const view = await this.mem.history(agent, memoryId);
    const named = new Set(view.operations.flatMap((o) => o.memoryIds));
    const memories = named.size > 0 ? await this.mem.memories(agent, { ids: [...named], status: "any" }) : [];
    const kept = new Set(memories.filter(this.hears).map((m) => m.id));
    kept.add(view.memory.id);
    const replacedBy = view.replacedBy.filter(this.hears);
    const replaces = view.replaces.filter(this.hears);
    for (const m of [...replacedBy, ...replaces]) kept.add(m.id);
    const operations = view.operations
      .filter((o) => o.memoryIds.every((id) => kept.has(id)))
      .map((op) => ({
        ...op,
        inputs: null,
        outputs: null,
        ...(op.model === "caller" ? {} : { rationale: null, error: null }),
      }));
    const shown = new Set(operations.map((o) => o.id));
    return {
      memory: view.memory,
      operations,
      replacedBy,
      replaces,
      edges: this.edgesWithin(view.edges, kept),
      corrections: view.corrections.filter((c) => shown.has(c.operation)),
    };
  }

  /** The edges whose both ends are kept (an id alone still says a memory exists). */
  private edgesWithin(edges: Edge[], kept: ReadonlySet<string>): Edge[] {
    return edges.filter((e) => kept.has(e.from) && kept.has(e.to));
  }
}
