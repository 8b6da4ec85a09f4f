/**
 * The version `memlane --version` prints. A constant, not package.json read at run time: the
 * binary answers --version before it loads anything (bin.ts); a test keeps the two equal.
 */
export const VERSION = "0.1.0";
