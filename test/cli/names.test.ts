/**
 * The names and numbers the command line shows in its help without loading their modules
 * (src/cli/names.ts, src/cli/version.ts) are the modules' own.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { MCP_TOOLS } from "../../src/adapters/mcp/mcp-tools.js";
import { DEFAULT_MAX_BODY_BYTES } from "../../src/adapters/server/app.js";
import { DEFAULT_MAX_BODY, MCP_TOOL_NAMES, STRATEGY_NAMES } from "../../src/cli/names.js";
import { VERSION } from "../../src/cli/version.js";
import { strategyNames } from "../../src/strategies/registry.js";

describe("what memlane's help names", () => {
  it("lists the strategies, the MCP tools and the body limit the modules have", () => {
    assert.deepEqual([...STRATEGY_NAMES], strategyNames());
    assert.deepEqual([...MCP_TOOL_NAMES], [...MCP_TOOLS]);
    assert.equal(DEFAULT_MAX_BODY, DEFAULT_MAX_BODY_BYTES);
  });

  it("prints the package's version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    assert.equal(VERSION, pkg.version);
  });
});
