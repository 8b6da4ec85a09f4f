/**
 * Port versions (the vercel/ai pattern): every port declares its own specification — a name, the
 * version its implementations must declare as `specificationVersion`, and the methods they must
 * have — beside its interface, and the engine refuses an implementation written for another
 * version instead of failing later in some method call. Ports version independently: the store
 * can move to "v2" while chat models stay at "v1".
 */
import { UnsupportedError } from "./errors.js";

/** What an implementation of one port must declare and have. */
export interface PortSpecification<V extends string = string> {
  /** The port's name, for messages ("MemoryStore"). */
  readonly name: string;
  /** The version implementations declare as `specificationVersion`. */
  readonly version: V;
  /** Methods an implementation must have. */
  readonly methods: readonly string[];
}

/** A port's specification, declared once beside its interface. */
export function definePort<V extends string>(
  name: string,
  version: V,
  methods: string[],
): PortSpecification<V> {
  return { name, version, methods };
}

/** The version every port started at; each port now declares its own (`PortSpecification`). */
export const SPECIFICATION_VERSION = "v1";

/**
 * Returns `port` when it declares the port's version and has its methods; otherwise throws
 * UnsupportedError naming the port (`label`, when given, names this one: `Strategy "mine"`).
 */
export function checkSpecification<T>(port: T, spec: PortSpecification, label = spec.name): T {
  const version = (port as { specificationVersion?: unknown } | null)?.specificationVersion;
  if (version !== spec.version)
    throw new UnsupportedError(
      `This ${label} implements specification ${String(version)}; memlane needs "${spec.version}"`,
      { port: label, version: String(version) },
    );
  const missing = spec.methods.filter((m) => typeof (port as Record<string, unknown>)[m] !== "function");
  if (missing.length)
    throw new UnsupportedError(`This ${label} lacks ${missing.join(", ")}`, { port: label, missing });
  return port;
}
