/**
 * `memlane keys`: API keys of `memlane serve`, each bound to one tenant. The key store and the
 * key functions load when a keys command runs.
 */
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import type { GlobalOptions } from "../options.js";
import { note, print, printJson } from "../output.js";
import { storePath } from "./serve.js";

/** The key functions and the key store's opener, loaded on first use. */
async function keyModules() {
  const [keys, store] = await Promise.all([
    import("../../adapters/server/api-keys.js"),
    import("../../store/open-key-store.js"),
  ]);
  return { ...keys, openKeyStore: store.openKeyStore };
}

export function registerKeys(program: Command): void {
  const keys = program
    .command("keys")
    .description("API keys of memlane serve: each works in one tenant; only a hash is stored");

  keys
    .command("create")
    .description("make a key for a tenant and print it once (it cannot be shown again)")
    // The program's global --tenant reads the same flag; either place works.
    .option("--tenant <tenant>", "the tenant every request with this key works in (required)")
    .option("--name <name>", "a label for people (who holds the key)")
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { name?: string }>();
      if (opts.tenant === undefined)
        throw new InvalidInputError("keys create needs --tenant <tenant>", { field: "tenant" });
      const { createApiKey, keySummary, openKeyStore } = await keyModules();
      const store = await openKeyStore(storePath(opts));
      try {
        const { key, record } = await createApiKey(store, { tenant: opts.tenant, name: opts.name });
        if (opts.json) return printJson({ key, ...keySummary(record) });
        print(key);
        note(`key ${record.id} for tenant "${record.tenant}": store it now, it is not shown again`);
      } finally {
        await store.close();
      }
    });

  keys
    .command("list")
    .description("the keys (id, tenant, name, created, revoked); never the keys themselves")
    .option("--tenant <tenant>", "only this tenant's keys")
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { tenant?: string }>();
      const { keySummary, openKeyStore } = await keyModules();
      const store = await openKeyStore(storePath(opts));
      try {
        const list = (await store.list(opts.tenant)).map(keySummary);
        if (opts.json) return printJson({ keys: list });
        for (const k of list)
          print(
            `${k.id}  ${k.tenant}  ${k.name || "-"}  created ${k.createdAt}${k.revokedAt ? `  revoked ${k.revokedAt}` : ""}`,
          );
        if (list.length === 0) note("no keys: memlane keys create --tenant <tenant>");
      } finally {
        await store.close();
      }
    });

  keys
    .command("revoke <id>")
    .description("revoke a key by its id (or the whole key): requests with it get 401 from then on")
    .action(async (id: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const { revokeApiKey, openKeyStore } = await keyModules();
      const store = await openKeyStore(storePath(opts));
      try {
        await revokeApiKey(store, id);
        if (opts.json) printJson({ revoked: id });
        else note(`revoked ${id}`);
      } finally {
        await store.close();
      }
    });
}
