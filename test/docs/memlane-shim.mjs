// The `memlane` of the doc examples' shell blocks: sends its command line to the test's relay
// (MEMLANE_DOCS_RELAY, see cli-relay.ts), prints what it answers and exits with its code. Plain
// JavaScript, so a call starts in tens of milliseconds.
import { readFileSync } from "node:fs";

// The shell gives every command its stdin (here /dev/null unless piped): read it whole.
const stdin = process.stdin.isTTY ? "" : readFileSync(0, "utf8");
const response = await fetch(process.env.MEMLANE_DOCS_RELAY, {
  method: "POST",
  body: JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), env: process.env, stdin }),
});
const { code, stdout, stderr } = await response.json();
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = code;
