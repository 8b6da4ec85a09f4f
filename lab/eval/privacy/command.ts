/** `eval privacy [file]`: the offline privacy reader on the second-hand statements, by split. */
import type { Command } from "commander";
import { print } from "../../../src/cli/output.js";
import { sharedDataPath } from "../../shared-data.js";
import {
  evaluateChat,
  evaluatePart,
  loadStatements,
  locomoTurns,
  partOf,
  privacyMarkdown,
} from "./evaluate.js";

const STATEMENTS = new URL("../../data/privacy/statements.jsonl", import.meta.url).pathname;

/** Adds `privacy [file]` to the `eval` command. */
export function registerEvalPrivacy(evalCmd: Command): void {
  evalCmd
    .command("privacy [file]")
    .description(
      "offline private-statement reader: P/R/F1 of private on the tune split (FNV-1a even ids; --test adds the odd ones) by style and kind, request P/R, withoutPrivacyRequest vs clean, and on LoCoMo turns the share flagged and µs per turn (default lab/data/privacy/statements.jsonl; --chat or locomo-dev in MEMLANE_SHARED_DATA)",
    )
    .option("--test", "also the test split (run once, at the end)")
    .option("--errors", "list the misread statements")
    .option("--chat <file>", "LoCoMo-format file of ordinary chat")
    .action((file: string | undefined, o: { test?: boolean; errors?: boolean; chat?: string }) => {
      const rows = loadStatements(file ?? STATEMENTS);
      const parts = o.test ? (["tune", "test"] as const) : (["tune"] as const);
      const reports = parts.map((p) =>
        evaluatePart(
          rows.filter((r) => partOf(r.id) === p),
          p,
        ),
      );
      const chatFile = o.chat ?? sharedDataPath("locomo-dev/locomo-dev.json");
      const chat = chatFile ? evaluateChat(locomoTurns(chatFile)) : undefined;
      print(privacyMarkdown(reports, chat, o.errors));
    });
}
