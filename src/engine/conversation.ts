/**
 * A conversation between several memlane agents (and, optionally, people): each agent keeps its
 * own session of it in its own scope, consolidated by its own strategy — EMMA's multi-agent
 * setting, where every participant remembers egocentrically. The caller adds each utterance
 * once; it lands in every agent's session in one transaction.
 */
import { ConflictError, InvalidInputError } from "../core/errors.js";
import type { Recall } from "../core/recall.js";
import type { Turn } from "../core/types.js";
import { parseInput, turnInputSchema } from "./api.js";
import type { Engine } from "./engine.js";
import type { JobInfo } from "./events.js";
import type { SessionHandle, TurnOptions } from "./session-handle.js";
import type { PerTurnMode, TurnTarget } from "./turn-path.js";

export class Conversation {
  private closed = false;

  /** @internal Made by `Memlane.conversation()`. */
  constructor(
    private readonly engine: Engine,
    readonly id: string,
    /** Each agent's own session of the conversation, by agent. */
    readonly sessions: ReadonlyMap<string, SessionHandle>,
    private readonly perTurn: PerTurnMode,
  ) {}

  get agents(): string[] {
    return [...this.sessions.keys()];
  }

  /** Records one utterance in every agent's session; returns each agent's stored turn. */
  async turn(speaker: string, text: string, options: TurnOptions = {}): Promise<Map<string, Turn>> {
    if (this.closed) throw new ConflictError(`Conversation "${this.id}" is closed`);
    const input = parseInput(turnInputSchema, { ...options, speaker, text }, "turn");
    const targets = this.targets();
    const turns = await this.engine.addTurn(targets, input, input.perTurn ?? this.perTurn);
    return new Map(targets.map((t, i) => [t.scope.agent, turns[i]!]));
  }

  /** `agent`'s next utterance from its own memory, recorded in every agent's session unless `record` is false. */
  async reply(
    agent: string,
    options: { query?: string; record?: boolean; signal?: AbortSignal } = {},
  ): Promise<{ text: string; recall: Recall }> {
    if (this.closed) throw new ConflictError(`Conversation "${this.id}" is closed`);
    const handle = this.sessions.get(agent);
    if (!handle)
      throw new InvalidInputError(`"${agent}" is not an agent of conversation "${this.id}"`, {
        field: "agent",
      });
    const result = await this.engine.reply(handle.scope, handle.session, options.query, options.signal);
    if (options.record !== false) await this.turn(agent, result.text, { meta: { generated: true } });
    return result;
  }

  /** Closes every agent's session and queues each one's consolidation. */
  async close(): Promise<{ job: JobInfo; done: Promise<JobInfo> }[]> {
    if (this.closed) throw new ConflictError(`Conversation "${this.id}" is already closed`);
    const first = this.sessions.values().next().value!;
    if ((await first.turns()).length === 0)
      throw new InvalidInputError(`Conversation "${this.id}" has no turns to remember`);
    this.closed = true;
    return this.engine.close(this.targets());
  }

  private targets(): TurnTarget[] {
    return [...this.sessions.values()].map((h) => ({ scope: h.scope, session: h.session }));
  }
}
