/** `memlane mcp`: the memory tools over stdio, for a local MCP client (Claude Desktop, an IDE). */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Command } from "commander";
import { createMcpServer, MCP_TOOLS } from "../../adapters/mcp/mcp-tools.js";
import { type GlobalOptions, open } from "../options.js";
import { note } from "../output.js";

export function registerMcp(program: Command): void {
  program
    .command("mcp")
    .description(
      `serve the MCP tools (${MCP_TOOLS.join(", ")}) over stdio in one tenant (--tenant); for clients on this machine`,
    )
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const mem = await open(opts);
      const server = createMcpServer(mem);
      const closed = new Promise<void>((resolve) => {
        server.server.onclose = () => resolve();
      });
      await server.connect(new StdioServerTransport());
      // stdout carries the protocol: anything for people goes to stderr.
      note(`memlane MCP tools on stdio, tenant "${mem.tenantId}"`);
      await Promise.race([
        closed,
        new Promise<void>((resolve) => {
          process.once("SIGINT", resolve);
          process.once("SIGTERM", resolve);
          process.stdin.once("end", resolve);
        }),
      ]);
      await server.close();
      await mem.close();
    });
}
