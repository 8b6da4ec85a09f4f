/**
 * Global CLI options and environment variables, turned into a MemlaneConfig.
 *   --db / MEMLANE_DB               store: SQLite file, postgres://… or pglite:<dir> (default ./memlane.db)
 *   --vector-search / MEMLANE_VECTOR_SEARCH  auto | exact (Postgres memory search)
 *   --tenant / MEMLANE_TENANT       tenant (default "default")
 *   --strategy / MEMLANE_STRATEGY   strategy for new sessions
 *   --embedder / MEMLANE_EMBEDDER   use | hash (default use)
 *   --chat-url, --chat-model, --api-key / MEMLANE_CHAT_URL, MEMLANE_CHAT_MODEL, MEMLANE_API_KEY
 *   --gguf / MEMLANE_GGUF           a local GGUF model file
 *   --model-timeout, --model-retries / MEMLANE_MODEL_TIMEOUT, MEMLANE_MODEL_RETRIES
 *   --model-context / MEMLANE_MODEL_CONTEXT  the chat model's window in tokens
 *   --cognition / MEMLANE_COGNITION offline | llm
 *   --index-budget / MEMLANE_INDEX_BUDGET  bytes of search index held in memory (512MiB, 2GiB…)
 *   --pg-statement-timeout, --pg-lock-timeout / MEMLANE_PG_STATEMENT_TIMEOUT, MEMLANE_PG_LOCK_TIMEOUT  (ms)
 *   --pg-connections / MEMLANE_PG_CONNECTIONS  connections this process opens to Postgres at most
 * The environment is the run's (io.ts). Nothing here loads the engine until a command opens it.
 */
import { existsSync } from "node:fs";
import { format } from "node:util";
import type { Command, OutputConfiguration } from "commander";
import { MIN_CONTEXT_WINDOW } from "../core/context-window.js";
import { InvalidInputError, NotFoundError } from "../core/errors.js";
import type { MemlaneConfig } from "../engine/config.js";
import type { Logger } from "../engine/logger.js";
import type { Memlane } from "../engine/memlane.js";
import { STRATEGY_NAMES } from "../strategies/names.js";
import { type CliIo, io, processIo } from "./io.js";
import { colorsOn } from "./output.js";
import { VERSION } from "./version.js";

/**
 * The options every memlane command line takes (the product's `memlane`, the lab's `npm run lab`),
 * and commander's own output (help, usage errors, the version) routed to the run's io. Call it
 * before adding subcommands: they inherit the output settings when they are made.
 */
