/**
 * Where a run of the command line reads and writes: the process's own stdin, stdout, stderr and
 * environment, or streams a caller hands to `main(argv, io)` — tests run the CLI in their own
 * process and read what it printed. The run's io is carried by an AsyncLocalStorage, so the
 * printing helpers (output.ts, progress.ts) and everything they call find it without each
 * command passing it along; work the run starts (consolidation, a server's requests) keeps it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Readable, Writable } from "node:stream";

/** An output stream; `isTTY` and `columns` as a terminal's, absent on pipes and captures. */
export type CliWriter = Writable & { isTTY?: boolean; columns?: number };

export interface CliIo {
  stdout: CliWriter;
  stderr: CliWriter;
  /** What `chat` reads its lines from and `mcp` its protocol. */
  stdin: Readable;
  /** Where MEMLANE_* settings and NO_COLOR / FORCE_COLOR are read. */
  env: NodeJS.ProcessEnv;
  /** Stops a command that runs until told (serve, worker, mcp), as SIGINT or SIGTERM does. */
  signal?: AbortSignal;
}

/** The process's own streams, looked up on each use (a test may have replaced `process.stdout.write`). */
export const processIo: CliIo = {
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get stdin() {
    return process.stdin;
  },
  get env() {
    return process.env;
  },
};

const current = new AsyncLocalStorage<CliIo>();

/** The io of the run in progress; the process's own outside any run. */
export function io(): CliIo {
  return current.getStore() ?? processIo;
}

/** Runs `body` with `given` as its io; what `given` leaves out is the process's own. */
export function withIo<T>(given: Partial<CliIo> | undefined, body: () => Promise<T>): Promise<T> {
  if (!given) return current.run(processIo, body);
  const whole: CliIo = {
    get stdout() {
      return given.stdout ?? process.stdout;
    },
    get stderr() {
      return given.stderr ?? process.stderr;
    },
    get stdin() {
      return given.stdin ?? process.stdin;
    },
    get env() {
      return given.env ?? process.env;
    },
    signal: given.signal,
  };
  return current.run(whole, body);
}

/**
 * Resolves when the run is told to stop (SIGINT, SIGTERM or the io's abort signal) or when one
 * of `also` settles. The signal listeners are removed then, so a run inside a longer-lived
 * process (a test's) leaves none behind.
 */
export function untilStopped(...also: Promise<unknown>[]): Promise<void> {
  const { signal } = io();
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    signal?.addEventListener("abort", stop);
    if (signal?.aborted) stop();
    for (const promise of also) promise.then(stop, stop);
  });
}
