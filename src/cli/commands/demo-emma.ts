/**
 * `memlane demo --strategy emma`: a mixed-session tour. A bakery owner meets her apprentice, her
 * landlord and the mill's rep in turn (data/emma/demo-conversation.json, written by us); after
 * each session the demo prints what she chose to remember, about herself and about that partner,
 * and the links it drew; then what she remembers about each person, her linked chains, and a few
 * questions one partner asks about another, answered from her own memory.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { displayName } from "../../core/ids.js";
import { formatDay } from "../../core/time.js";
import type { Edge, Memory } from "../../core/types.js";
import { validateTranscript } from "../../engine/ingest/formats/transcript.js";
import { openMemlane } from "../../engine/open-memlane.js";
import { configFrom, type GlobalOptions } from "../options.js";
import { color, print, printJson, shown } from "../output.js";

const DEMO_FILE = new URL("../../../data/emma/demo-conversation.json", import.meta.url);

interface EmmaDemoFile {
  agent: string;
  roles: Record<string, string>;
  sessions: { meta?: Record<string, unknown> }[];
  questions: { partner: string; ask: string }[];
}

/** Runs the EMMA demo; `opts` are the demo command's (global options, --keep). */
export async function emmaDemo(opts: GlobalOptions & { keep?: boolean }): Promise<void> {
  const started = performance.now();
  const raw = JSON.parse(readFileSync(DEMO_FILE, "utf8")) as EmmaDemoFile;
  // Every session records who is who (the paper conditions on names and roles).
  for (const s of raw.sessions) s.meta = { ...s.meta, roles: raw.roles };
  const transcript = validateTranscript(raw, "emma demo conversation");
  const dir = opts.db ? null : mkdtempSync(join(tmpdir(), "memlane-emma-demo-"));
  const db = opts.db ?? join(dir!, "demo.db");
  const mem = await openMemlane({ ...configFrom({ ...opts, db }), strategy: "emma" });
  const agent = transcript.agent;
  const who = (id: string) => (id === agent ? "me" : displayName(id));
  const json: Record<string, unknown>[] = [];
  try {
    if (!opts.json)
      print(
        color.bold(
          `memlane demo — strategy emma (egocentric memory), ${mem.cognition.name} cognition, embedder ${mem.embedder.name}\n` +
            `${displayName(agent)} (${raw.roles[agent]}) meets ${Object.keys(raw.roles)
              .filter((p) => p !== agent)
              .map((p) => `${displayName(p)} (${raw.roles[p]})`)
              .join(", ")}\n`,
        ),
      );
    const seen = new Set<string>();
    for (const session of transcript.sessions) {
      await mem.ingest({ agent, sessions: [session] });
      const all = await mem.memories(agent, { strategy: "emma" });
      const byId = new Map(all.map((m) => [m.id, m]));
      const added = all.filter((m) => m.sessionId === session.id);
      const edges = (await mem.edges(agent)).filter((e) => e.type === "Link" && !seen.has(e.id));
      for (const e of edges) seen.add(e.id);
      json.push({ session: session.id, added, links: edges });
      if (opts.json) continue;
      const partner = session.partners[0]!;
      print(
        color.bold(
          `${session.id} · ${formatDay(session.at)} · with ${displayName(partner)} (${raw.roles[partner] ?? "partner"})`,
        ),
      );
      if (typeof session.meta.event === "string") print(color.dim(`  ${session.meta.event}`));
      for (const m of added) print(color.green(`  + [about ${who(m.about)}] ${shown(m.text)}`));
      if (added.length === 0) print(color.dim("  (nothing worth keeping)"));
      for (const e of edges) print(color.cyan(`  ~ linked: ${linkLine(e, byId)}`));
    }
    const memories = await mem.memories(agent, { strategy: "emma" });
    const byId = new Map(memories.map((m) => [m.id, m]));
    const links = (await mem.edges(agent)).filter((e) => e.type === "Link");
    if (!opts.json) {
      print(color.bold(`\nwhat ${displayName(agent)} remembers`));
      for (const about of [agent, ...Object.keys(raw.roles).filter((p) => p !== agent)]) {
        const mine = memories.filter((m) => m.about === about);
        print(color.bold(`  about ${who(about)} (${mine.length})`));
        for (const m of mine) print(`    - ${color.dim(formatDay(m.observedAt))} ${shown(m.text)}`);
      }
      print(color.bold(`\nlinks, by linked group (older → newer)`));
      for (const group of groups(links)) {
        print(`  • ${group.map((e) => linkLine(e, byId)).join("\n    ")}`);
      }
      print(color.bold(`\nquestions one partner asks about another (a new session each)`));
    }
    const answers: Record<string, unknown>[] = [];
    const last = transcript.sessions.at(-1)!;
    for (const [i, q] of raw.questions.entries()) {
      const s = await mem.session({
        agent,
        partner: q.partner,
        at: new Date(Date.parse(last.at) + (i + 1) * 86_400_000).toISOString(),
        meta: { roles: raw.roles },
      });
      await s.turn(q.partner, q.ask);
      const { text, recall } = await s.reply();
      await (await s.close()).done;
      answers.push({ partner: q.partner, ask: q.ask, reply: text, hits: recall.hits.map((h) => h.text) });
      if (opts.json) continue;
      print(`${color.bold(displayName(q.partner))}: ${shown(q.ask)}`);
      print(`${color.green(displayName(agent))}: ${shown(text).replace(/\n/g, "\n     ")}`);
      for (const h of recall.hits)
        print(
          color.dim(
            `     ↳ ${h.explanation.linked ? "linked" : "top   "} [about ${who(h.about)}] ${shown(h.text)}`,
          ),
        );
    }
    const elapsedMs = performance.now() - started;
    if (opts.json) return printJson({ sessions: json, memories, links, answers, elapsedMs });
    print(
      `\nmemories: ${memories.length} (${memories.filter((m) => m.about === agent).length} about ${displayName(agent)} herself) · ${links.length} links · nothing superseded`,
    );
    if (opts.keep || opts.db)
      print(`database: ${db}  (try: memlane inspect --db ${db} --agent ${agent} --memories --all)`);
    print(color.dim(`demo finished in ${(elapsedMs / 1000).toFixed(1)} s`));
  } finally {
    await mem.close();
    if (dir && !opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}

function linkLine(e: Edge, byId: Map<string, Memory>): string {
  return `${shown(byId.get(e.from)?.text ?? e.from)} → ${shown(byId.get(e.to)?.text ?? e.to)}`;
}

/** The links in groups that share memories, each group's links oldest first. */
function groups(links: Edge[]): Edge[][] {
  const groupOf = new Map<string, Edge[]>();
  for (const e of links) {
    const a = groupOf.get(e.from);
    const b = groupOf.get(e.to);
    const merged = a && b && a !== b ? [...a, ...b] : (a ?? b ?? []);
    merged.push(e);
    for (const x of merged) {
      groupOf.set(x.from, merged);
      groupOf.set(x.to, merged);
    }
  }
  return [...new Set(groupOf.values())];
}
