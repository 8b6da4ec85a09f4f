import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestService, testService } from "../../../test/fixtures/test-service.js";
import { resumeInterrupted } from "./resume.js";

describe("service: a restarted server finishes what a killed one left", () => {
  let s: TestService;
  before(async () => {
    s = await testService();
  });
  after(() => s.close());

  it("consolidates sessions left closed but unconsolidated, leaves open ones open, and only in the given tenants", async () => {
    // What a server killed after answering 202 to close leaves: the session closed with its
    // turns, and no job (the queue lived in the dead process).
    const leave = async (tenant: string, id: string, close: boolean) => {
      const view = s.mem.tenant(tenant);
      const session = await view.session({ agent: "ava", partner: "sam", id, at: "2024-03-02T18:00" });
      await session.turn("sam", "I adopted a beagle called Biscuit and I work as a nurse in Leeds.");
      if (close) await view.store.write(view.scope("ava"), { sessionStatus: [{ id, status: "closed" }] });
    };
    await leave("acme", "killed", true);
    await leave("acme", "live", false);
    await leave("globex", "killed", true);
    const status = async (tenant: string, id: string) =>
      (await s.mem.tenant(tenant).store.getSession(s.mem.tenant(tenant).scope("ava"), id))?.status;

    const resumed = await resumeInterrupted(s.mem, ["acme"]);
    assert.deepEqual(resumed, [{ tenant: "acme", agent: "ava", sessionId: "killed", state: "done" }]);
    assert.equal(await status("acme", "killed"), "consolidated");
    assert.ok((await s.mem.tenant("acme").memories("ava")).some((m) => /beagle/i.test(m.text)));
    assert.equal(await status("acme", "live"), "open", "an open session is its clients' to close");
    assert.equal(await status("globex", "killed"), "closed", "a tenant not named is not touched");
    assert.deepEqual(await resumeInterrupted(s.mem, ["acme"]), [], "nothing twice");
  });
});
