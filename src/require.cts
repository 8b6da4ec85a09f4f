/**
 * What `require("memlane")` finds. memlane is an ES module: Node 20 cannot `require` it, so this
 * says how to load it instead; where Node can require ES modules (`process.features.require_module`,
 * Node 22.12 and later) it hands the module over as it is.
 */
const features = process.features as { require_module?: boolean };
if (features.require_module) {
  module.exports = require("./index.js");
} else {
  const error = new Error(
    [
      "memlane is an ES module, and this Node cannot require() it. Load it with import instead:",
      '  import { openMemlane } from "memlane";            // in an ES module (.mjs, or "type": "module")',
      '  const { openMemlane } = await import("memlane");  // in CommonJS',
    ].join("\n"),
  ) as Error & { code: string };
  error.code = "ERR_REQUIRE_ESM";
  throw error;
}
