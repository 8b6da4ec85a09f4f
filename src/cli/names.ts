/**
 * Names the command line's help shows, kept here so that printing help loads neither the
 * strategies nor the server: each list has a test that it equals the one its module exports
 * (`strategyNames()` in strategies/registry.ts, `MCP_TOOLS` in adapters/mcp/mcp-tools.ts,
 * `DEFAULT_MAX_BODY_BYTES` in adapters/server/app.ts).
 */

/** The built-in strategies, as `strategyNames()` lists them. */
export const STRATEGY_NAMES = [
  "none",
  "history",
  "accumulate",
  "carecall",
  "theanine",
  "creem",
  "memochat",
  "emma",
] as const;

/** The tools `memlane mcp` serves, as `MCP_TOOLS` lists them. */
export const MCP_TOOL_NAMES = [
  "remember",
  "recall",
  "timeline",
  "history",
  "forget",
  "list_memories",
] as const;

/** The largest request body `memlane serve` takes by default, as the service's own default. */
export const DEFAULT_MAX_BODY = 1024 * 1024;
