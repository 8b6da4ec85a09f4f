/**
 * A loopback OpenAI-compatible server that answers like a real model does when it slips. It knows
 * which thinking step asks (the structured call's schema name, or the `x-memlane-task` header the
 * adapter sends), answers it plausibly with the scripted double's answer for that step, and then
 * spoils the answer the way its family says: fenced or chatty JSON, renamed or missing keys,
 * pairs numbered from 1, MemoChat's "N#M", an answer cut short, a refusal, nothing at all, a rate
 * limit or a server error that passes (with Retry-After), a body dripped slower than any deadline,
 * or no answer ever. Loopback only: nothing leaves the machine.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatMessage } from "../models/chat-model.js";
import { TASK_HEADER } from "../models/openai-compatible.js";
import { emmaScriptedSteps } from "./emma-scripted.js";
import { scriptedLlm } from "./scripted-llm.js";

/** The ways a model misbehaves; `clean` answers every step as it should. */
export const MODEL_FAMILIES = [
  "clean",
  "fenced",
  "prose-around",
  "wrong-keys",
  "missing-keys",
  "one-based",
  "n-hash-m",
  "truncated",
  "refusal",
  "empty",
  "rate-limited",
  "server-error",
  "drip",
  "hang",
] as const;
export type ModelFamily = (typeof MODEL_FAMILIES)[number];

/** Families whose spoilt answers are JSON a constrained decoder would have kept clean. */
export const STRUCTURED_FAMILIES: readonly ModelFamily[] = [
  "fenced",
  "prose-around",
  "wrong-keys",
  "missing-keys",
  "one-based",
  "n-hash-m",
  "truncated",
  "refusal",
  "empty",
];

/**
 * What the server does with `response_format`: `ignore` it (answers as the family says, like a
 * server that takes the parameter and does not enforce it), `honour` it (a structured call gets
 * the clean JSON, as constrained decoding would give), or `reject` it (400, as servers without
 * support answer; the adapter then asks without it).
 */
export type SchemaSupport = "ignore" | "honour" | "reject";

export interface MisbehavingModelOptions {
  family: ModelFamily;
  schema?: SchemaSupport;
  /** Milliseconds between two dripped bytes (family `drip`; default 200). */
  dripMs?: number;
}

/** What the server was asked and how it answered. */
export interface MisbehavingModelStats {
  /** Chat requests received. */
  requests: number;
  /** Requests that were the structured-output retry of an answer that did not fit. */
  schemaRetries: number;
  /** Requests answered 429 or 500 (each asked again by the adapter). */
  refused: number;
  /** Requests answered 400 for carrying response_format. */
  rejectedFormat: number;
  /** Requests by step. */
  bySteps: Record<string, number>;
}

export interface MisbehavingModel {
  /** The base URL to give the OpenAI-compatible adapter (`…/v1`). */
  url: string;
  stats: MisbehavingModelStats;
  /** Changes how later requests are answered (a model that recovers: `"clean"`). */
  setFamily(family: ModelFamily): void;
  close(): Promise<void>;
}

/** The words of generateObject's retry message: a request that carries them is a retry. */
const RETRY_MARK = "That answer could not be used";

const REFUSAL = "I'm sorry, but I can't help with that request.";

/** Keys a model says instead of the asked ones (the rest get "_value" added). */
const WRONG_KEYS: Record<string, string> = {
  decisions: "results",
  statements: "facts",
  options: "choices",
  lines: "timeline",
  reply: "response",
  rationale: "reasoning",
  memos: "entries",
  insights: "notes",
  question: "query",
  sentence: "text",
  items: "instructions",
  pairs: "links",
  aboutMe: "about_me",
  aboutPartners: "about_partners",
};

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
}