export function addGlobalOptions(program: Command): Command {
  const given = program.configureOutput() as OutputConfiguration;
  // No width off a terminal, as commander's own default: its typings say number, it takes undefined.
  const width = (stream: CliIo["stdout"]) => (stream.isTTY ? stream.columns : undefined) as number;
  return program
    .configureOutput({
      writeOut: (text) => io().stdout.write(text),
      writeErr: (text) => io().stderr.write(text),
      getOutHelpWidth: () => width(io().stdout),
      getErrHelpWidth: () => width(io().stderr),
      getOutHasColors: () => (io() === processIo ? Boolean(given.getOutHasColors?.()) : colorsOn(io())),
      getErrHasColors: () => (io() === processIo ? Boolean(given.getErrHasColors?.()) : colorsOn(io())),
    })
    .version(VERSION)
    .option(
      "--db <store>",
      "the store: a SQLite file, postgres://… or pglite:<dir> (env MEMLANE_DB; default ./memlane.db)",
    )
    .option(
      "--vector-search <mode>",
      "Postgres memory search: auto (pgvector's index where it can be had) | exact (env MEMLANE_VECTOR_SEARCH)",
    )
    .option("--tenant <tenant>", 'tenant to work in (env MEMLANE_TENANT; default "default")')
    .option(
      "--strategy <name>",
      `strategy for new sessions: ${STRATEGY_NAMES.join(", ")} (env MEMLANE_STRATEGY)`,
    )
    .option("--embedder <name>", "use (bundled sentence encoder, default) | hash (fast, lexical)")
    .option("--cognition <engine>", "offline | llm (default: llm when a chat model is set)")
    .option(
      "--chat-url <url>",
      "OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (env MEMLANE_CHAT_URL)",
    )
    .option("--chat-model <model>", "model name at that endpoint (env MEMLANE_CHAT_MODEL)")
    .option("--api-key <key>", "API key for the endpoint (env MEMLANE_API_KEY)")
    .option("--gguf <file>", "a local GGUF model run with node-llama-cpp (env MEMLANE_GGUF)")
    .option(
      "--model-timeout <ms>",
      "deadline of each request to the chat endpoint for the whole answer: connecting, waiting, reading and parsing it; past it the request is aborted (env MEMLANE_MODEL_TIMEOUT; default 60000)",
    )
    .option(
      "--model-retries <n>",
      "tries after the first for a request to the chat endpoint that timed out, could not connect or got 408, 409, 429 or 5xx (env MEMLANE_MODEL_RETRIES; default 2)",
    )
    .option(
      "--model-context <tokens>",
      "tokens the chat model holds at once, prompt and answer: what the server loads (llama.cpp -c, Ollama num_ctx, vLLM --max-model-len) or the context a --gguf model is loaded with; prompts are sized to it (env MEMLANE_MODEL_CONTEXT; default 4096 for an endpoint, the published length for known hosted models, 2048 for --gguf)",
    )
    .option(
      "--index-budget <size>",
      "bytes of search index kept in memory over all scopes, e.g. 512MiB or 2GiB (env MEMLANE_INDEX_BUDGET; default 1GiB)",
    )
    .option(
      "--pg-statement-timeout <ms>",
      "Postgres: a statement running longer is cancelled and its request fails with 503 STORE_UNAVAILABLE; 0 for none (env MEMLANE_PG_STATEMENT_TIMEOUT; default 30000)",
    )
    .option(
      "--pg-lock-timeout <ms>",
      "Postgres: a statement waiting longer for a lock held elsewhere fails with 503 STORE_UNAVAILABLE instead of hanging; 0 for none (env MEMLANE_PG_LOCK_TIMEOUT; default 5000)",
    )
    .option(
      "--pg-connections <n>",
      "Postgres: connections this process opens at most, over the store's and the queue's pools (env MEMLANE_PG_CONNECTIONS; default 20)",
    )
    .option("--json", "machine-readable output")
    .showHelpAfterError()
    .exitOverride();
}

export interface GlobalOptions {
  db?: string;
  vectorSearch?: string;
  tenant?: string;
  strategy?: string;
  embedder?: string;
  chatUrl?: string;
  chatModel?: string;
  apiKey?: string;
  gguf?: string;
  modelTimeout?: string;
  modelRetries?: string;
  modelContext?: string;
  cognition?: string;
  indexBudget?: string;
  pgStatementTimeout?: string;
  pgLockTimeout?: string;
  pgConnections?: string;
  json?: boolean;
}

/** The engine's configuration from the options, then the environment, then the defaults. */
export function configFrom(options: GlobalOptions, env: NodeJS.ProcessEnv = io().env): MemlaneConfig {
  const chatUrl = options.chatUrl ?? env.MEMLANE_CHAT_URL;
  const chatModel = options.chatModel ?? env.MEMLANE_CHAT_MODEL;
  const gguf = options.gguf ?? env.MEMLANE_GGUF;
  const embedder = options.embedder ?? env.MEMLANE_EMBEDDER ?? "use";
  if (embedder !== "use" && embedder !== "hash")
    throw new InvalidInputError(`Unknown embedder "${embedder}"; use "use" or "hash"`);
  const cognition = options.cognition ?? env.MEMLANE_COGNITION;
  if (cognition && cognition !== "offline" && cognition !== "llm")
    throw new InvalidInputError(`Unknown cognition "${cognition}"; use "offline" or "llm"`);
  if (chatUrl && !chatModel)
    throw new InvalidInputError("--chat-url needs --chat-model (or MEMLANE_CHAT_MODEL)");
  const indexBudget = options.indexBudget ?? env.MEMLANE_INDEX_BUDGET;
  const context = whole(
    options.modelContext ?? env.MEMLANE_MODEL_CONTEXT,
    "model-context",
    MIN_CONTEXT_WINDOW,
  );
  return {
    store: options.db ?? env.MEMLANE_DB ?? "./memlane.db",
    vectorSearch: (options.vectorSearch ?? env.MEMLANE_VECTOR_SEARCH) as MemlaneConfig["vectorSearch"],
    tenant: options.tenant ?? env.MEMLANE_TENANT ?? "default",
    strategy: options.strategy ?? env.MEMLANE_STRATEGY,
    embedder,
    chat: gguf
      ? {
          gguf,
          timeoutMs: whole(options.modelTimeout ?? env.MEMLANE_MODEL_TIMEOUT, "model-timeout", 1),
          contextSize: context,
        }
      : chatUrl
        ? {
            baseURL: chatUrl,
            model: chatModel!,
            apiKey: options.apiKey ?? env.MEMLANE_API_KEY,
            timeoutMs: whole(options.modelTimeout ?? env.MEMLANE_MODEL_TIMEOUT, "model-timeout", 1),
            maxRetries: whole(options.modelRetries ?? env.MEMLANE_MODEL_RETRIES, "model-retries", 0),
            contextWindow: context,
          }
        : undefined,
    cognition: cognition as MemlaneConfig["cognition"],
    ...(indexBudget === undefined
      ? {}
      : {
          indexBudget: byteSize(
            indexBudget,
            options.indexBudget === undefined ? "MEMLANE_INDEX_BUDGET" : "--index-budget",
          ),
        }),
    postgres: {
      statementTimeoutMs: whole(
        options.pgStatementTimeout ?? env.MEMLANE_PG_STATEMENT_TIMEOUT,
        "pg-statement-timeout",
        0,
      ),
      lockTimeoutMs: whole(options.pgLockTimeout ?? env.MEMLANE_PG_LOCK_TIMEOUT, "pg-lock-timeout", 0),
      maxConnections: whole(options.pgConnections ?? env.MEMLANE_PG_CONNECTIONS, "pg-connections", 3),
    },
    logger: logTo(io().stderr),
  };
}

