import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { stripVTControlCharacters } from "node:util";
import { testMemlane } from "../../../test/fixtures/engine.js";
import type { Memory } from "../../core/types.js";
import { memochatStrategy } from "../../strategies/memochat/memochat.js";
import { memochatDemo } from "./demo-memochat.js";

const plain = (s: string) => stripVTControlCharacters(s);

describe("memlane demo --strategy memochat", () => {
  it("prints only for memochat", () => {
    assert.equal(memochatDemo("carecall"), null);
    assert.ok(memochatDemo("memochat"));
  });

  it("shows each memo entry's topic, line range and summary, and the topics recall chose", async () => {
    const mem = await testMemlane({ strategy: memochatStrategy({ cut: 0.1, chooser: { threshold: 0.15 } }) });
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-02T18:00" });
    await s.turn("sam", "We booked a ryokan near the temples in Kyoto for our April trip.");
    await s.turn("ava", "A ryokan near the Kyoto temples sounds lovely.");
    await s.turn("sam", "My sourdough bread keeps coming out flat and dense.");
    await s.turn("ava", "Feed the sourdough starter twice a day before you bake.");
    await (await s.close()).done;
    const printer = memochatDemo("memochat")!;
    const memos: Memory[] = await mem.memories("ava");
    const lines = printer.added(memos).map(plain);
    assert.equal(lines.length, memos.length);
    assert.match(lines[0]!, /^ {2}\+ memo “.+” lines 1–2: Sam: We booked a ryokan/);
    assert.match(lines[1]!, /lines 3–4: Sam: My sourdough bread/);
    const recall = await mem.recall({
      agent: "ava",
      query: "Which ryokan in Kyoto did we book?",
      about: "sam",
    });
    assert.match(plain(printer.choice(recall)), /↳ chose: “.+” \(lines 1–2\)$/);
    assert.equal(plain(printer.choice({ ...recall, hits: [] })), "     ↳ chose: none of the others");
    await mem.close();
  });
});
