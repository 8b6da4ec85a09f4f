/**
 * A conversation between several memlane agents (and, optionally, people): each agent keeps its
 * own session of it in its own scope, consolidated by its own strategy — EMMA's multi-agent
 * setting, where every participant remembers egocentrically. The caller adds each utterance
 * once; it lands in every agent's session in one transaction. All of a conversation's writes go
 * through it (not through the agents' sessions one by one), so every agent sees the same turns.
 */
import { ConflictError, InvalidInputError } from "../../core/errors.js";
import type { Recall } from "../../core/recall.js";
import type { Session, Turn } from "../../core/types.js";
import { refuseUnknownFields } from "../../core/unknown-fields.js";
import { conversationTime, idSchema, parseInput, turnInputSchema } from "../api.js";
import type { Engine } from "../engine.js";
import type { JobInfo } from "../events.js";
import { MOMENT_OPTIONS_FIELDS } from "../option-fields.js";
import {
  joining,
  leaving,
  REPLY_OPTIONS_FIELDS,
  type ReplyOptions,
  type TurnOptions,
} from "./session-handle.js";
import type { PerTurnMode, TurnTarget } from "./turn-path.js";

export class Conversation {
  private closed = false;
  private readonly targets: Map<string, TurnTarget>;

  /** @internal Made by `Memlane.conversation()` and `resumeConversation()`. */
  constructor(
    private readonly engine: Engine,
    /** The conversation's id, which is also each agent's session id. */
    readonly id: string,
    targets: TurnTarget[],
    private readonly perTurn: PerTurnMode,
  ) {
    this.targets = new Map(targets.map((t) => [t.scope.agent, t]));
  }

  /** The memlane agents taking part. */
  get agents(): string[] {
    return [...this.targets.keys()];
  }

  /** `agent`'s own session of the conversation, as last stored here. */
  session(agent: string): Session {
    return this.target(agent).session;
  }

  /** The turns as stored in `agent`'s session (the same in every agent's). */
  turns(agent = this.agents[0]!): Promise<Turn[]> {
    const { scope, session } = this.target(agent);
    return this.engine.parts.store.listTurns(scope, { sessionId: session.id });
  }

  /**
   * Records one utterance in every agent's session (one transaction), each agent's per-turn work
   * in its own scope; returns each agent's stored turn.
   * @throws {InvalidInputError} a speaker who is neither an agent nor a present partner
   */
  async turn(speaker: string, text: string, options: TurnOptions = {}): Promise<Map<string, Turn>> {
    this.assertOpen();
    const input = parseInput(turnInputSchema, { ...options, speaker, text }, "turn");
    const targets = [...this.targets.values()];
    const turns = await this.engine.addTurn(targets, input, input.perTurn ?? this.perTurn);
    return new Map(targets.map((t, i) => [t.scope.agent, turns[i]!]));
  }

  /** Resolves when every turn so far, and every agent's per-turn work on it, has settled. */
  async settled(): Promise<void> {
    for (const t of this.targets.values()) await this.engine.settled(t.scope, t.session.id);
  }

  /**
   * `agent`'s next utterance from its own memory, recorded in every agent's session unless
   * `record` is false.
   */
  async reply(
    agent: string,
    options: ReplyOptions = {},
  ): Promise<{ text: string; recall: Recall; turn: Turn | null }> {
    this.assertOpen();
    refuseUnknownFields(options, REPLY_OPTIONS_FIELDS, "reply options");
    const { scope, session } = this.target(agent);
    const result = await this.engine.reply(scope, session, options.query, options.signal);
    const turn =
      options.record === false
        ? null
        : ((await this.turn(agent, result.text, { meta: { generated: true } })).get(agent) ?? null);
    return { ...result, turn };
  }

  /** A person (not a memlane agent) joins the conversation, in every agent's session. */
  async join(partner: string, options: { at?: string } = {}): Promise<void> {
    refuseUnknownFields(options, MOMENT_OPTIONS_FIELDS, "join options");
    await this.update(partner, options.at, joining);
  }

  /** A person leaves the conversation; their earlier turns stay. */
  async leave(partner: string, options: { at?: string } = {}): Promise<void> {
    refuseUnknownFields(options, MOMENT_OPTIONS_FIELDS, "leave options");
    await this.update(partner, options.at, leaving);
  }

  /**
   * Closes every agent's session and queues each one's consolidation. A conversation in which
   * nobody spoke ends with nothing to remember: its sessions are marked consolidated, no job.
   */
  async close(): Promise<{ job: JobInfo; done: Promise<JobInfo> }[]> {
    this.assertOpen();
    this.closed = true;
    try {
      await this.settled();
      if ((await this.turns()).length === 0) {
        await this.engine.closeEmpty([...this.targets.values()]);
        return [];
      }
      return await this.engine.close([...this.targets.values()]);
    } catch (error) {
      this.closed = false;
      throw error;
    }
  }

  private async update(
    partner: string,
    at: string | undefined,
    change: (s: Session, who: string, at: string) => Pick<Session, "partners" | "meta">,
  ): Promise<void> {
    this.assertOpen();
    const who = parseInput(idSchema, partner, "partner");
    if (this.targets.has(who))
      throw new InvalidInputError(`"${who}" is an agent of this conversation`, { field: "partner" });
    const time = at ? conversationTime(at, "at") : new Date().toISOString();
    for (const [agent, t] of this.targets) {
      const session = await this.engine.updateSession(t, (stored) => change(stored, who, time));
      this.targets.set(agent, { scope: t.scope, session });
    }
  }

  private target(agent: string): TurnTarget {
    const t = this.targets.get(agent);
    if (!t)
      throw new InvalidInputError(`"${agent}" is not an agent of conversation "${this.id}"`, {
        field: "agent",
      });
    return t;
  }

  private assertOpen(): void {
    if (this.closed) throw new ConflictError(`Conversation "${this.id}" is closed`);
  }
}
