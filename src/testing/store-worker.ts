/**
 * A worker process for the store conformance suite's crash and concurrency cases. It opens a store
 * from a spec (anything `openMemlane`'s `store` accepts) and writes batches until done or killed:
 *   node store-worker.js <spec> <writer> <batches> [wait]
 * Each batch is one session with three turns and a memory, in one write: after a kill, a session
 * is either stored whole or not at all. It prints "ready" once the store is open.
 */
import { resolveStore } from "../engine/config.js";
import { memory, session, turn } from "./rows.js";

const [spec, writer, count] = process.argv.slice(2);
const scope = { tenant: "conformance", agent: "ava" };
const store = await resolveStore(spec);
process.stdout.write("ready\n");
// With "wait", the writers start together: each waits for a line on stdin after saying ready.
if (process.argv[5] === "wait")
  await new Promise((resolve) =>
    process.stdin.once("data", () => {
      process.stdin.pause();
      resolve(undefined);
    }),
  );
for (let i = 0; i < Number(count); i++) {
  const id = `${writer}-${i}`;
  await store.write(scope, {
    sessions: [session(scope, id)],
    turns: [0, 1, 2].map((n) => turn(scope, id, n, n % 2 ? "ava" : "sam", `${id} line ${n}`)),
    memories: [memory(scope, `${id} fact`, { id: `mem-${id}`, sessionId: id })],
  });
}
await store.close();
