import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import { type TestService, testService } from "../../../test/fixtures/test-service.js";
import { findInspectorAssets, INSPECTOR_DIR, inspectorAssets, inspectorRoutes } from "./inspector.js";
import type { ServiceEnv } from "./route-kit.js";
import { type RunningServer, startServer } from "./server.js";

/** A raw HTTP/1.1 GET, so the path reaches the server exactly as written (no URL normalization). */
function rawGet(server: RunningServer, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1", () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => (data += chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]);
      resolve({ status, body: data.slice(data.indexOf("\r\n\r\n") + 4) });
    });
  });
}

describe("service: the inspector's static files", () => {
  let s: TestService;
  let server: RunningServer;
  before(async () => {
    s = await testService();
    server = await startServer(s, { port: 0 });
  });
  after(async () => {
    await server.close();
    await s.close();
  });

  it("serves the page without a key, with the right content types, and redirects /inspect", async () => {
    const redirect = await s.app.request("/inspect");
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.get("location"), "/inspect/");

    const page = await s.app.request("/inspect/");
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    assert.equal(page.headers.get("x-content-type-options"), "nosniff");
    assert.equal(await page.text(), readFileSync(`${INSPECTOR_DIR}index.html`, "utf8"));

    const expected: [string, string][] = [
      ["inspector.css", "text/css; charset=utf-8"],
      ["main.js", "text/javascript; charset=utf-8"],
      ["api.js", "text/javascript; charset=utf-8"],
      ["vendor/cytoscape.mjs", "text/javascript; charset=utf-8"],
    ];
    for (const [name, type] of expected) {
      const res = await s.app.request(`/inspect/${name}`);
      assert.equal(res.status, 200, name);
      assert.equal(res.headers.get("content-type"), type, name);
      assert.ok((await res.text()).length > 100, name);
    }
    // cytoscape's browser build is an ES module the page can import: it has a default export.
    const cytoscape = await (await s.app.request("/inspect/vendor/cytoscape.mjs")).text();
    assert.match(cytoscape, /export\s*\{[^}]*as default/);
  });

  it("serves every file of web/inspector and nothing else", async () => {
    const files = readdirSync(INSPECTOR_DIR).sort();
    const assets = inspectorAssets();
    assert.deepEqual([...assets.keys()].filter((k) => !k.startsWith("vendor/")).sort(), files);
    // Every module the page imports is one of them.
    for (const file of files.filter((f) => f.endsWith(".js")))
      for (const [, target] of readFileSync(`${INSPECTOR_DIR}${file}`, "utf8").matchAll(
        /from "\.\/([^"]+)"/g,
      ))
        assert.ok(assets.has(target!), `${file} imports ${target}, which is not served`);
  });

  it("reads no file outside its own, however the path is written", async () => {
    const attempts = [
      "/inspect/../package.json",
      "/inspect/../../package.json",
      "/inspect/..%2f..%2fpackage.json",
      "/inspect/%2e%2e/%2e%2e/package.json",
      "/inspect/%2e%2e%2f%2e%2e%2fpackage.json",
      "/inspect/vendor/../../../package.json",
      "/inspect/vendor/..%2f..%2f..%2fpackage.json",
      "/inspect/..%5c..%5cpackage.json",
      "/inspect//etc/passwd",
      "/inspect/%2fetc%2fpasswd",
      "/inspect/index.html%00.js",
      "/inspect/vendor/cytoscape.cjs.js",
      "/inspect/vendor/",
    ];
    for (const path of attempts) {
      const res = await rawGet(server, path);
      assert.ok(res.status === 404 || res.status === 400, `${path}: ${res.status}`);
      assert.doesNotMatch(res.body, /"name": "memlane"|root:x:0|module\.exports/, path);
    }
    // The same file by its own name is served, so the refusals above are not a broken server.
    assert.equal((await rawGet(server, "/inspect/main.js")).status, 200);
  });

  it("answers HEAD like GET, without a body", async () => {
    const head = await s.app.request("/inspect/main.js", { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(await head.text(), "");
  });

  it("without its files, warns once and answers 404 at /inspect/ instead of failing to start", async () => {
    const warnings: string[] = [];
    const assets = findInspectorAssets(
      { warn: (message) => warnings.push(message) },
      "/nonexistent/inspector/",
    );
    assert.equal(assets.size, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /web inspector is not available/);
    const app = new Hono<ServiceEnv>();
    inspectorRoutes(app, assets);
    assert.equal((await app.request("/inspect/")).status, 404);
  });

  it("keeps the data behind the key: the page's API calls without one get 401", async () => {
    for (const path of ["/v1/agents", "/v1/agents/ava/graph", "/v1/agents/ava/operations"])
      assert.equal((await s.call(null, "GET", path)).status, 401, path);
  });
});
