import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { Memlane } from "../../src/engine/memlane.js";
import { testMemlane } from "../fixtures/engine.js";
import { gate } from "../fixtures/gate.js";

const root = mkdtempSync(join(tmpdir(), "memlane-forget-"));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** Where each of these strings still appears on disk: the database file and its WAL. */
function onDisk(path: string, needles: string[]): string[] {
  const bytes = [path, `${path}-wal`]
    .filter(existsSync)
    .map((p) => readFileSync(p))
    .map((b) => b.toString("latin1"));
  return needles.filter((needle) => {
    const raw = Buffer.from(needle, "utf8").toString("latin1");
    return bytes.some((b) => b.includes(raw));
  });
}

const SAM_SAID = [
  "I adopted a zebracorn called Quillfeather last month and she sleeps in my garden shed.",
  "My zebracorn Quillfeather learned to juggle pinecones last week.",
];

/** Two sessions with Sam (replies that quote him), one where Lea names him. */
async function story(): Promise<{ mem: Memlane; path: string }> {
  const path = join(root, `f${n++}.db`);
  const mem = await testMemlane({ store: path, strategy: "carecall" });
  for (const [i, line] of SAM_SAID.entries()) {
    const s = await mem.session({
      agent: "ava",
      partner: "sam",
      id: `sam-${i}`,
      at: `2024-0${i + 3}-02T18:00`,
    });
    await s.turn("sam", line);
    await s.reply({ query: "zebracorn Quillfeather" });
    await (await s.close()).done;
  }
  const lea = await mem.session({ agent: "ava", partner: "lea", id: "lea-0", at: "2024-06-02T18:00" });
  await lea.turn("lea", "I bought Sam a tiny saddle for his pet last weekend.");
  await (await lea.close()).done;
  return { mem, path };
}

describe("reliability: forget erases everywhere, on disk too", () => {
  it("forget by memory leaves none of its text in the file or the WAL, other payloads included", async () => {
    const { mem, path } = await story();
    const target = (await mem.memories("ava")).find((m) => /juggle/.test(m.text))!;
    assert.deepEqual(onDisk(path, [target.text]), [target.text], "the text was on disk before");
    const report = await mem.forget({ agent: "ava", memoryIds: [target.id] });
    assert.equal(report.memories, 1);
    assert.deepEqual(onDisk(path, [target.text]), []);
    // Another memory's history (its CLASSIFY and SUMMARIZE payloads) no longer shows it.
    for (const m of await mem.memories("ava", { status: "any" }))
      assert.doesNotMatch(JSON.stringify(await mem.history("ava", m.id)), /juggle pinecones/);
    await mem.close();
  });

  it("forget by session leaves none of the session's words on disk", async () => {
    const { mem, path } = await story();
    await mem.forget({ agent: "ava", sessionId: "sam-1" });
    assert.deepEqual(onDisk(path, ["juggle pinecones", SAM_SAID[1]!]), []);
    assert.ok(onDisk(path, ["garden shed"]).length === 1, "the other session stays");
    await mem.close();
  });

  it("forget about a person erases their words in replies and in memories filed about others", async () => {
    const { mem, path } = await story();
    assert.ok(onDisk(path, ["Quillfeather"]).length === 1);
    const aboutLea = (await mem.memories("ava", { about: "lea" })).map((m) => m.text);
    assert.ok(
      aboutLea.some((t) => /Sam/.test(t)),
      "a memory filed about lea names sam",
    );
    const report = await mem.forget({ agent: "ava", about: "sam" });
    assert.equal(report.turns, 4, "sam's two turns and the two replies that answered him");
    assert.deepEqual(onDisk(path, ["Quillfeather", "zebracorn", "juggle pinecones", ...aboutLea]), []);
    // Lea's own words stay: they are hers, not sam's.
    assert.equal(onDisk(path, ["I bought Sam a tiny saddle"]).length, 1);
    const left = await mem.store.listTurns(mem.scope("ava"));
    assert.deepEqual(
      left.map((t) => t.speaker),
      ["lea"],
    );
    // The log says a forget happened, not whom it was about.
    assert.deepEqual(onDisk(path, ['"about":"sam"']), []);
    await mem.close();
  });

  it("leaves nothing a later forget cannot remove when a forget races an ingest", async () => {
    const path = join(root, `race-${n++}.db`);
    const mem = await testMemlane({ store: path, strategy: "carecall" });
    const sessions = Array.from({ length: 6 }, (_, i) => ({
      id: `r${i}`,
      at: `2024-0${i + 1}-10T10:00`,
      partner: "sam",
      turns: [{ speaker: "sam", text: `My zebracorn Quillfeather won ribbon number ${i} at the fair.` }],
    }));
    const ingest = mem.ingest({ agent: "ava", sessions });
    // Forget while sessions are being consolidated, several times over.
    const forgets = [5, 20, 60].map((ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)).then(() =>
        mem.forget({ agent: "ava", about: "sam" }),
      ),
    );
    await Promise.allSettled([ingest, ...forgets]);
    // A racing forget that came after the last session erased Sam already: then no one is left
    // to name, and that answer is as good as a forget.
    await mem.forget({ agent: "ava", about: "sam" }).catch((error: { code?: string }) => {
      if (error.code !== "NOT_FOUND") throw error;
    });
    assert.deepEqual(onDisk(path, ["Quillfeather", "zebracorn"]), []);
    await mem.close();
  });

  it("forgets a person without taking words that only look like their name or their small talk", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    await mem.ingest({
      agent: "ava",
      sessions: [
        {
          id: "m1",
          at: "2024-03-02T18:00",
          partners: ["may", "lea"],
          turns: [
            { speaker: "may", text: "Hi Ava, how are you doing today?" },
            { speaker: "may", text: "I started a pottery class at the community centre." },
            { speaker: "lea", text: "Hi Ava, how are you doing today? I will move to Bristol in May 2024." },
          ],
        },
      ],
    });
    const leaBefore = (await mem.memories("ava", { about: "lea" })).map((m) => m.text);
    assert.ok(
      leaBefore.some((t) => /May 2024/.test(t)),
      leaBefore.join(" | "),
    );
    await mem.forget({ agent: "ava", about: "may" });
    assert.deepEqual(
      (await mem.memories("ava", { about: "lea" })).map((m) => m.text),
      leaBefore,
      "a month is not a person",
    );
    const [leaTurn] = await mem.store.listTurns(mem.scope("ava"), { speaker: "lea" });
    assert.match(
      leaTurn!.text,
      /^Hi Ava, how are you doing today\?/,
      "small talk everyone says is not erased",
    );
    await mem.close();
  });

  it("refuses a consolidation whose turns were forgotten while it ran", async () => {
    const held = gate();
    const { scriptedLlm } = await import("../../src/testing/scripted-llm.js");
    const plain = scriptedLlm();
    const model = scriptedLlm({
      byName: {
        summarize: async (messages, options) => {
          await held.pass();
          return (await plain.generate(messages, options)).text;
        },
      },
    });
    const path = join(root, `pause-${n++}.db`);
    const mem = await testMemlane({ store: path, chat: model, cognition: "llm", strategy: "accumulate" });
    const s = await mem.session({ agent: "ava", partner: "sam", id: "z1" });
    await s.turn("sam", "My zebracorn Quillfeather won a ribbon at the county fair.");
    const { done } = await s.close();
    await held.reached;
    await mem.forget({ agent: "ava", about: "sam" });
    held.open();
    await done;
    assert.deepEqual(await mem.memories("ava", { status: "any" }), []);
    assert.deepEqual(onDisk(path, ["Quillfeather"]), []);
    await mem.close();
  });
});
