/**
 * `memlane/mcp`: memlane's tools for the Model Context Protocol (remember, recall, timeline,
 * history, forget, get_memory, list_memories, get_turn, list_sessions, list_turns, update_memory,
 * restore_memory, add_memory) on the official SDK's server, for one tenant's view. `memlane mcp`
 * serves them over stdio; `memlane/server` mounts them at `/mcp`.
 */
export { createMcpServer, MCP_TOOLS, type McpDefaults } from "./mcp-tools.js";
