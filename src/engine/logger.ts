/**
 * Where the engine reports what it cannot return to a caller: a listener that threw, a fallback
 * taken. `openMemlane({ logger })` takes any object with these methods (console, pino, winston…).
 */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** The default: warnings and errors on stderr, debug dropped. */
export const consoleLogger: Logger = {
  debug: () => undefined,
  warn: (message, data) => console.warn(`memlane: ${message}`, ...(data ? [data] : [])),
  error: (message, data) => console.error(`memlane: ${message}`, ...(data ? [data] : [])),
};

/** Says nothing at all (tests that provoke errors on purpose). */
export const silentLogger: Logger = { debug: () => undefined, warn: () => undefined, error: () => undefined };
