/**
 * `memlane simulate --agents A,B,C`: self-play between several memlane agents. Each session of a
 * script is one conversation between some of the agents (`mem.conversation`): every agent keeps
 * its own session of it and remembers it egocentrically, by its own strategy (default emma).
 * Scripted sessions are played as written; a session with only an opener is played by the
 * agents' own replies, in turn. After each session, and at the end, each agent's memory is
 * printed, with the model calls and tokens its sessions cost. The script's reader (zod), the
 * engine and the scripted model load when the command runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { displayName } from "../../core/ids.js";
import { formatDay } from "../../core/time.js";
import { addUsage, emptyUsage, type Usage } from "../../core/types.js";
import type { ChatModel } from "../../models/chat-model.js";
import { io } from "../io.js";
import { configFrom, type GlobalOptions } from "../options.js";
import { color, note, print, printJson, shown } from "../output.js";
import { progress } from "../progress.js";
import { readText } from "../read-text.js";
import { failure } from "./ingest.js";

const SCRIPT = new URL("../../../data/emma/simulate-script.json", import.meta.url).pathname;

interface SimulateOptions extends GlobalOptions {
  agents: string;
  sessions?: string;
  turns: string;
  script?: string;
  engine: string;
  keep?: boolean;
}

export function registerSimulate(program: Command): void {
  program
    .command("simulate")
    .description(
      "self-play: several memlane agents talk in scripted or model-driven sessions, each keeping its own memory (default strategy emma); prints each agent's memory",
    )
    .requiredOption("--agents <list>", "two or more agent ids, e.g. ava,ben,cy")
    .option("--script <file>", "sessions to play ($1, $2… are the agents in order); default the bundled one")
    .option("--sessions <n>", "play only the first n sessions of the script")
    .option("--turns <n>", "replies per agent-driven session (after its opener)", "4")
    .option(
      "--engine <engine>",
      "offline | scripted (LLM engine, scripted model) | llm (the configured model)",
      "offline",
    )
    .option("--keep", "keep the database (printed at the end)")
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<SimulateOptions>();
      const agents = opts.agents
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean);
      if (agents.length < 2)
        throw new InvalidInputError("--agents needs at least two agents", { field: "agents" });
      const [{ idSchema }, { openMemlane }, { bindScript }] = await Promise.all([
        import("../../engine/api.js"),
        import("../../engine/open-memlane.js"),
        import("./simulate-script.js"),
      ]);
      for (const a of agents) {
        const ok = idSchema.safeParse(a);
        if (!ok.success)
          throw new InvalidInputError(`--agents: "${a}" is not a valid id`, { field: "agents" });
      }
      if (new Set(agents).size !== agents.length)
        throw new InvalidInputError("--agents names an agent twice", { field: "agents" });
      const turns = Number(opts.turns);
      if (!Number.isInteger(turns) || turns < 0)
        throw new InvalidInputError(`--turns must be a whole number, not "${opts.turns}"`, {
          field: "turns",
        });
      const path = opts.script ?? SCRIPT;
      const engine = await engineConfig(opts.engine);
      let raw: unknown;
      try {
        raw = JSON.parse(await readText(path));
      } catch (error) {
        if (error instanceof SyntaxError)
          throw new InvalidInputError(`${path} is not valid JSON: ${error.message}`, { field: "script" });
        throw error;
      }
      const script = bindScript(raw, agents, path);
      const limit = opts.sessions === undefined ? script.sessions.length : Number(opts.sessions);
      if (!Number.isInteger(limit) || limit < 1)
        throw new InvalidInputError(`--sessions must be a positive whole number, not "${opts.sessions}"`, {
          field: "sessions",
        });
      const sessions = script.sessions.slice(0, limit);
      const dir = opts.db ? null : mkdtempSync(join(tmpdir(), "memlane-simulate-"));
      const db = opts.db ?? join(dir!, "simulate.db");
      const config = configFrom({ ...opts, db });
      const mem = await openMemlane({ ...config, ...engine, strategy: config.strategy ?? "emma" });
      const bar = progress("simulate", opts.json !== true && io().stderr.isTTY === true);
      const played: { session: string; agents: string[]; turns: { speaker: string; text: string }[] }[] = [];
      try {
        if (!opts.json)
          print(
            color.bold(
              `memlane simulate — ${agents.join(", ")}, strategy ${mem.strategy.name}, ${mem.cognition.name} cognition, ${sessions.length} sessions\n`,
            ),
          );
        for (const [i, s] of sessions.entries()) {
          bar.update(i, sessions.length, `session ${i + 1}`);
          const at = s.at ?? new Date(Date.UTC(2025, 0, 1 + 7 * i)).toISOString();
          const conv = await mem.conversation({
            agents: s.agents,
            at,
            id: `sim-${i + 1}`,
            meta: { roles: script.roles },
          });
          const said: { speaker: string; text: string }[] = [];
          for (const t of s.turns ?? []) {
            await conv.turn(t.speaker, t.text);
            said.push(t);
          }
          if (!s.turns?.length && s.opener) {
            await conv.turn(s.opener.speaker, s.opener.text);
            said.push(s.opener);
            // The others reply in turn, each from its own memory.
            const order = s.agents.filter((a) => a !== s.opener!.speaker);
            for (let n = 0; n < turns; n++) {
              const speaker = order[n % order.length]!;
              const { text } = await conv.reply(speaker);
              said.push({ speaker, text });
            }
          }
          const jobs = await conv.close();
          await Promise.all(jobs.map((j) => j.done));
          played.push({ session: conv.id, agents: s.agents, turns: said });
          if (opts.json) continue;
          bar.stop();
          print(color.bold(`session ${i + 1} · ${formatDay(at)} · ${s.agents.map(displayName).join(", ")}`));
          for (const t of said)
            print(`  ${color.bold(displayName(t.speaker))}: ${shown(t.text).replace(/\n/g, "\n     ")}`);
          for (const a of s.agents) {
            const added = (await mem.memories(a)).filter((m) => m.sessionId === conv.id);
            print(color.dim(`  ${displayName(a)} keeps ${added.length}:`));
            for (const m of added)
              print(
                color.green(
                  `    + [about ${m.about === a ? "self" : displayName(m.about)}] ${shown(m.text)}`,
                ),
              );
          }
        }
        bar.stop();
        const report = [];
        for (const a of agents) {
          const memories = await mem.memories(a);
          const links = (await mem.edges(a)).filter((e) => e.type === "Link").length;
          const ops = await mem.operations(a);
          const usage = ops.reduce((u: Usage, o) => addUsage(u, o.usage), emptyUsage());
          const inSessions = new Set(ops.map((o) => o.sessionId).filter(Boolean)).size;
          report.push({ agent: a, memories, links, usage, sessions: inSessions });
        }
        // Work that failed (a consolidation, an agent's per-turn step) is stored and waits for
        // `memlane retry`; the run says so and exits with its code instead of 0.
        const ran = new Set(played.map((p) => p.session));
        const failed = [];
        for (const a of agents)
          for (const o of await mem.failures(a))
            if (ran.has(o.sessionId ?? "")) failed.push({ code: (o.error ?? "").split(":")[0]! });
        const work = played.reduce((n, p) => n + p.agents.length, 0);
        const problem = failed.length
          ? failure(failed, undefined, work, "agents' consolidations and steps")
          : null;
        if (opts.json) {
          printJson({ sessions: played, agents: report });
          if (problem) throw problem;
          return;
        }
        print(color.bold("\neach agent's own memory"));
        for (const r of report) {
          const per = r.sessions ? (n: number) => (n / r.sessions).toFixed(1) : () => "0";
          print(
            color.bold(
              `  ${displayName(r.agent)}: ${r.memories.length} memories, ${r.links} links · model calls ${r.usage.calls} (${per(r.usage.calls)} a session), tokens ${r.usage.promptTokens} in / ${r.usage.completionTokens} out`,
            ),
          );
          const subjects = [r.agent, ...new Set(r.memories.map((m) => m.about).filter((x) => x !== r.agent))];
          for (const about of subjects) {
            const mine = r.memories.filter((m) => m.about === about);
            if (mine.length === 0) continue;
            print(`    about ${about === r.agent ? "self" : displayName(about)}:`);
            for (const m of mine) print(`      - ${shown(m.text)}`);
          }
        }
        if (opts.keep || opts.db) print(`database: ${db}`);
        if (problem) throw problem;
      } finally {
        bar.stop();
        await mem.close();
        if (dir && !opts.keep) rmSync(dir, { recursive: true, force: true });
      }
      note(`simulated ${sessions.length} sessions`);
    });
}

/** The engine choice as config: offline, the LLM engine over the scripted model, or the configured model. */
async function engineConfig(engine: string): Promise<{ cognition?: "offline" | "llm"; chat?: ChatModel }> {
  if (engine === "offline") return { cognition: "offline" };
  if (engine === "llm") return { cognition: "llm" };
  if (engine === "scripted") {
    const [{ emmaScriptedSteps }, { scriptedLlm }] = await Promise.all([
      import("../../testing/emma-scripted.js"),
      import("../../testing/scripted-llm.js"),
    ]);
    return {
      cognition: "llm",
      chat: scriptedLlm({
        byName: emmaScriptedSteps(),
        // A scripted reply that says which memory the agent was given, so the play shows recall.
        reply: (system) => {
          const remembered = /What you remember[^\n]*:\n- (.*)/.exec(system)?.[1];
          return {
            rationale: "scripted",
            reply: remembered ? `I remember this: ${remembered}` : "Tell me more.",
          };
        },
      }),
    };
  }
  throw new InvalidInputError(`--engine must be offline, scripted or llm, not "${engine}"`, {
    field: "engine",
  });
}
