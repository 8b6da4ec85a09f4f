/**
 * `memlane mcp`: the memory tools over stdio, for a local MCP client (Claude Desktop, an IDE).
 * The stdio is the run's (io.ts); the MCP SDK loads when the command runs.
 */

import type { Command } from "commander";
import { MCP_TOOLS } from "../../adapters/mcp/tool-names.js";
import { loadFeature } from "../../core/optional-packages.js";
import { io, untilStopped } from "../io.js";
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
      const [{ StdioServerTransport }, { createMcpServer }] = await loadFeature("mcp", () =>
        Promise.all([
          import("@modelcontextprotocol/sdk/server/stdio.js"),
          import("../../adapters/mcp/mcp-tools.js"),
        ]),
      );
      const { stdin, stdout } = io();
      const mem = await open(opts);
      const server = createMcpServer(mem);
      const closed = new Promise<void>((resolve) => {
        server.server.onclose = () => resolve();
      });
      await server.connect(new StdioServerTransport(stdin, stdout));
      // stdout carries the protocol: anything for people goes to stderr.
      note(`memlane MCP tools on stdio, tenant "${mem.tenantId}"`);
      const ended = new Promise<void>((resolve) => stdin.once("end", resolve));
      await untilStopped(closed, ended);
      await server.close();
      await mem.close();
    });
}
