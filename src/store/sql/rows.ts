/** Mapping between stored rows (SQLite and Postgres alike) and domain objects, and vectors as bytes. */
import type { Edge, Memory, Operation, Session, Turn } from "../../core/types.js";

export type Row = Record<string, unknown>;

/** A JSON text column's value (a driver that already parsed it hands the value back as is). */
export const jsonColumn = (value: unknown): unknown =>
  typeof value === "string" ? JSON.parse(value) : value;
// biome-ignore lint/suspicious/noExplicitAny: rows are mapped field by field right below
const json = (value: unknown): any => jsonColumn(value);

export function toSession(r: Row): Session {
  return {
    id: String(r.id),
    tenant: String(r.tenant),
    agent: String(r.agent),
    partners: json(r.partners),
    at: String(r.at),
    status: r.status as Session["status"],
    strategy: String(r.strategy),
    meta: json(r.meta),
    recordedAt: String(r.recorded_at),
  };
}

export function toTurn(r: Row): Turn {
  return {
    id: String(r.id),
    tenant: String(r.tenant),
    agent: String(r.agent),
    sessionId: String(r.session_id),
    index: Number(r.idx),
    speaker: String(r.speaker),
    text: String(r.text),
    at: String(r.at),
    meta: json(r.meta),
  };
}

export function toMemory(r: Row): Memory {
  return {
    id: String(r.id),
    tenant: String(r.tenant),
    agent: String(r.agent),
    about: String(r.about),
    text: String(r.text),
    kind: String(r.kind),
    strategy: String(r.strategy),
    observedAt: String(r.observed_at),
    recordedAt: String(r.recorded_at),
    status: r.status as Memory["status"],
    invalidAt: r.invalid_at == null ? null : String(r.invalid_at),
    sessionId: r.session_id == null ? null : String(r.session_id),
    sourceTurns: json(r.source_turns),
    attributes: json(r.attributes),
  };
}

export function toEdge(r: Row): Edge {
  return {
    id: String(r.id),
    tenant: String(r.tenant),
    agent: String(r.agent),
    from: String(r.src),
    to: String(r.dst),
    type: r.type as Edge["type"],
    attributes: json(r.attributes),
    recordedAt: String(r.recorded_at),
  };
}

export function toOperation(r: Row, memoryIds: string[]): Operation {
  return {
    id: String(r.id),
    tenant: String(r.tenant),
    agent: String(r.agent),
    type: r.type as Operation["type"],
    status: r.status as Operation["status"],
    strategy: String(r.strategy),
    model: String(r.model),
    sessionId: r.session_id == null ? null : String(r.session_id),
    memoryIds,
    inputs: json(r.inputs),
    outputs: json(r.outputs),
    rationale: r.rationale == null ? null : String(r.rationale),
    error: r.error == null ? null : String(r.error),
    usage: {
      calls: Number(r.calls),
      promptTokens: Number(r.prompt_tokens),
      completionTokens: Number(r.completion_tokens),
      latencyMs: Number(r.latency_ms),
    },
    at: String(r.at),
    recordedAt: String(r.recorded_at),
  };
}

export function vectorToBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function blobToVector(b: Uint8Array): Float32Array {
  // Copy: the driver may reuse the buffer, and Float32Array needs 4-byte alignment.
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}
