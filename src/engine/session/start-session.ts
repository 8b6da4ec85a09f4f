/**
 * New sessions: one with a partner (or several), and a conversation between agents where each
 * agent keeps a session of its own under the same id. The checks here are the domain's (an agent
 * is not its own partner, a conversation needs two agents); the facade has parsed the input.
 */
import { InvalidInputError } from "../../core/errors.js";
import type { Scope, Session } from "../../core/types.js";
import type { Strategy } from "../../strategies/strategy.js";
import type { RecallScope } from "../api.js";
import { SESSION_SCOPE_KEY } from "../privacy/hearing.js";
import type { TurnTarget } from "./turn-path.js";

/** What a parsed session request says. */
export interface SessionRequest {
  agent: string;
  partner?: string;
  partners?: string[];
  id?: string;
  meta?: Record<string, unknown>;
  scope?: RecallScope;
}

/**
 * The session record to store; the strategy and the time are asked for once the partners are
 * known to be right.
 * @throws {InvalidInputError} the agent named as its own partner
 */
export function sessionRecord(
  scope: Scope,
  request: SessionRequest,
  strategyOf: () => Strategy,
  timeOf: () => string,
): Session {
  const partners = [...new Set([...(request.partner ? [request.partner] : []), ...(request.partners ?? [])])];
  if (partners.includes(request.agent))
    throw new InvalidInputError("The agent cannot be its own partner", { field: "partners" });
  const strategy = strategyOf();
  const at = timeOf();
  const meta = request.scope ? { ...request.meta, [SESSION_SCOPE_KEY]: request.scope } : (request.meta ?? {});
  return newSession(scope, partners, at, request.id ?? sessionId("s", at), meta, strategy.name);
}

/** What a parsed conversation request says. */
export interface ConversationRequest {
  agents: string[];
  partners?: string[];
  id?: string;
  meta?: Record<string, unknown>;
  strategies?: Record<string, string>;
}

/**
 * Each agent's session of one conversation, under one id.
 * @throws {InvalidInputError} fewer than two agents, a strategy for someone who is not an agent,
 *   a partner who is also an agent
 */
export function conversationRecords(
  request: ConversationRequest,
  scopeOf: (agent: string) => Scope,
  strategyOf: (agent: string) => Strategy,
  timeOf: () => string,
): { id: string; targets: TurnTarget[] } {
  const agents = [...new Set(request.agents)];
  if (agents.length < 2)
    throw new InvalidInputError("A conversation needs two different agents", { field: "agents" });
  for (const named of Object.keys(request.strategies ?? {}))
    if (!agents.includes(named))
      throw new InvalidInputError(`"${named}" is not an agent of this conversation`, {
        field: `strategies.${named}`,
      });
  // An agent takes part as an agent; named again as a person it would be two speakers in one.
  const both = (request.partners ?? []).find((p) => agents.includes(p));
  if (both !== undefined)
    throw new InvalidInputError(`"${both}" is an agent of this conversation, not a partner`, {
      field: "partners",
    });
  const people = [...new Set(request.partners ?? [])];
  const at = timeOf();
  const id = request.id ?? sessionId("c", at);
  const targets = agents.map((agent) => {
    const scope = scopeOf(agent);
    const partners = [...agents.filter((a) => a !== agent), ...people];
    const meta = { ...request.meta, conversation: id, agents };
    return { scope, session: newSession(scope, partners, at, id, meta, strategyOf(agent).name) };
  });
  return { id, targets };
}

/** A new session id: a prefix, the conversation time, and a random tail. */
function sessionId(prefix: string, at: string): string {
  return `${prefix}-${at.slice(0, 19).replace(/[-:T]/g, "")}-${Math.random().toString(36).slice(2, 6)}`;
}

function newSession(
  scope: Scope,
  partners: string[],
  at: string,
  id: string,
  meta: Record<string, unknown>,
  strategy: string,
): Session {
  return {
    id,
    tenant: scope.tenant,
    agent: scope.agent,
    partners,
    at,
    status: "open",
    strategy,
    meta,
    recordedAt: new Date().toISOString(),
  };
}