/**
 * The engine's warnings and errors on the run's stderr, as its console logger prints them on the
 * process's: a run in a test's process keeps them with the rest of what it printed.
 */
function logTo(stderr: CliIo["stderr"]): Logger {
  const line = (message: string, data?: Record<string, unknown>) =>
    stderr.write(`${format(`memlane: ${message}`, ...(data ? [data] : []))}\n`);
  return { debug: () => undefined, warn: line, error: line };
}

/**
 * Opens memlane as the options say. Commands that only read (or change what is there) pass
 * `existing: true`: a mistyped --db is then an error, not a new empty database.
 */
export async function open(options: GlobalOptions, how: { existing?: boolean } = {}): Promise<Memlane> {
  const config = configFrom(options);
  // A Postgres server's database is not ours to check; a file or a PGlite directory is.
  if (how.existing && typeof config.store === "string" && !/^postgres(ql)?:\/\//.test(config.store)) {
    const path = config.store.replace(/^(sqlite|pglite):/, "");
    if (path !== ":memory:" && config.store !== "pglite:memory" && !existsSync(path))
      throw new NotFoundError(`No memlane database at ${path}; check --db (or MEMLANE_DB), or ingest first`, {
        path,
      });
  }
  // The engine is loaded here, when a command needs it, not when the command line starts.
  const { openMemlane } = await import("../engine/open-memlane.js");
  return openMemlane(config);
}

/** A whole-number option (absent: undefined, the default applies); anything else is refused. */
function whole(value: string | undefined, field: string, least: number): number | undefined {
  return value === undefined ? undefined : wholeNumber(value, field, least);
}

/** The value of `--field` as a whole number of at least `least`; anything else is an InvalidInputError. */
export function wholeNumber(value: string, field: string, least: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < least)
    throw new InvalidInputError(`--${field} must be a whole number of at least ${least}, not "${value}"`, {
      field,
    });
  return n;
}

/** Bytes per unit of a size: SI (kB, MB, GB: powers of 1000) and binary (KiB, MiB, GiB: of 1024). */
const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/**
 * A size in bytes from its text: a number and an optional unit ("512MiB", "1.5 GiB", "800MB",
 * "1048576"); units are read without regard to case. `where` names the flag or variable in the
 * error, which refuses anything else: no unit guessing ("512M" is refused, since it could be
 * either kind of megabyte), no negatives, nothing past Number.MAX_SAFE_INTEGER.
 * @throws {InvalidInputError} a text that is not such a size
 */
export function byteSize(text: string, where: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? SIZE_UNITS[(match[2] || "b").toLowerCase()] : undefined;
  const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : Number.NaN;
  if (!Number.isSafeInteger(bytes))
    throw new InvalidInputError(
      `${where} must be a size in bytes such as 512MiB, 2GiB, 800MB or 1048576 (units B, kB, MB, GB, TB, KiB, MiB, GiB, TiB), not "${text}"`,
      { field: "indexBudget" },
    );
  return bytes;
}
