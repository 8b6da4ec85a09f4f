/** A conversation's bounds — who may take part, how many, and an empty close. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { InvalidInputError } from "../../core/errors.js";
import { MAX_CONVERSATION_AGENTS } from "../api.js";

describe("conversation bounds", () => {
  it("refuses a partner who is also an agent, and more agents than the cap, storing nothing", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    await assert.rejects(
      mem.conversation({ agents: ["ava", "ben"], partners: ["ben"] }),
      (e: InvalidInputError) => e instanceof InvalidInputError && e.details.field === "partners",
    );
    const many = Array.from({ length: MAX_CONVERSATION_AGENTS + 1 }, (_, i) => `agent-${i}`);
    await assert.rejects(
      mem.conversation({ agents: many }),
      (e: InvalidInputError) => e instanceof InvalidInputError && /at most 16 agents/.test(e.message),
    );
    assert.deepEqual(await mem.agents(), []);
    const ok = await mem.conversation({ agents: many.slice(0, MAX_CONVERSATION_AGENTS) });
    assert.equal(ok.agents.length, MAX_CONVERSATION_AGENTS);
    await mem.close();
  });

  it("ends a conversation nobody spoke in: every session consolidated, no job, nothing waiting", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const conv = await mem.conversation({ agents: ["ava", "ben"], partners: ["sam"] });
    assert.deepEqual(await conv.close(), []);
    for (const agent of ["ava", "ben"]) {
      assert.deepEqual(
        (await mem.sessions(agent)).map((s) => s.status),
        ["consolidated"],
      );
      assert.deepEqual(await mem.waiting(agent), []);
    }
    await mem.close();
  });
});
