/**
 * Deadlines and retries for model calls. A model's answer is only useful whole, so a deadline
 * here bounds everything a call waits for — connecting, the first byte, the rest of the body and
 * its parsing — not just the wait for a server's headers: a server that sends its headers at once
 * and then drips the body would otherwise hold a call, and the session behind it, for as long as
 * it likes.
 */
import { ModelTimeoutError } from "../core/errors.js";

export interface DeadlineOptions {
  /** How long the work may take in all, in ms; `undefined` sets no deadline. */
  ms: number | undefined;
  /** The caller's signal: when it aborts, the work is aborted and the call rejects at once with its reason. */
  signal?: AbortSignal;
  /** Who failed to answer, for the error's message: "The model server at http://…". */
  who: string;
  /** Added to the ModelTimeoutError's details. */
  details?: Record<string, unknown>;
}

/**
 * Runs `work` with a signal that aborts when the deadline passes or the caller's signal aborts,
 * and settles as soon as either happens, without waiting for the work to notice: a deadline the
 * work could overrun by ignoring its signal would be no deadline. The work is handed the abort
 * all the same, so that it closes its socket or stops generating; its late outcome is dropped.
 * An answer that arrives complete but after the deadline (a long parse blocks the timer) is
 * refused too, so a call either answers within its deadline or fails.
 *
 * The timer and the listener on the caller's signal are removed however the call ends, so
 * nothing of a finished call keeps the process alive.
 *
 * @throws {ModelTimeoutError} when the deadline passes first (`details.timeoutMs` says which)
 * @throws the caller's `signal.reason` when the caller aborts first
 */
export function withinDeadline<T>(
  options: DeadlineOptions,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { ms, signal, who } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const controller = new AbortController();
  const started = performance.now();
  const late = () =>
    new ModelTimeoutError(`${who} did not answer in time: no complete answer within ${ms} ms`, {
      ...options.details,
      timeoutMs: ms,
    });
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cleanUp = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    // The caller hears the reason first; the abort then reaches the work, whose own rejection
    // arrives after this promise has settled and is ignored.
    const stop = (reason: unknown) => {
      cleanUp();
      reject(reason);
      controller.abort(reason);
    };
    const onAbort = () => stop(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (ms !== undefined) timer = setTimeout(() => stop(late()), ms);
    let pending: Promise<T>;
    try {
      pending = work(controller.signal);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        if (controller.signal.aborted) return;
        if (ms !== undefined && performance.now() - started > ms) stop(late());
        else {
          cleanUp();
          resolve(value);
        }
      },
      (error) => {
        if (controller.signal.aborted) return;
        cleanUp();
        reject(error);
      },
    );
  });
}

/**
 * Waits `ms`, or rejects at once with the reason when `signal` aborts; the timer is cleared
 * either way.
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The longest wait between two tries, whatever a server's Retry-After asks for. */
export const LONGEST_RETRY_WAIT_MS = 60_000;

/**
 * How long to wait before try number `retry + 1` (0 is the first retry): what the server asked
 * for in `retry-after-ms` or `retry-after`, when that is at most a minute, else half a second
 * doubling each time up to 8 s, less up to a quarter at random so that many callers do not come
 * back together (the OpenAI client's own schedule).
 */
export function retryWait(retry: number, headers?: { get(name: string): string | null }): number {
  const asked = askedWait(headers);
  if (asked !== undefined && asked >= 0 && asked <= LONGEST_RETRY_WAIT_MS) return asked;
  return Math.min(500 * 2 ** retry, 8000) * (1 - Math.random() * 0.25);
}

function askedWait(headers?: { get(name: string): string | null }): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (!Number.isNaN(ms)) return ms;
  const after = headers?.get("retry-after");
  if (!after) return undefined;
  const seconds = Number.parseFloat(after);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : date - Date.now();
}
