/**
 * `memlane/mcp`: memlane's tools for the Model Context Protocol (remember, recall, timeline,
 * history, forget, list_memories) on the official SDK's server, for one tenant's view. `memlane
 * mcp` serves them over stdio; `memlane/server` mounts them at `/mcp`.
 */
export { createMcpServer, MCP_TOOLS } from "./mcp-tools.js";