/** Starts the server on a loopback port; `close()` ends it and every connection it holds. */
export async function startMisbehavingModel(options: MisbehavingModelOptions): Promise<MisbehavingModel> {
  const support = options.schema ?? "ignore";
  let current = options.family;
  const clean = scriptedLlm({ byName: emmaScriptedSteps() });
  const stats: MisbehavingModelStats = {
    requests: 0,
    schemaRetries: 0,
    refused: 0,
    rejectedFormat: 0,
    bySteps: {},
  };
  const held = new Set<ServerResponse>();
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? "").replace(/^\/v1/, "");
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(payload));
    };
    if (path === "/embeddings") return send(200, embeddings(body));
    if (path !== "/chat/completions") return send(404, { error: { message: `no route ${path}` } });
    stats.requests++;
    const messages = (body.messages ?? []) as ChatMessage[];
    const format = body.response_format as { json_schema?: { name?: string } } | undefined;
    const step = String(req.headers[TASK_HEADER] ?? format?.json_schema?.name ?? "reply");
    stats.bySteps[step] = (stats.bySteps[step] ?? 0) + 1;
    // A structured retry carries the spoilt answer and the complaint after the prompt; the step is
    // answered from the prompt as first sent.
    const retry = messages.findIndex((m) => m.role === "user" && m.content.startsWith(RETRY_MARK));
    if (retry >= 0) stats.schemaRetries++;
    const prompt = retry >= 0 ? messages.slice(0, retry - 1) : messages;
    if (format && support === "reject") {
      stats.rejectedFormat++;
      return send(400, {
        error: { message: "response_format is not supported", type: "invalid_request_error" },
      });
    }
    const family = current;
    // A rate limit or a failing server that passes: two refusals, then an answer.
    if ((family === "rate-limited" || family === "server-error") && stats.requests % 3 !== 0) {
      stats.refused++;
      return send(
        family === "rate-limited" ? 429 : 500,
        { error: { message: `the test server is ${family}`, type: "server_error" } },
        { "retry-after": "0" },
      );
    }
    if (family === "hang") {
      held.add(res);
      return;
    }
    let answer: string;
    try {
      answer = (await clean.generate(prompt, { task: step })).text;
    } catch (error) {
      return send(500, {
        error: { message: `the test server could not answer: ${(error as Error).message}` },
      });
    }
    const structured = step !== "reply";
    const text = format && support === "honour" ? answer : spoil(family, step, answer, structured);
    const completion = JSON.stringify({
      id: "chatcmpl-misbehaving",
      object: "chat.completion",
      created: 0,
      model: String(body.model),
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    });
    if (family === "drip") {
      // Headers at once, then the body a byte at a time: only a deadline on the whole answer ends it.
      held.add(res);
      res.writeHead(200, { "content-type": "application/json" });
      let i = 0;
      const timer = setInterval(() => {
        if (res.destroyed || i >= completion.length) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write(completion[i++]!);
      }, options.dripMs ?? 200);
      res.on("close", () => clearInterval(timer));
      return;
    }
    send(200, JSON.parse(completion));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stats,
    setFamily: (family) => {
      current = family;
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The step's good answer spoilt as `family` spoils it. */
export function spoil(family: ModelFamily, step: string, answer: string, structured: boolean): string {
  if (family === "refusal") return REFUSAL;
  if (family === "empty") return "";
  if (family === "truncated") return answer.slice(0, Math.max(1, Math.floor(answer.length * 0.6)));
  // A reply is prose already: the JSON families leave it as it is.
  if (!structured) return answer;
  const value = JSON.parse(answer) as Record<string, unknown>;
  switch (family) {
    case "fenced":
      return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
    case "prose-around":
      if (step.startsWith("reply")) return `Rationale: ${value.rationale}\nReply: ${value.reply}`;
      return `Sure! Here is what I found:\n${JSON.stringify(value)}\nLet me know if you need anything else.`;
    case "wrong-keys":
      return JSON.stringify(
        Object.fromEntries(Object.entries(value).map(([k, v]) => [WRONG_KEYS[k] ?? `${k}_value`, v])),
      );
    case "missing-keys":
      return JSON.stringify(withoutKeys(value));
    case "one-based":
      return JSON.stringify(oneBased(value));
    case "n-hash-m":
      // MemoChat's own answer form; other steps answer as they should.
      if (Array.isArray(value.options)) return (value.options as number[]).join("#");
      return answer;
    default:
      return answer;
  }
}

/**
 * Each item of the answer's lists loses one key (the second of several, else its only one); an
 * answer with no list of items loses one of its own keys the same way.
 */
function withoutKeys(value: unknown, top = true): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutKeys(v, false));
  if (!value || typeof value !== "object") return value;
  const entries = Object.entries(value);
  const items = (v: unknown) => Array.isArray(v) && v.some((x) => x && typeof x === "object");
  if (top && entries.some(([, v]) => items(v)))
    return Object.fromEntries(entries.map(([k, v]) => [k, items(v) ? withoutKeys(v, false) : v]));
  const drop = entries.length > 1 ? 1 : 0;
  return Object.fromEntries(entries.filter((_, i) => i !== drop));
}

/** Decisions' pairs counted from 1, as a person would count them. */
function oneBased(value: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(value.decisions)) return value;
  return {
    ...value,
    decisions: (value.decisions as { pair: number }[]).map((d) => ({ ...d, pair: d.pair + 1 })),
  };
}

/** Small deterministic vectors, for a chat server that is also asked for embeddings. */
function embeddings(body: Record<string, unknown>) {
  const input = (Array.isArray(body.input) ? body.input : [body.input]) as string[];
  return {
    object: "list",
    model: String(body.model),
    data: input.map((t, index) => ({
      object: "embedding",
      index,
      embedding: [t.length + 1, (t.match(/[aeiou]/g) ?? []).length + 1, 1, index + 1],
    })),
    usage: { prompt_tokens: 3, total_tokens: 3 },
  };
}
