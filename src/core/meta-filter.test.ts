import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { META_KEY, metaTest } from "./meta-filter.js";

describe("metaTest", () => {
  it("asks every field for one of its values, compared as text", () => {
    const meta = { topic: "work", n: 42, ok: true, x: 1.5 };
    assert.equal(metaTest({ topic: "work" })(meta), true);
    assert.equal(metaTest({ topic: "home" })(meta), false);
    assert.equal(metaTest({ topic: { in: ["home", "work"] } })(meta), true);
    assert.equal(metaTest({ n: "42", ok: "true", x: 1.5 })(meta), true);
    assert.equal(metaTest({ n: 42, topic: "home" })(meta), false);
  });

  it("matches nothing for an absent field, an object, a list or null, and everything for no field", () => {
    const meta = { nested: { a: 1 }, list: ["a"], none: null };
    for (const field of ["missing", "nested", "list", "none"])
      assert.equal(metaTest({ [field]: "a" })(meta), false, field);
    assert.equal(metaTest({ toString: "x" })({}), false, "inherited names are not fields");
    assert.equal(metaTest({})(undefined), true);
    assert.equal(metaTest({ a: "1" })(undefined), false);
  });

  it("names fields in plain words only", () => {
    for (const ok of ["topic", "user_id", "crm:id", "a-b"]) assert.ok(META_KEY.test(ok), ok);
    for (const bad of ["", "a.b", 'a"b', "a b", "x".repeat(65), "-a"]) assert.ok(!META_KEY.test(bad), bad);
  });
});
