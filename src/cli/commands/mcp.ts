/**
 * `memlane mcp`: the memory tools over stdio, for a local MCP client (Claude Desktop, an IDE);
 * `--agent` names the agent a tool call may leave out, and `--partner` the person the client is
 * for, walling every tool to what they may hear (adapters/mcp/partner-wall.ts).
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
    .option("--agent <agent>", "the agent a tool call may leave out (its own agent still wins)")
    .option(
      "--partner <partner>",
      "the person the client is for (you, in a desktop client): walls the tools to what that partner may hear, and writes only for them; without it, the tools see the agent's whole memory",
    )
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { agent?: string; partner?: string }>();
      const [{ StdioServerTransport }, { createMcpServer }] = await loadFeature("mcp", () =>
        Promise.all([
          import("@modelcontextprotocol/sdk/server/stdio.js"),
          import("../../adapters/mcp/mcp-tools.js"),
        ]),
      );
      const { stdin, stdout } = io();
      const mem = await open(opts);
      const server = createMcpServer(mem, { agent: opts.agent, partner: opts.partner });
      const closed = new Promise<void>((resolve) => {
        server.server.onclose = () => resolve();
      });
      await server.connect(new StdioServerTransport(stdin, stdout));
      // stdout carries the protocol: anything for people goes to stderr.
      const who = opts.agent ? `, agent "${opts.agent}"${opts.partner ? ` with "${opts.partner}"` : ""}` : "";
      note(`memlane MCP tools on stdio, tenant "${mem.tenantId}"${who}`);
      const ended = new Promise<void>((resolve) => stdin.once("end", resolve));
      await untilStopped(closed, ended);
      await server.close();
      await mem.close();
    });
}
