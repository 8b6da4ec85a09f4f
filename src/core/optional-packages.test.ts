import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isMemlaneError } from "./errors.js";
import { loadFeature, missingPackage } from "./optional-packages.js";

/** An error as Node's ES module loader raises it for a package that is not installed. */
function notFound(name: string, code = "ERR_MODULE_NOT_FOUND"): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /app/dist/x.js`), { code });
}

describe("optional packages", () => {
  it("tells a missing package of the feature from any other failure", () => {
    assert.equal(missingPackage(notFound("pg"), ["pg", "pg-boss"]), "pg");
    assert.equal(
      missingPackage(notFound("@hono/node-server/dist/x.js"), ["@hono/node-server"]),
      "@hono/node-server",
    );
    // Another package missing, or the same text with another code, is not this feature's to explain.
    assert.equal(missingPackage(notFound("left-pad"), ["pg", "pg-boss"]), null);
    assert.equal(
      missingPackage(Object.assign(new Error("Cannot find package 'pg'"), { code: "EACCES" }), ["pg"]),
      null,
    );
    assert.equal(missingPackage(null, ["pg"]), null);
  });

  it("a missing package stops the feature with UNSUPPORTED and the install command", async () => {
    const error = await loadFeature("server", () => Promise.reject(notFound("hono"))).catch(
      (e: unknown) => e,
    );
    assert.ok(isMemlaneError(error));
    assert.equal(error.code, "UNSUPPORTED");
    assert.match(
      error.message,
      /needs the package "hono".*npm install hono @hono\/node-server @hono\/zod-openapi/,
    );
    assert.deepEqual(error.details, {
      feature: "server",
      missing: "hono",
      install: "npm install hono @hono/node-server @hono/zod-openapi",
    });
  });

  it("passes any other failure through unchanged, and a loaded module through as it is", async () => {
    const other = new Error("syntax error in the module");
    assert.equal(await loadFeature("mcp", () => Promise.reject(other)).catch((e: unknown) => e), other);
    assert.equal(await loadFeature("mcp", async () => 42), 42);
  });
});
