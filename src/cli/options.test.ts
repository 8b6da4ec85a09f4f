/**
 * The index budget and the replica share from the command line and the environment: what each
 * accepts, that the flag wins over the variable, and that anything else is refused by name.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidInputError } from "../core/errors.js";
import { replicaFrom } from "./commands/serve.js";
import { byteSize, configFrom } from "./options.js";

const refused = (where: string) => (e: unknown) =>
  e instanceof InvalidInputError && e.message.startsWith(where) && /512MiB/.test(e.message);

describe("--index-budget and MEMLANE_INDEX_BUDGET", () => {
  it("read sizes with binary and SI units, in any case, and plain bytes", () => {
    assert.equal(byteSize("512MiB", "--index-budget"), 512 * 1024 ** 2);
    assert.equal(byteSize("2GiB", "--index-budget"), 2 * 1024 ** 3);
    assert.equal(byteSize("1.5 gib", "--index-budget"), 1.5 * 1024 ** 3);
    assert.equal(byteSize("800MB", "--index-budget"), 800e6);
    assert.equal(byteSize("64kB", "--index-budget"), 64_000);
    assert.equal(byteSize("1048576", "--index-budget"), 1048576);
    assert.equal(byteSize("0", "--index-budget"), 0, "nothing kept but the scope in use");
  });

  it("refuse what is not a size, naming the flag or variable and showing the form", () => {
    for (const bad of ["", "lots", "512M", "-1GiB", "1e9", "12 parsecs", "1GiB 2", "99999999TiB"])
      assert.throws(() => byteSize(bad, "--index-budget"), refused("--index-budget"), bad);
  });

  it("reach the engine's config, the flag before the variable", () => {
    assert.equal(configFrom({}, {}).indexBudget, undefined, "the engine's default applies");
    assert.equal(configFrom({}, { MEMLANE_INDEX_BUDGET: "256MiB" }).indexBudget, 256 * 1024 ** 2);
    assert.equal(
      configFrom({ indexBudget: "1GiB" }, { MEMLANE_INDEX_BUDGET: "256MiB" }).indexBudget,
      1024 ** 3,
    );
    assert.throws(() => configFrom({}, { MEMLANE_INDEX_BUDGET: "big" }), refused("MEMLANE_INDEX_BUDGET"));
    assert.throws(() => configFrom({ indexBudget: "big" }, {}), refused("--index-budget"));
  });
});

describe("--replica and MEMLANE_REPLICA", () => {
  it("give the share, the flag before the variable, and none when neither is set", () => {
    assert.equal(replicaFrom(undefined, undefined), null);
    assert.equal(replicaFrom(undefined, " "), null, "an empty variable is unset");
    assert.deepEqual(replicaFrom(undefined, "2/3"), { index: 2, of: 3 });
    assert.deepEqual(replicaFrom("1/2", "2/3"), { index: 1, of: 2 });
  });

  it("refuse a share out of range or malformed, naming where it came from", () => {
    assert.throws(
      () => replicaFrom("3/2", undefined),
      (e: unknown) => e instanceof InvalidInputError && e.details.field === "--replica",
    );
    assert.throws(
      () => replicaFrom(undefined, "half"),
      (e: unknown) => e instanceof InvalidInputError && e.details.field === "MEMLANE_REPLICA",
    );
  });
});

describe("--model-context and MEMLANE_MODEL_CONTEXT", () => {
  it("set the endpoint's window, or the context a GGUF model is loaded with, the flag before the variable", () => {
    const endpoint = { chatUrl: "http://127.0.0.1:1/v1", chatModel: "llama3.1" };
    const chat = (options: object, env: NodeJS.ProcessEnv) =>
      configFrom(options, env).chat as Record<string, unknown>;
    assert.equal(
      chat({ ...endpoint, modelContext: "8192" }, { MEMLANE_MODEL_CONTEXT: "2048" }).contextWindow,
      8192,
    );
    assert.equal(chat(endpoint, { MEMLANE_MODEL_CONTEXT: "2048" }).contextWindow, 2048);
    assert.equal(chat(endpoint, {}).contextWindow, undefined, "the adapter's default applies");
    assert.equal(chat({ gguf: "tiny.gguf", modelContext: "4096" }, {}).contextSize, 4096);
  });

  it("refuse a window that is not a whole number of at least 256 tokens, naming the flag", () => {
    for (const bad of ["0", "-1", "1.5", "100", "lots"])
      assert.throws(
        () => configFrom({ chatUrl: "http://127.0.0.1:1/v1", chatModel: "m", modelContext: bad }, {}),
        (e: unknown) => e instanceof InvalidInputError && /--model-context/.test((e as Error).message),
        bad,
      );
  });
});
