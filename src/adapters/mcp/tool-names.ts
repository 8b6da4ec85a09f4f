/** The MCP tools' names, in the snake_case MCP clients know; apart so naming them loads no SDK. */
export const MCP_TOOLS = [
  "remember",
  "recall",
  "timeline",
  "history",
  "forget",
  "get_memory",
  "list_memories",
  "get_turn",
  "list_sessions",
  "list_turns",
  "update_memory",
  "restore_memory",
  "add_memory",
] as const;
