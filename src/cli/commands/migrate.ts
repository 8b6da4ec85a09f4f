/**
 * `memlane migrate`: the explicit schema step for Postgres deployments. It brings the store's
 * schema up to date and readies pgvector, once, before new processes roll out; processes that
 * start on a current schema then only read it (no lock, no DDL). A SQLite file is migrated when
 * it is opened, by its single writer, so the command just opens it.
 */
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { configFrom, type GlobalOptions, open } from "../options.js";
import { note, printJson } from "../output.js";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("bring the store's schema up to date (run it before rolling out a new memlane on Postgres)")
    .addHelpText(
      "after",
      "\nOn Postgres, the first process to find the schema behind migrates it under an advisory lock;\n" +
        "`memlane migrate` does that step on its own, so serve, worker and recall processes only read\n" +
        "the schema when they start. Exit 6 when the database cannot be reached or is newer than this memlane.",
    )
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const config = configFrom(opts);
      const store = typeof config.store === "string" ? config.store : "";
      const { isPostgresSpec } = await import("../../store/store-spec.js");
      if (isPostgresSpec(store)) {
        const { migrateDatabase } = await import("../../adapters/postgres/open-store.js");
        const report = await migrateDatabase(store, {
          vectorSearch: config.vectorSearch,
          statementTimeoutMs: config.postgres?.statementTimeoutMs,
          lockTimeoutMs: config.postgres?.lockTimeoutMs,
        });
        if (opts.json) printJson(report);
        else
          note(
            `${report.database} (schema ${report.schema}): version ${report.from} -> ${report.to}; ` +
              (report.pgvector
                ? `pgvector ${report.pgvector}${report.iterativeScan ? "" : " (no iterative scans: filtered searches may end exact)"}`
                : "memory search exact, in the process"),
          );
        return;
      }
      if (!store) throw new InvalidInputError("memlane migrate needs a store (--db)", { field: "db" });
      // Opening the engine opens (and migrates) the file.
      await (await open(opts)).close();
      if (opts.json) printJson({ database: store, migrated: true });
      else note(`${store}: SQLite schema up to date (SQLite files are migrated when opened)`);
    });
}
