/**
 * Port versions (the vercel/ai pattern): every port an adapter implements declares
 * `specificationVersion`, and the engine refuses one written for another version instead of
 * failing later in some method call.
 */
import { UnsupportedError } from "./errors.js";

/** The one version of every memlane port today. */
export const SPECIFICATION_VERSION = "v1";

/**
 * Returns `port` when it declares version "v1" and has the named methods; otherwise throws
 * UnsupportedError naming the port.
 */
export function checkSpecification<T>(port: T, name: string, methods: string[] = []): T {
  const version = (port as { specificationVersion?: unknown } | null)?.specificationVersion;
  if (version !== SPECIFICATION_VERSION)
    throw new UnsupportedError(
      `This ${name} implements specification ${String(version)}; memlane needs "${SPECIFICATION_VERSION}"`,
      { port: name, version: String(version) },
    );
  const missing = methods.filter((m) => typeof (port as Record<string, unknown>)[m] !== "function");
  if (missing.length)
    throw new UnsupportedError(`This ${name} lacks ${missing.join(", ")}`, { port: name, missing });
  return port;
}
