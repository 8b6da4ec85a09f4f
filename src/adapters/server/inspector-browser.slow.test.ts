/**
 * The web inspector in headless Chromium (Debian's `chromium`, driven by playwright-core; never
 * downloaded): a real `serve` on loopback over a store this test fills, a key typed into the
 * page, then memories, a memory's versions and operations, the graph, a failed consolidation
 * retried from the page, a recall with its score bars, and a memory edited and restored. Skips when Chromium is missing, unless
 * MEMLANE_REQUIRE_CHROMIUM=1 (CI), where that is a failure.
 *
 * MEMLANE_SCREENSHOTS=1 writes the screenshots to docs/ (inspector.png, inspector-graph.png,
 * inspector-recall.png) instead of a temporary folder: how the README's pictures are made. It
 * also uses the bundled sentence encoder instead of the hashing double (some 15 s slower), so
 * the pictures show the links and hits a real installation makes.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import { testMemlane } from "../../../test/fixtures/engine.js";
import type { Cognition } from "../../cognition/cognition.js";
import { OfflineCognition } from "../../cognition/offline/offline-cognition.js";
import { SchemaMismatchError } from "../../core/errors.js";
import type { Memlane } from "../../engine/memlane.js";
import type { Embedder } from "../../models/embedder.js";
import { HashEmbedder } from "../../models/hash-embedder.js";
import { UniversalSentenceEncoder } from "../../models/use-embedder.js";
import { openSqliteKeyStore, type SqliteKeyStore } from "../../store/sqlite/key-store.js";
import { createApiKey } from "./api-keys.js";
import { createService, type Service } from "./app.js";
import { type RunningServer, startServer } from "./server.js";

// MEMLANE_CHROMIUM names the browser; otherwise Debian's and Ubuntu's usual places.
const CHROMIUM_CANDIDATES = process.env.MEMLANE_CHROMIUM
  ? [process.env.MEMLANE_CHROMIUM]
  : ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const executablePath = CHROMIUM_CANDIDATES.find((p) => existsSync(p));
const required = process.env.MEMLANE_REQUIRE_CHROMIUM === "1";
const missing = executablePath
  ? null
  : `no Chromium at ${CHROMIUM_CANDIDATES.join(" or ")} (apt-get install chromium, or set MEMLANE_CHROMIUM)`;
// Missing Chromium skips the suite; where it is required (CI), the test below fails as well.
const skip = missing ? `${missing}: the inspector's browser test is skipped` : false;

if (missing && required)
  it("finds Chromium, as MEMLANE_REQUIRE_CHROMIUM=1 requires", () => {
    assert.fail(`MEMLANE_REQUIRE_CHROMIUM=1 but ${missing}`);
  });

// The page's globals, for the functions that run inside Chromium: the project compiles without
// the DOM library (it is a Node package), so the few used here are declared for this file only.
interface Canvas {
  width: number;
  height: number;
  getContext(kind: "2d"): {
    drawImage(image: unknown, x: number, y: number): void;
    getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  } | null;
}
declare const document: {
  querySelector(
    selector: string,
  ): { getAttribute(name: string): string | null; textContent: string | null; value?: string } | null;
  querySelectorAll(selector: string): ArrayLike<Canvas> & Iterable<Canvas>;
  createElement(tag: "canvas"): Canvas;
};
declare const Image: new () => { src: string; width: number; height: number; decode(): Promise<void> };
declare const sessionStorage: { getItem(key: string): string | null };

const DEMO = new URL("../../../data/demo-conversation.json", import.meta.url);
const shots =
  process.env.MEMLANE_SCREENSHOTS === "1" ? new URL("../../../docs/", import.meta.url).pathname : null;
const quiet = { debug() {}, warn() {}, error() {} };

interface Graph {
  memories: { id: string; text: string; status: string; observedAt: string }[];
  edges: { from: string; to: string; type: string }[];
}

/**
 * Offline cognition that fails every step while `broken` is set, as a model whose answers never
 * fit would: so the test has a real failed consolidation for the page to show and retry.
 */
function breakableCognition(embedder: Embedder): Cognition & { broken: boolean } {
  const offline = new OfflineCognition(embedder);
  return {
    specificationVersion: "v1",
    name: "offline",
    broken: false,
    run(step, input, options) {
      if (this.broken)
        return Promise.reject(new SchemaMismatchError(`${step.name}: the answer never fitted its schema`));
      return offline.run(step, input, options);
    },
  };
}

