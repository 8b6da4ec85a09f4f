/**
 * One strategy played against one family of model misbehaviour (misbehaving-model.ts): two
 * sessions written, closed and consolidated, then a third in which the agent replies twice. What
 * came back says whether every reply returned text and whether every session's memories landed
 * or its failures were recorded, and what the model was asked for it.
 */
import type { Operation } from "../core/types.js";
import {
  type MisbehavingModelStats,
  type ModelFamily,
  type SchemaSupport,
  startMisbehavingModel,
} from "./misbehaving-model.js";
import { testMemlane } from "./test-memlane.js";

export interface ModelBehaviourRun {
  strategy: string;
  family: ModelFamily;
  schema?: SchemaSupport;
  /** Deadline of one model call (default 300 ms for `drip` and `hang`, 10 s otherwise). */
  timeoutMs?: number;
  /** The adapter's tries after a timeout or a refusal (default 1 for `drip` and `hang`, 2 otherwise). */
  maxRetries?: number;
}

export interface ModelBehaviourOutcome {
  strategy: string;
  family: ModelFamily;
  replies: { asked: number; returned: number; errors: string[] };
  /**
   * Sessions written: `landed` were consolidated (`whole`: with no failed operation of theirs;
   * the others recorded what did not land, a step item or a turn's work), `recorded` were not
   * but have a failed operation that says so, `lost` neither (what must never happen).
   */
  sessions: { total: number; landed: number; whole: number; recorded: number; lost: string[] };
  /** Failed operations by type (CONSOLIDATE, TURN, STEP). */
  failures: Record<string, number>;
  /**
   * After the model recovers (it answers cleanly) and `retry` runs: the sessions consolidated,
   * and what `failures` still lists (nothing, when every recorded failure was run again).
   */
  afterRetry: { landed: number; waiting: number };
  model: MisbehavingModelStats;
}

const WRITTEN: { id: string; at: string; lines: [string, string][] }[] = [
  {
    id: "s1",
    at: "2024-03-01T10:00",
    lines: [
      ["sam", "My sister Dana lives in Lisbon and she teaches maths there."],
      ["ava", "Lisbon is lovely. How long has she been there?"],
      ["sam", "Three years. And I started a new job at the bakery on Elm Street last week."],
      ["ava", "Congratulations on the bakery job!"],
    ],
  },
  {
    id: "s2",
    at: "2024-04-02T18:30",
    lines: [
      ["sam", "Big news: Dana moved from Lisbon to Porto last month."],
      ["ava", "Porto! Does she still teach?"],
      ["sam", "Yes, still maths. Also I quit the bakery, I work at the city library now."],
      ["ava", "The library sounds calmer."],
    ],
  },
];

const QUESTIONS = ["Where does my sister Dana live these days?", "Do you think I still work at the bakery?"];

/** Plays the scenario; never throws for the model's sake (a thrown reply is counted, not raised). */
export async function runModelBehaviour(run: ModelBehaviourRun): Promise<ModelBehaviourOutcome> {
  const slow = run.family === "drip" || run.family === "hang";
  const server = await startMisbehavingModel({ family: run.family, schema: run.schema ?? "ignore" });
  const mem = await testMemlane({
    chat: {
      baseURL: server.url,
      model: "misbehaving",
      timeoutMs: run.timeoutMs ?? (slow ? 300 : 10_000),
      maxRetries: run.maxRetries ?? (slow ? 1 : 2),
    },
    strategy: run.strategy,
  });
  const replies = { asked: 0, returned: 0, errors: [] as string[] };
  try {
    for (const written of WRITTEN) {
      const s = await mem.session({ id: written.id, agent: "ava", partner: "sam", at: written.at });
      for (const [speaker, text] of written.lines) await s.turn(speaker, text);
      await (await s.close()).done;
    }
    const s = await mem.session({ id: "s3", agent: "ava", partner: "sam", at: "2024-05-10T09:00" });
    for (const question of QUESTIONS) {
      await s.turn("sam", question);
      replies.asked++;
      try {
        const { text } = await s.reply();
        if (text.trim()) {
          replies.returned++;
          await s.turn("ava", text, { meta: { generated: true } });
        } else replies.errors.push("empty reply");
      } catch (error) {
        replies.errors.push((error as Error).message);
      }
    }
    const sessions = { total: WRITTEN.length, landed: 0, whole: 0, recorded: 0, lost: [] as string[] };
    const ops = await mem.store.listOperations(mem.scope("ava"), { status: "failed" });
    for (const written of WRITTEN) {
      const session = await mem.store.getSession(mem.scope("ava"), written.id);
      const failed = ops.filter((o: Operation) => o.sessionId === written.id);
      if (session?.status === "consolidated") {
        sessions.landed++;
        if (failed.length === 0) sessions.whole++;
      } else if (failed.length > 0) sessions.recorded++;
      else sessions.lost.push(`${written.id} (${session?.status ?? "missing"})`);
    }
    const failures: Record<string, number> = {};
    for (const o of ops) failures[o.type] = (failures[o.type] ?? 0) + 1;
    const model = { ...server.stats, bySteps: { ...server.stats.bySteps } };
    server.setFamily("clean");
    await mem.retry("ava");
    let landed = 0;
    for (const written of WRITTEN)
      if ((await mem.store.getSession(mem.scope("ava"), written.id))?.status === "consolidated") landed++;
    const afterRetry = { landed, waiting: (await mem.failures("ava")).length };
    return { strategy: run.strategy, family: run.family, replies, sessions, failures, afterRetry, model };
  } finally {
    await mem.close();
    await server.close();
  }
}
