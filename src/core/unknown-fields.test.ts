import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidInputError } from "./errors.js";
import { closestName, editDistance, refuseUnknownFields, unknownFieldMessage } from "./unknown-fields.js";

describe("unknown fields: names and suggestions", () => {
  it("counts edits, a swap of neighbours as one", () => {
    assert.equal(editDistance("query", "query"), 0);
    assert.equal(editDistance("qeury", "query"), 1);
    assert.equal(editDistance("quer", "query"), 1);
    assert.equal(editDistance("querry", "query"), 1);
    assert.equal(editDistance("kitten", "sitting"), 3);
    assert.equal(editDistance("", "abc"), 3);
  });

  it("suggests the field a misspelling or another naming style meant, and nothing far off", () => {
    const recall = ["agent", "query", "about", "k", "strategy", "units", "turns", "now", "scope"];
    assert.equal(closestName("qeury", recall), "query");
    assert.equal(closestName("stratgey", recall), "strategy");
    assert.equal(closestName("Agent", recall), "agent");
    assert.equal(closestName("session_id", ["sessionId", "about"]), "sessionId");
    assert.equal(closestName("memory-ids", ["memoryIds", "about"]), "memoryIds");
    // Not typos of anything: no guess.
    assert.equal(closestName("user_id", recall), undefined);
    assert.equal(closestName("filters", recall), undefined);
    assert.equal(closestName("db", ["store", "tenant", "chat"]), undefined);
    assert.equal(closestName("x", []), undefined);
  });

  it("says the unknown field and the meant one, or the known ones", () => {
    assert.equal(
      unknownFieldMessage("qeury", ["agent", "query"]),
      "unknown field `qeury`; did you mean `query`?",
    );
    assert.equal(
      unknownFieldMessage("user_id", ["agent", "query"]),
      "unknown field `user_id` (known: agent, query)",
    );
    assert.equal(
      unknownFieldMessage("db", ["store"], { db: "store" }),
      "unknown field `db`; did you mean `store`?",
    );
    assert.equal(unknownFieldMessage("x", []), "unknown field `x` (none are taken here)");
  });

  it("refuses an object with an unknown field, naming it with its place, and lets known ones through", () => {
    refuseUnknownFields({ turns: 3 }, ["turns", "chars"], "options");
    refuseUnknownFields(undefined, ["turns"], "options");
    assert.throws(
      () =>
        refuseUnknownFields({ turns: 3, chrs: 9 }, ["turns", "chars"], "openMemlane options", {
          where: "replyWindow",
        }),
      (error: InvalidInputError) => {
        assert.ok(error instanceof InvalidInputError);
        assert.equal(error.details.field, "replyWindow.chrs");
        assert.equal(error.details.suggestion, "chars");
        assert.equal(
          error.message,
          "Invalid openMemlane options: unknown field `chrs`; did you mean `chars`?",
        );
        return true;
      },
    );
    // A field written as undefined was still written by the caller: refused too.
    assert.throws(
      () => refuseUnknownFields({ limt: undefined }, ["limit"], "filter"),
      /did you mean `limit`/,
    );
  });
});