/** Luminance variance and distinct colours of a PNG, measured by Chromium itself on a canvas. */
async function pixelStats(page: Page, png: Buffer): Promise<{ variance: number; colours: number }> {
  return page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const ctx = canvas.getContext("2d")!;
    ctx.drawImage(image, 0, 0);
    const { data: px } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let sum = 0;
    let squares = 0;
    const colours = new Set<number>();
    for (let i = 0; i < px.length; i += 4) {
      const y = 0.299 * px[i]! + 0.587 * px[i + 1]! + 0.114 * px[i + 2]!;
      sum += y;
      squares += y * y;
      colours.add((px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!);
    }
    const n = px.length / 4;
    return { variance: squares / n - (sum / n) ** 2, colours: colours.size };
  }, png.toString("base64"));
}

describe("service: the web inspector in headless Chromium", { skip }, () => {
  let mem: Memlane;
  let keys: SqliteKeyStore;
  let service: Service;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let key: string;
  let cognition: Cognition & { broken: boolean };
  let embedder: Embedder & { close?(): Promise<void> };
  const errors: string[] = [];
  const out = shots ?? mkdtempSync(join(tmpdir(), "memlane-inspector-"));

  /** The API as the test reads it, to compare with what the page shows. */
  const read = async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}/v1${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.equal(res.status, 200, `${path}: ${res.status}`);
    return (await res.json()) as T;
  };

  /** Saves a screenshot and checks it is a real picture, not a blank page. */
  const screenshot = async (name: string) => {
    const png = await page.screenshot({ path: join(out, name), fullPage: false });
    assert.ok(png.length > 20_000, `${name}: only ${png.length} bytes`);
    const stats = await pixelStats(page, png);
    assert.ok(stats.variance > 200, `${name}: luminance variance ${stats.variance}`);
    assert.ok(stats.colours > 200, `${name}: only ${stats.colours} colours`);
  };

  before(async () => {
    embedder = shots ? new UniversalSentenceEncoder() : new HashEmbedder();
    cognition = breakableCognition(embedder);
    mem = await testMemlane({ strategy: "carecall", embedder, cognition, logger: quiet });
    keys = await openSqliteKeyStore(":memory:");
    key = (await createApiKey(keys, { tenant: "acme" })).key;
    const acme = mem.tenant("acme");
    // ava: the demo conversation, consolidated by carecall (updates supersede, a fusion or two).
    const demo = JSON.parse(readFileSync(DEMO, "utf8")) as {
      agent: string;
      sessions: { id: string; at: string; partners: string[]; turns: { speaker: string; text: string }[] }[];
    };
    await acme.ingest(demo);
    // theo and eve: the same talks, kept by theanine (memories linked by relations) and by EMMA
    // (linked chains).
    const kept: [agent: string, strategy: string][] = [
      ["theo", "theanine"],
      ["eve", "emma"],
    ];
    for (const [agent, strategy] of kept)
      for (const s of demo.sessions) {
        const session = await acme.session({ agent, partners: s.partners, at: s.at, id: s.id, strategy });
        for (const t of s.turns) await session.turn(t.speaker === demo.agent ? agent : t.speaker, t.text);
        await (await session.close()).done;
      }
    // ava: one more session whose consolidation fails, for the page to retry.
    cognition.broken = true;
    const late = await acme.session({ agent: "ava", partner: "sam", at: "2024-06-01T09:00", id: "late" });
    await late.turn("sam", "I have started learning the cello, lessons every Tuesday evening.");
    assert.equal((await (await late.close()).done)?.state, "failed");
    cognition.broken = false;

    service = createService({ mem, keys, logger: quiet });
    server = await startServer(service, { port: 0, host: "127.0.0.1" });
    browser = await chromium.launch({
      executablePath,
      // Chromium refuses to run as root with its sandbox (CI containers run as root).
      args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
    });
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console: ${message.text()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await service?.idle();
    await mem?.close();
    await embedder?.close?.();
    await keys?.close();
    if (!shots) rmSync(out, { recursive: true, force: true });
  });

  it("loads without a key, asks for one, and lists the tenant's agents once it has it", async () => {
    const res = await page.goto(`${server.url}/inspect`);
    assert.equal(res?.status(), 200);
    assert.equal(new URL(page.url()).pathname, "/inspect/");
    await page.getByText("Enter an API key").waitFor();
    // A wrong key reads nothing: the API's 401 is shown and no agent is listed.
    await page.fill("#key", "mlk_0000000000000000_wrong");
    await page.click("#key-form button[type=submit]");
    await page.locator("#status", { hasText: "UNAUTHORIZED" }).waitFor();
    assert.equal(await page.locator("#agents button").count(), 0);
    // Chromium logs the refused call (its event may trail the page's message); that one is
    // expected, nothing else is.
    for (let i = 0; i < 50 && errors.length === 0; i++) await page.waitForTimeout(20);
    assert.ok(errors.length > 0 && errors.every((e) => / 401 /.test(e)), errors.join("\n"));
    errors.length = 0;
    await page.fill("#key", key);
    await page.click("#key-form button[type=submit]");
    await page.locator("#agents button", { hasText: "theo" }).waitFor();
    assert.deepEqual(await page.locator("#agents button").allTextContents(), ["ava", "eve", "theo"]);
    assert.equal(await page.evaluate(() => sessionStorage.getItem("memlane.apiKey")), key);
    assert.deepEqual(await page.locator("#partners button").allTextContents(), ["sam"]);
  });

  it("lists memories by status, and shows a memory's versions and every operation with its rationale", async () => {
    const active = await read<{ memories: { id: string }[] }>("/agents/ava/memories");
    await page.locator("#memory-table tbody tr").first().waitFor();
    assert.equal(await page.locator("#memory-table tbody tr").count(), active.memories.length);

    const superseded = await read<{ memories: unknown[] }>("/agents/ava/memories?status=superseded");
    assert.ok(superseded.memories.length > 0, "the demo supersedes something");
    await page.selectOption("#memory-filters select[name=status]", "superseded");
    await page.waitForFunction(
      (n) => document.querySelectorAll("#memory-table tbody tr").length === n,
      superseded.memories.length,
    );
    const badges = await page.locator("#memory-table tbody .badge").allTextContents();
    assert.ok(
      badges.every((b) => b === "superseded"),
      badges.join(),
    );

    // A memory that replaced another: its versions are the chain, oldest first.
    const graph = await read<Graph>("/agents/ava/graph");
    const edge = graph.edges.find((e) => e.type === "Supersedes")!;
    assert.ok(edge, "a Supersedes edge in the demo");
    const newer = graph.memories.find((m) => m.id === edge.from)!;
    const older = graph.memories.find((m) => m.id === edge.to)!;
    await page.selectOption("#memory-filters select[name=status]", "any");
    await page.locator(`#memory-table tr[data-id="${newer.id}"] button`).click();
    await page.locator("#versions li").nth(1).waitFor();
    const versions = await page
      .locator("#versions li")
      .evaluateAll((items) => items.map((li) => li.getAttribute("data-id")));
    assert.ok(versions.includes(older.id) && versions.includes(newer.id), versions.join());
    assert.ok(versions.indexOf(older.id) < versions.indexOf(newer.id), "oldest first");

    const history = await read<{ operations: { type: string; rationale: string | null }[] }>(
      `/agents/ava/memories/${newer.id}/history`,
    );
    const shown = page.locator("#memory-operations > li");
    assert.equal(await shown.count(), history.operations.length);
    assert.deepEqual(
      await page.locator("#memory-operations .op-head strong").allTextContents(),
      history.operations.map((o) => o.type),
    );
    const rationale = history.operations.find((o) => o.rationale)?.rationale;
    assert.ok(rationale, "the replacing operation says why");
    assert.ok((await page.locator("#memory-operations .rationale").allTextContents()).includes(rationale));

    // Clicking the older version opens it.
    await page.locator(`#versions li[data-id="${older.id}"] button`).click();
    await page.locator("#memory-detail h2", { hasText: older.text }).waitFor();
    await screenshot("inspector.png");
  });

  it("draws the memory graph with every memory and edge of the scope", async () => {
    await page.click("[role=tab][data-view=graph]");
    const caption = page.locator("#graph-caption");
    // carecall's supersessions, EMMA's links, Theanine's relations: theo's graph is drawn last.
    const expected = { ava: ["Supersedes"], eve: ["Link"], theo: ["Changed"] };
    for (const [agent, kinds] of Object.entries(expected)) {
      await page.click(`#agents button >> text=${agent}`);
      const graph = await read<Graph>(`/agents/${agent}/graph`);
      const types = [...new Set(graph.edges.map((e) => e.type))];
      for (const kind of kinds) assert.ok(types.includes(kind), `${agent}: ${types.join()}`);
      await page.waitForFunction(
        ([name, nodes, edges]) => {
          const c = document.querySelector("#graph-caption");
          return (
            c?.getAttribute("data-agent") === name &&
            c?.getAttribute("data-nodes") === nodes &&
            c?.getAttribute("data-edges") === edges
          );
        },
        [agent, String(graph.memories.length), String(graph.edges.length)],
      );
      for (const type of types) assert.match((await caption.textContent()) ?? "", new RegExp(`${type} \\d`));
    }
    // cytoscape draws on its canvases in an animation frame: wait until enough of their pixels
    // are not background (a blank graph never gets there and times out).
    const inked = await page.waitForFunction(
      () =>
        [...document.querySelectorAll("#graph canvas")].reduce((n, c) => {
          const px = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
          let count = 0;
          for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) count++;
          return n + count;
        }, 0) > 1000,
      undefined,
      { timeout: 5000 },
    );
    assert.ok(await inked.jsonValue());
    await screenshot("inspector-graph.png");
  });

  it("lays out at 1440 and at 390 px: ids wrap in the sidebar, the force layout fills the panel, nothing scrolls sideways on a phone", async () => {
    // A long id in the sidebar wraps instead of running under the main panel.
    await page.setViewportSize({ width: 1440, height: 900 });
    const longAgent = `agent-with-a-very-long-name-${"x".repeat(60)}`;
    await mem.tenant("acme").ingest({
      agent: longAgent,
      sessions: [
        {
          id: "l1",
          at: "2024-03-02T18:00",
          partner: "sam",
          turns: [{ speaker: "sam", text: "I adopted a beagle." }],
        },
      ],
    });
    await page.fill("#key", key);
    await page.click("#key-form button[type=submit]");
    await page.waitForSelector(`#agents button >> text=${longAgent}`);
    const overflow = await page.evaluate(`(() => {
      const nav = document.querySelector(".sidebar");
      return [...nav.querySelectorAll("button")].some(
        (b) => b.scrollWidth > b.clientWidth + 1 || b.getBoundingClientRect().right > nav.getBoundingClientRect().right + 1,
      );
    })()`);
    assert.equal(overflow, false, "no sidebar entry runs past the sidebar");

    // The force layout uses the panel's width, not a narrow column (the caption carries the
    // drawn nodes' extent, cytoscape's own bounding box).
    await page.click("#agents button >> text=theo");
    await page.click("[role=tab][data-view=graph]");
    await page.selectOption("#graph-layout", "force");
    await page.waitForFunction('document.querySelector("#graph-caption")?.dataset.layout === "force"');
    const spread = (await page.evaluate(`(() => {
      const c = document.querySelector("#graph-caption").dataset;
      return { width: Number(c.spreadWidth), height: Number(c.spreadHeight) };
    })()`)) as { width: number; height: number };
    assert.ok(
      spread.width > spread.height * 0.8,
      `the force layout is wider than a column: ${JSON.stringify(spread)}`,
    );
    await screenshot("inspector-force-1440.png");

    // On a phone: one column, nothing wider than the screen, the detail below the table.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click("[role=tab][data-view=memories]");
    await page.click("#agents button >> text=ava");
    await page.locator("#memory-table tbody tr button.link").first().click();
    await page.waitForSelector("#memory-detail h2");
    const phone = (await page.evaluate(`(() => {
      const table = document.querySelector("#memory-table").getBoundingClientRect();
      const detail = document.querySelector("#memory-detail").getBoundingClientRect();
      return {
        scrollWidth: document.documentElement.scrollWidth,
        width: window.innerWidth,
        overlap: detail.top < table.bottom - 1 && detail.left < table.right - 1 && detail.right > table.left + 1,
      };
    })()`)) as { scrollWidth: number; width: number; overlap: boolean };
    assert.ok(phone.scrollWidth <= phone.width, `no sideways scroll: ${JSON.stringify(phone)}`);
    assert.equal(phone.overlap, false, "the detail panel does not cover the table");
    await screenshot("inspector-390.png");
    await page.setViewportSize({ width: 1360, height: 900 });
  });

  it("shows a failed consolidation with a retry button that runs it again", async () => {
    await page.click("#agents button >> text=ava");
    await page.click("[role=tab][data-view=operations]");
    const failures = await read<{ failures: { id: string; sessionId: string }[] }>("/agents/ava/failures");
    assert.equal(failures.failures.length, 1);
    const item = page.locator(`#failures li[data-id="${failures.failures[0]!.id}"]`);
    await item.waitFor();
    assert.match((await item.textContent()) ?? "", /SCHEMA_MISMATCH|never fitted/);
    // The log lists failed operations too.
    await page.selectOption("#log-status", "failed");
    await page.waitForFunction(() =>
      document.querySelector("#log-count")?.textContent?.startsWith("1 operation"),
    );

    const waiting = page.locator('#agent-summary dd[data-count="waiting for retry"]');
    assert.equal(await waiting.textContent(), "1");
    await item.locator("button.retry").click();
    await page.locator("#no-failures").waitFor();
    await page.waitForFunction(
      () => document.querySelector('#agent-summary dd[data-count="waiting for retry"]')?.textContent === "0",
    );
    assert.match((await page.locator("#status").textContent()) ?? "", /1 succeeded, 0 failed/);
    assert.deepEqual((await read<{ failures: unknown[] }>("/agents/ava/failures")).failures, []);
    const late = await read<{ memories: { text: string }[] }>("/agents/ava/memories?sessionId=late");
    assert.ok(
      late.memories.some((m) => /cello/i.test(m.text)),
      JSON.stringify(late.memories),
    );

    // The whole log, newest first: the retried session's APPEND names the new memory; its link opens it.
    await page.selectOption("#log-status", "");
    const { operations } = await read<{ operations: { type: string; memoryIds: string[] }[] }>(
      "/agents/ava/operations",
    );
    const newest = operations.find((o) => o.memoryIds.length > 0)!;
    const link = page.locator(`#operation-log .memory-link[title="${newest.memoryIds[0]}"]`).first();
    await link.click();
    const { memory } = await read<{ memory: { text: string } }>(
      `/agents/ava/memories/${newest.memoryIds[0]}/history`,
    );
    await page.locator("#memory-detail h2", { hasText: memory.text }).waitFor();
    assert.equal(await page.locator("[role=tab][data-view=memories]").getAttribute("aria-selected"), "true");
  });

  it("runs a recall and shows each hit's per-signal scores as bars", async () => {
    await page.click("[role=tab][data-view=recall]");
    const query = "What job does Sam have now?";
    await page.fill("#recall-form input[name=query]", query);
    await page.click("#recall-form button[type=submit]");
    const recall = await read<{ hits: { text: string; explanation: Record<string, number> }[] }>("/recall", {
      agent: "ava",
      query,
      units: "memories",
      k: 5,
      strategy: "carecall",
      scope: "agent",
    });
    assert.ok(recall.hits.length > 0);
    await page
      .locator("#recall-hits > li")
      .nth(recall.hits.length - 1)
      .waitFor();
    assert.equal(await page.locator("#recall-hits > li").count(), recall.hits.length);
    const bars = await page
      .locator("#recall-hits > li")
      .first()
      .locator(".bar")
      .evaluateAll((spans) =>
        spans.map((s) => ({
          signal: s.getAttribute("data-signal"),
          value: Number(s.getAttribute("data-value")),
          width: s.getBoundingClientRect().width,
        })),
      );
    assert.deepEqual(
      bars.map((b) => b.signal),
      Object.keys(recall.hits[0]!.explanation),
    );
    assert.deepEqual(
      bars.map((b) => b.value),
      Object.values(recall.hits[0]!.explanation),
    );
    // A signal's bar is drawn in proportion: non-zero scores have width, zero ones none.
    for (const bar of bars) assert.equal(bar.width > 0, bar.value !== 0, JSON.stringify(bar));
    await screenshot("inspector-recall.png");

    // With missed turns, the raw turns no shown memory was made from follow, marked as turns.
    await page.fill("#recall-form input[name=turns]", "2");
    await page.click("#recall-form button[type=submit]");
    const mixed = await read<{ hits: { kind: string }[] }>("/recall", {
      agent: "ava",
      query,
      units: "memories",
      k: 5,
      strategy: "carecall",
      turns: 2,
      scope: "agent",
    });
    const turnHits = mixed.hits.filter((h) => h.kind === "turn").length;
    assert.ok(turnHits > 0 && turnHits <= 2, JSON.stringify(mixed.hits));
    await page
      .locator("#recall-hits > li")
      .nth(mixed.hits.length - 1)
      .waitFor();
    assert.equal(await page.locator("#recall-hits > li").count(), mixed.hits.length);
    assert.equal(await page.locator("#recall-hits .badge-turn").count(), turnHits);
    await page.fill("#recall-form input[name=turns]", "0");

    // theo's recall goes through theanine, his sessions' strategy, and shows its timelines.
    await page.click("#agents button >> text=theo");
    await page.waitForFunction(
      () => document.querySelector("#recall-form select[name=strategy]")?.value === "theanine",
    );
    const theanineQuery = "How is Sam's training going?";
    await page.fill("#recall-form input[name=query]", theanineQuery);
    await page.click("#recall-form button[type=submit]");
    const theanine = await read<{ timelines?: { entries: unknown[] }[] }>("/recall", {
      agent: "theo",
      query: theanineQuery,
      units: "memories",
      k: 5,
      strategy: "theanine",
      scope: "agent",
    });
    assert.ok(theanine.timelines?.length, "theanine recalls timelines");
    await page
      .locator("#recall-timelines > li")
      .nth(theanine.timelines.length - 1)
      .waitFor();
    assert.equal(await page.locator("#recall-timelines > li").count(), theanine.timelines.length);
    assert.equal(
      await page.locator("#recall-timelines > li").first().locator(".timeline > li").count(),
      theanine.timelines[0]!.entries.length,
    );
    assert.deepEqual(errors, [], "no script errors in the page");
  });

  it("edits an active memory and restores the version it replaced, with both in the history", async () => {
    type Row = { id: string; text: string; about: string; status: string; kind: string };
    await page.click("#agents button >> text=ava");
    await page.click("[role=tab][data-view=memories]");
    await page.selectOption("#memory-filters select[name=status]", "active");
    const { memories } = await read<{ memories: Row[] }>("/agents/ava/memories");
    const chosen = memories.find((m) => m.about === "sam" && m.kind !== "standing")!;
    assert.ok(chosen, "an active memory about Sam");
    await page.locator(`#memory-table tr[data-id="${chosen.id}"] button`).click();
    await page.locator("#memory-detail h2", { hasText: chosen.text }).waitFor();
    assert.equal(
      await page.locator("#memory-detail button.restore").count(),
      0,
      "no restore on an active memory",
    );

    const corrected = "Sam now works as a lighthouse keeper in Cornwall.";
    await page.click("#memory-detail button.edit");
    await page.fill("#edit-memory textarea", corrected);
    await page.click("#edit-memory button.save");
    await page.locator("#memory-detail h2", { hasText: corrected }).waitFor();
    await page.locator("#corrections li", { hasText: "updated by the caller on" }).waitFor();
    const after = await read<{ memories: Row[] }>("/agents/ava/memories?status=any");
    const fresh = after.memories.find((m) => m.text === corrected)!;
    assert.equal(fresh.status, "active");
    assert.equal(after.memories.find((m) => m.id === chosen.id)?.status, "superseded");
    // The list was read again: the correction is in it, the old version is not.
    await page.locator(`#memory-table tr[data-id="${fresh.id}"]`).waitFor();
    assert.equal(await page.locator(`#memory-table tr[data-id="${chosen.id}"]`).count(), 0);
    const edited = await read<{ replaces: Row[]; operations: { type: string; model: string }[] }>(
      `/agents/ava/memories/${fresh.id}/history`,
    );
    assert.deepEqual(
      edited.replaces.map((m) => m.id),
      [chosen.id],
    );
    assert.ok(edited.operations.some((o) => o.type === "UPDATE" && o.model === "caller"));

    // The old version, opened from the versions list, can be restored and the correction retires.
    await page.locator(`#versions li[data-id="${chosen.id}"] button`).click();
    await page.locator("#memory-detail h2", { hasText: chosen.text }).waitFor();
    assert.equal(await page.locator("#memory-detail button.edit").count(), 0, "no edit on a past version");
    await page.click("#memory-detail button.restore");
    await page.locator("#corrections li", { hasText: "restored on" }).waitFor();
    assert.equal(await page.locator("#memory-detail .facts .badge").first().textContent(), "active");
    await page.locator(`#memory-table tr[data-id="${chosen.id}"]`).waitFor();
    assert.match((await page.locator("#status").textContent()) ?? "", /^Restored: .*1 retired/);
    const restored = await read<{ memory: Row; corrections: { type: string; text: string }[] }>(
      `/agents/ava/memories/${chosen.id}/history`,
    );
    assert.equal(restored.memory.status, "active");
    assert.deepEqual(
      restored.corrections.map((c) => c.type),
      ["UPDATE", "RESTORE"],
    );
    assert.equal(
      (await read<{ memory: Row }>(`/agents/ava/memories/${fresh.id}/history`)).memory.status,
      "superseded",
    );
    assert.deepEqual(errors, [], "no script errors in the page");
  });
});
