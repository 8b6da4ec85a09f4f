import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cosine } from "../core/vector.js";
import { UniversalSentenceEncoder } from "./use-embedder.js";

describe("bundled sentence encoder (offline)", () => {
  it("gives 512-d unit vectors that place paraphrases closer than unrelated text", async () => {
    const e = new UniversalSentenceEncoder({ workers: 1 });
    const [a, b, c, empty] = await e.embed([
      "Sam adopted a beagle puppy.",
      "Sam got a new dog, a young beagle.",
      "The stock market fell on Tuesday.",
      "",
    ]);
    assert.equal(a!.length, 512);
    assert.ok(Math.abs(Math.hypot(...a!) - 1) < 1e-4);
    assert.ok(cosine(a!, b!) > cosine(a!, c!) + 0.2);
    assert.equal(empty!.length, 512, "empty text still gets a vector");
    // Past the encoder's window, and outside its language: still a unit vector, never a crash.
    const [long, foreign] = await e.embed([
      "I like hiking in the hills with my dog. ".repeat(2000),
      "¿Dónde vive Caroline? 卡罗琳住在哪里 🙂",
    ]);
    assert.ok(Math.abs(Math.hypot(...long!) - 1) < 1e-4);
    assert.ok(Math.abs(Math.hypot(...foreign!) - 1) < 1e-4);
    assert.deepEqual(await e.embed([]), []);
  });

  it("embeds the same in worker threads as in-process, and closes its workers", async () => {
    const texts = Array.from(
      { length: 20 },
      (_, i) => `Sentence ${i} about gardening, pottery and long walks.`,
    );
    const inProcess = await new UniversalSentenceEncoder({ workers: 1 }).embed(texts);
    const pooled = new UniversalSentenceEncoder({ workers: 2, batchSize: 4 });
    const viaWorkers = await pooled.embed(texts);
    assert.equal(viaWorkers.length, texts.length);
    for (let i = 0; i < texts.length; i++)
      assert.ok(cosine(inProcess[i]!, viaWorkers[i]!) > 0.9999, `text ${i} kept its place`);
    await pooled.close();
  });

  it("gives a text exactly the vector it gets alone, whatever shares its batch", async () => {
    // Texts of different lengths: padding to the longest once moved vectors by up to 1.75e-7.
    const texts = [
      "Hey Mel! Good to see you! How have you been?",
      "I went to a LGBTQ support group yesterday and it was so powerful.",
      "Yesterday my sister and I finally drove all the way out to the old lake house to see what the storm had done to the roof and the jetty.",
      "Thanks!",
      "What did you paint last weekend?",
    ];
    const single = new UniversalSentenceEncoder({ workers: 1, batchSize: 1 });
    const alone: Float32Array[] = [];
    for (const t of texts) alone.push((await single.embed([t]))[0]!);
    const inProcess = await new UniversalSentenceEncoder({ workers: 1, batchSize: 4 }).embed(texts);
    const pooled = new UniversalSentenceEncoder({ workers: 2, batchSize: 3 });
    const viaWorkers = await pooled.embed([...texts].reverse());
    viaWorkers.reverse();
    await pooled.close();
    for (let i = 0; i < texts.length; i++) {
      assert.deepEqual(inProcess[i], alone[i], `text ${i} in a batch of four`);
      assert.deepEqual(viaWorkers[i], alone[i], `text ${i} in a worker's batch`);
    }
  });

  it("keeps every caller's order when calls overlap in the worker pool", async () => {
    const a = Array.from({ length: 12 }, (_, i) => `Caroline: I painted sunflowers on day ${i}.`);
    const b = Array.from({ length: 9 }, (_, i) => `Melanie: we went camping by lake number ${i}.`);
    const reference = await new UniversalSentenceEncoder({ workers: 1 }).embed([...a, ...b]);
    const pooled = new UniversalSentenceEncoder({ workers: 2, batchSize: 2 });
    const [va, vb] = await Promise.all([pooled.embed(a), pooled.embed(b)]);
    const got = [...va, ...vb];
    assert.equal(got.length, reference.length);
    for (let i = 0; i < got.length; i++) assert.ok(cosine(got[i]!, reference[i]!) > 0.9999, `text ${i}`);
    await pooled.close();
  });

  it("warms up its workers in a process that has nothing else to wait for", () => {
    // Idle workers do not hold a process open; a warm-up must, or a server starting with it
    // would exit before it listens (an unsettled top-level await ends with code 13).
    const encoder = fileURLToPath(new URL("./use-embedder.ts", import.meta.url));
    const script = `const { UniversalSentenceEncoder } = await import(${JSON.stringify(encoder)});
      const e = new UniversalSentenceEncoder({ workers: 2 });
      await e.warmUp();
      await e.warmUp();
      const [v] = await e.embed(["Sam adopted a beagle.", "And named him Biscuit."]);
      console.log("warm", v.length);
      await e.close();
      // Closed while it loads: the warm-up ends (either way) instead of waiting forever.
      const f = new UniversalSentenceEncoder({ workers: 2 });
      const warming = f.warmUp().then(() => "loaded", () => "refused");
      await new Promise((resolve) => setTimeout(resolve, 50));
      await f.close();
      console.log("ended", ["loaded", "refused"].includes(await warming));`;
    const dir = mkdtempSync(join(tmpdir(), "memlane-warm-"));
    writeFileSync(join(dir, "warm.mjs"), script);
    const r = spawnSync(process.execPath, ["--import", "tsx", join(dir, "warm.mjs")], { encoding: "utf8" });
    rmSync(dir, { recursive: true, force: true });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), "warm 512\nended true");
  });
});
