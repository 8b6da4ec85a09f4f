/**
 * The `memlane` command of the doc examples' shell blocks, run in the test's own process: a
 * loopback HTTP endpoint takes a command line (arguments, working directory, environment, stdin)
 * from the small client `memlane-shim.mjs` and answers its exit code and output. A shell block
 * may call `memlane` a dozen times; in process each call costs milliseconds, where a fresh
 * `node --import tsx` would cost seconds of start-up and of loading the offline models.
 *
 * `memlane serve` runs until the relay stops: the shell block that starts it gets its answer once
 * the server is listening, as a reader's terminal would show it, and later blocks talk to it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type CliRun, runCli, type StartedCli, startCli } from "../fixtures/run-cli.js";

/** What the shim sends: one `memlane …` command line of a shell block. */
export interface RelayedCommand {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
}

/** A running relay: its URL (for the shim), and stop, which also stops every server it started. */
export interface CliRelay {
  url: string;
  stop(): Promise<void>;
}

/** Commands that run until stopped: the relay answers once they are up and stops them at the end. */
const LONG_RUNNING = new Set(["serve"]);

/**
 * Starts the relay on a free loopback port. `home` is the working directory the process keeps
 * between commands: a server a command started may open files by a relative path later, and
 * must find the same directory then.
 */
export async function startCliRelay(home: string): Promise<CliRelay> {
  const started: StartedCli[] = [];
  // One command at a time: each runs in its own working directory, which is the process's.
  let queue: Promise<unknown> = Promise.resolve();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let command: RelayedCommand;
      try {
        command = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RelayedCommand;
      } catch {
        response.writeHead(400).end("relay: send a command line as JSON\n");
        return;
      }
      const ran = queue.then(() => relay(command, home, started));
      queue = ran.catch(() => undefined);
      ran.then(
        (run) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(run)),
        (error: Error) =>
          response
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ code: 70, stdout: "", stderr: `relay: ${error.stack}\n` })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      for (const run of started) run.stop();
      await Promise.all(started.map((run) => run.done));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function relay(command: RelayedCommand, home: string, started: StartedCli[]): Promise<CliRun> {
  process.chdir(command.cwd);
  try {
    const options = { env: command.env, stdin: command.stdin };
    if (!command.args.some((arg) => LONG_RUNNING.has(arg))) return await runCli(command.args, options);
    const run = startCli(command.args, options);
    started.push(run);
    return await listening(run);
  } finally {
    process.chdir(home);
  }
}

/** Resolves once `serve` says where it listens (with or without --json), or with its run if it ends. */
function listening(run: StartedCli): Promise<CliRun> {
  let ended: CliRun | null = null;
  run.done.then((result) => {
    ended = result;
  });
  return new Promise((resolve) => {
    const check = setInterval(() => {
      if (ended) {
        clearInterval(check);
        resolve(ended);
      } else if (/ at http:\/\/|"url"/.test(run.stdout() + run.stderr())) {
        clearInterval(check);
        resolve({ code: 0, stdout: run.stdout(), stderr: run.stderr() });
      }
    }, 25);
  });
}
