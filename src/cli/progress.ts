/**
 * Progress on long work, on stderr so stdout stays clean for --json: a bar on a terminal,
 * a line every tenth of the way otherwise (CI logs, pipes). Written to the run's stderr (io.ts).
 */
import { createRequire } from "node:module";
import { io } from "./io.js";

export interface Progress {
  update(done: number, total: number, label?: string): void;
  stop(): void;
}

export function progress(title: string, enabled = true): Progress {
  if (!enabled) return { update() {}, stop() {} };
  const { stderr } = io();
  if (stderr.isTTY) {
    // Loaded only for a terminal: pipes, logs and tests never draw a bar.
    const cliProgress = createRequire(import.meta.url)("cli-progress") as typeof import("cli-progress");
    const bar = new cliProgress.SingleBar(
      {
        format: `${title} [{bar}] {value}/{total} {label}`,
        stream: stderr,
        hideCursor: true,
        clearOnComplete: false,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(done, total, label = "") {
        if (!started) {
          bar.start(total, done, { label });
          started = true;
        } else {
          bar.setTotal(total);
          bar.update(done, { label });
        }
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastTenth = -1;
  return {
    update(done, total, label = "") {
      const tenth = Math.floor((done / Math.max(1, total)) * 10);
      if (tenth !== lastTenth || done === total) {
        lastTenth = tenth;
        stderr.write(`${title} ${done}/${total} ${label}\n`);
      }
    },
    stop() {},
  };
}
