/**
 * `npm run lab:report`: the lab's figures, generated rather than copied. Each table of
 * docs/lab.md is made here from the JSON of the lab command that measures it (run as
 * `node --import tsx lab/main.ts eval … --json` from the repository's root) and written between
 * its own markers, `<!-- lab:begin <id> -->` and `<!-- lab:end <id> -->`, with its data, its split
 * and the command that reruns it. Text outside the markers is left as it is.
 *
 *   npm run lab:report [-- --shared-data DIR] [--only id,id] [--list] [--out file]
 *
 * Tables on data inside the repository (data/, lab/data/) always run: offline, a few minutes on
 * two cores. Tables on LoCoMo, MT-Bench+ and memory-ops need the folder that holds them:
 * `--shared-data DIR` with DIR/locomo-dev/locomo-dev.json, DIR/mtbenchplus/mtbenchplus.json and
 * DIR/memory-ops/{train,links-train}.jsonl. Without it such a table says what it needs instead of
 * showing old figures. `--only` reruns some tables and keeps the others' blocks as they are.
 * The benchmarks (`npm run bench …`) print no JSON, so none of their figures are here.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CarecallReport, PairRecord } from "./eval/carecall/evaluate.js";
import type { TypingReport } from "./eval/creem/typing.js";
import type { CurrencyReport } from "./eval/currency/evaluate.js";
import type { EmmaRecord, EmmaReport } from "./eval/emma/evaluate.js";
import type { LinkAgreement } from "./eval/emma/links.js";
import type { LinksReport } from "./eval/links/evaluate.js";
import type { MtbenchReport } from "./eval/mtbench-plus/evaluate.js";
import type { TuneReport } from "./eval/mtbench-plus/tune.js";
import { CATEGORY_NAMES, categoryLabel, type RecallReport } from "./eval/recall/evaluate.js";
import type { RuleReport } from "./eval/rules/evaluate.js";
import type { SlipReport } from "./eval/spelling/evaluate.js";
import type { ConversationReport, DetectorReport, FalseAlarmReport } from "./eval/standing/evaluate.js";
import type { TeafarmReport } from "./eval/teafarm/teafarm.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Stands for the shared data folder in a command's arguments (and in the commands shown). */
const DIR = "DIR";

/** One lab command: the arguments after `eval`, as shown (the report adds `--json`). */
type Args = string[];

interface Section {
  id: string;
  title: string;
  /** What the table measures, in a sentence or two. */
  what: string;
  data: string;
  split: string;
  /** The files under the shared data folder the section needs; none for data in the repository. */
  needs?: string[];
  runs: Args[];
  /** Markdown lines from each run's JSON, in the order of `runs`. */
  render(results: unknown[]): string[];
}

// ---------------------------------------------------------------- formatting

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "–" : (100 * x).toFixed(1));
const f3 = (x: number | null | undefined) => (x === null || x === undefined ? "–" : x.toFixed(3));
const share = (n: number, of: number) => (of ? pct(n / of) : "–");

function table(head: string[], rows: (string | number)[][], left = 1): string[] {
  return [
    `| ${head.join(" | ")} |`,
    `| ${head.map((_, i) => (i < left ? "---" : "---:")).join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
}

/** How a command is shown: what a reader types to rerun it. */
function shown(args: Args): string {
  return `npm run lab -- eval ${args.map((a) => (/[\s"'$]/.test(a) ? JSON.stringify(a) : a)).join(" ")}`;
}

// ---------------------------------------------------------------- reading the reports

type Labelled = { part: string; folds: number | null; reports: CarecallReport[] };
type LinksRun = { part: string; folds: number | null; report: LinksReport };
type Choose = { chosen: number; tune: LinkAgreement; test: LinkAgreement; testAtGiven: LinkAgreement };
type Teafarm = { reports: Omit<TeafarmReport, "exam">[] };
type Mtbench = MtbenchReport & { tuned: TuneReport | null };

const carecall = (x: unknown) => (x as Labelled).reports;
const links = (x: unknown) => (x as LinksRun).report;

/** Pairs the operator changed (not APPEND), and the share of them whose gold label is a change too. */
function changes(records: PairRecord[]): { changed: number; goldChange: string } {
  const changed = records.filter((p) => p.predicted !== "APPEND");
  return {
    changed: changed.length,
    goldChange: share(changed.filter((p) => p.gold !== "APPEND").length, changed.length),
  };
}

function emmaShares(rs: EmmaRecord[]) {
  const n = rs.length;
  const hits = rs.filter((r) => r.hit1);
  return {
    n,
    hit1: share(hits.length, n),
    hit1Linked: share(rs.filter((r) => r.hit1Linked).length, n),
    hitK: share(rs.filter((r) => r.hitK).length, n),
    wrongPerson: share(rs.filter((r) => r.wrongPerson).length, n),
    misattributed: share(hits.filter((r) => r.misattributed).length, hits.length),
  };
}

function teafarmRows(result: unknown, variant: (strategy: string) => string): (string | number)[][] {
  return (result as Teafarm).reports.map((r) => {
    const stale = r.items.filter((x) => x.staleFirst !== null);
    return [
      `${r.strategy}${variant(r.strategy)}`,
      r.items.length,
      pct(r.correctRate),
      pct(r.groundedRate),
      share(stale.filter((x) => x.staleFirst).length, stale.length),
    ];
  });
}

function teafarmTable(results: unknown[]): string[] {
  const [main, candidates, query] = results;
  const rows = [
    ...teafarmRows(main, () => ""),
    ...teafarmRows(candidates, () => ", candidates all"),
    ...teafarmRows(query, () => ", query last-utterance"),
  ];
  const exams = new Set(results.flatMap((r) => (r as Teafarm).reports.map((x) => x.fingerprint)));
  const writers = new Set(results.flatMap((r) => (r as Teafarm).reports.map((x) => x.writer)));
  return [
    ...table(["strategy", "questions", "correct %", "grounded %", "stale first %"], rows),
    "",
    `Exam written by: ${[...writers].join(", ")}; ${exams.size === 1 ? "every row sat the same exam" : `${exams.size} different exams (the runs wrote different ones)`}.`,
  ];
}

function linkAgreementRow(name: string, r: LinkAgreement): (string | number)[] {
  return [name, r.pairs, r.threshold, pct(r.accuracy), pct(r.precision), pct(r.recall)];
}

const LINK_HEAD = ["judge", "pairs", "threshold", "accuracy", "precision", "recall"];

// ---------------------------------------------------------------- the tables

const MEMORY_OPS = `${DIR}/memory-ops/train.jsonl`;
const MEMORY_OPS_LINKS = `${DIR}/memory-ops/links-train.jsonl`;
const LOCOMO = `${DIR}/locomo-dev/locomo-dev.json`;
const MTBENCH = `${DIR}/mtbenchplus/mtbenchplus.json`;
const REAL = "lab/data/carecall/real-candidates";
const RECALL_DEV = "lab/data/recall-dev/conversations.json";
const RECALL_TEST = "lab/data/recall-test/conversations.json";

/**
 * Turn recall beside carecall's memory recall and the memories' reach, per category, on a set of
 * second-hand conversations.
 */
function secondHandRecall(o: {
  id: string;
  title: string;
  what: string;
  file: string;
  data: string;
  split: string;
}): Section {
  return {
    id: o.id,
    title: o.title,
    what: `The same two measures on \`${o.file.replace(/\/conversations\.json$/, "")}\`: ${o.what}. Raw turns through the hybrid, and carecall's memories as recall answers with them, each with the memories' reach: the share of a question's evidence that some current memory cites (or a past version too), the most any ranking of these memories can find. "+ 2 missed turns" is \`recall({ turns: 2 })\`: 8 memories, then up to 2 raw turns none of them was made from.`,
    data: o.data,
    split: o.split,
    runs: [
      ["recall", o.file, "--rankers", "hybrid"],
      [
        "recall",
        o.file,
        "--units",
        "memories",
        "--strategy",
        "carecall",
        "--rankers",
        "hybrid",
        "--turns",
        "2",
      ],
    ],
    render([t, m]) {
      const turns = t as RecallReport;
      const memories = m as RecallReport;
      const keys = [
        "all",
        ...Object.keys(turns.questionsByCategory)
          .filter((c) => c !== "all")
          .sort(),
      ];
      return table(
        [
          "category",
          "questions",
          "turns R@10",
          "carecall memories R@10",
          "+ 2 missed turns",
          "reach, current",
          "reach, with past",
        ],
        keys.map((c) => [
          categoryLabel(c),
          turns.questionsByCategory[c] ?? 0,
          f3(turns.recall.hybrid?.[c]?.[10]),
          f3(memories.recall.hybrid?.[c]?.[10]),
          f3(memories.recall["hybrid+2-turns"]?.[c]?.[10]),
          f3(memories.reach?.[c]?.current),
          f3(memories.reach?.[c]?.withPast),
        ]),
      );
    },
  };
}

const SECTIONS: Section[] = [
  {
    id: "carecall-memory-ops",
    title: "Pair operator and relation linker on memory-ops",
    what: "The offline carecall pair operator (PASS / REPLACE / APPEND / DELETE / FUSION for each memory and summary sentence) and the Theanine relation linker against labelled pairs: the hand-written rules alone, the shipped models cross-validated on the dev part, and the shipped models on the frozen part, which training never sees.",
    data: "memory-ops (`train.jsonl`: pairwise operations; `links-train.jsonl`: relations), the team's hand-written CC0 set",
    split:
      "dev and frozen parts, fixed by a hash of each id (one item in five of every style, and relation for links, is frozen); cross-validation: 5 folds of the dev part",
    needs: ["memory-ops/train.jsonl", "memory-ops/links-train.jsonl"],
    runs: [
      ["carecall", MEMORY_OPS, "--part", "dev", "--rules"],
      ["carecall", MEMORY_OPS, "--part", "dev", "--folds", "5"],
      ["carecall", MEMORY_OPS, "--part", "frozen"],
      ["links", MEMORY_OPS_LINKS, "--part", "dev", "--rules"],
      ["links", MEMORY_OPS_LINKS, "--part", "dev", "--folds", "5"],
      ["links", MEMORY_OPS_LINKS, "--part", "frozen"],
    ],
    render([rules, cv, frozen, lRules, lCv, lFrozen]) {
      const c = [carecall(rules), carecall(cv), carecall(frozen)];
      const l = [links(lRules), links(lCv), links(lFrozen)];
      const row = (name: string, get: (r: CarecallReport) => number | undefined) => [
        name,
        ...c.map((r) => pct(r[0] ? get(r[0]) : undefined)),
      ];
      return table(
        [
          "measure (offline)",
          "rules alone, dev part",
          "shipped, 5-fold CV, dev part",
          "shipped, frozen part",
        ],
        [
          row("pairwise accuracy, 4-class", (r) => r.pairwise?.accuracy4),
          row("accuracy incl. FUSION", (r) => r.pairwise?.accuracyAll),
          row("set F1, exact", (r) => r.setF1.exact),
          row("set F1, soft", (r) => r.setF1.soft),
          row("set F1, exact, accumulate baseline", (r) => r.baseline.setF1.exact),
          ["set F1, exact, no FUSION", ...c.map((r) => pct(r[1]?.setF1.exact))],
          ["links, exact relation", ...l.map((r) => pct(r.exact))],
          ["links, linked vs None", ...l.map((r) => pct(r.linkedVsNone))],
        ],
      );
    },
  },
  {
    id: "carecall-memory-ops-breakdown",
    title: "Pair operator by style and by label (memory-ops, cross-validated)",
    what: "The shipped offline operator's 5-fold cross-validated decisions on the dev part of memory-ops, by the style the sentences are written in and by gold label.",
    data: "memory-ops `train.jsonl` (CC0, the team's own)",
    split: "dev part, 5 folds",
    needs: ["memory-ops/train.jsonl"],
    runs: [["carecall", MEMORY_OPS, "--part", "dev", "--folds", "5"]],
    render([cv]) {
      const r = carecall(cv)[0];
      if (!r) return ["The command returned no report."];
      const styles = [...new Set(r.pairRecords.map((p) => p.style))].sort();
      const byStyle = styles.map((style) => {
        const four = r.pairRecords.filter((p) => p.style === style && p.gold !== "FUSION");
        return [style, four.length, share(four.filter((p) => p.gold === p.predicted).length, four.length)];
      });
      const labels = ["PASS", "REPLACE", "APPEND", "DELETE", "FUSION"];
      const byLabel = labels.map((label) => {
        const gold = r.pairRecords.filter((p) => p.gold === label);
        const said = r.pairRecords.filter((p) => p.predicted === label);
        const hit = gold.filter((p) => p.predicted === label).length;
        return [label, gold.length, share(hit, gold.length), share(hit, said.length)];
      });
      return [
        ...table(["style", "pairs (4-class)", "accuracy, 4-class"], byStyle),
        "",
        ...table(["gold label", "pairs", "recall", "precision"], byLabel),
      ];
    },
  },
  {
    id: "carecall-real",
    title: "Pair operator on real candidates",
    what: "The shipped offline operator on the pairs it met while ingesting the currency conversations, labelled by annotators who did not write the engine. Most pairs there are APPEND, so the table also counts the pairs the operator changed (anything but APPEND) and how many of those the annotators call a change too.",
    data: "`lab/data/carecall/real-candidates/` (1,897 pairs from `lab/data/currency`, CC0)",
    split: "tune half `tune.jsonl` (conversations c01–c07), test half `test.jsonl` (c08–c14)",
    runs: [
      ["carecall", `${REAL}/tune.jsonl`],
      ["carecall", `${REAL}/test.jsonl`],
    ],
    render(results) {
      const rows = results.map((x, i) => {
        const r = carecall(x)[0];
        if (!r) return [i ? "test" : "tune", "–", "–", "–", "–", "–"];
        const ch = changes(r.pairRecords);
        return [
          i ? "test" : "tune",
          r.pairwise?.pairs ?? 0,
          pct(r.pairwise?.accuracy4),
          `${pct(r.setF1.exact)} (accumulate ${pct(r.baseline.setF1.exact)})`,
          ch.changed,
          ch.goldChange,
        ];
      });
      return table(
        [
          "half",
          "pairs",
          "accuracy, 4-class",
          "set F1, exact",
          "changes made",
          "of them, gold is a change %",
        ],
        rows,
      );
    },
  },
  {
    id: "carecall-dev-sets",
    title: "Pair operator and linker on our small dev sets",
    what: "The hand-written rules' thresholds were tuned on these two small sets, so these are dev scores, not held-out results; the relation linker's trained model never saw the links set.",
    data: "`lab/data/carecall/dev.jsonl` (25 episodes, 50 pairs) and `lab/data/theanine/links-dev.jsonl` (35 pairs), written by the team",
    split: "all of each file",
    runs: [
      ["carecall", "lab/data/carecall/dev.jsonl", "--rules"],
      ["carecall", "lab/data/carecall/dev.jsonl"],
      ["links", "lab/data/theanine/links-dev.jsonl", "--rules"],
      ["links", "lab/data/theanine/links-dev.jsonl"],
    ],
    render([cRules, cShip, lRules, lShip]) {
      const c = (x: unknown) => carecall(x)[0];
      return table(
        ["measure", "rules alone", "shipped (rules and trained models)"],
        [
          [
            "carecall dev: pairwise accuracy, 4-class",
            pct(c(cRules)?.pairwise?.accuracy4),
            pct(c(cShip)?.pairwise?.accuracy4),
          ],
          ["carecall dev: set F1, exact", pct(c(cRules)?.setF1.exact), pct(c(cShip)?.setF1.exact)],
          ["links dev: exact relation", pct(links(lRules).exact), pct(links(lShip).exact)],
          ["links dev: linked vs None", pct(links(lRules).linkedVsNone), pct(links(lShip).linkedVsNone)],
        ],
      );
    },
  },
  {
    id: "currency",
    title: "Currency: current, stable and past facts",
    what: "Does memory stay current without losing the past? Every strategy (none = raw turns) ingests each conversation; each question is recalled top 3 about the partner, with its `asked_at` as the present. A hit is a gold turn in the top 3 (a memory counts through its source turns); stale first is a current question whose first hit rests on an outdated statement (lower is better).",
    data: "`lab/data/currency/` (14 conversations, 184 questions, CC0, written by a separate writer)",
    split: "tune half c01–c07, held-out half c08–c14",
    runs: [["currency", "lab/data/currency"]],
    render([x]) {
      const r = x as CurrencyReport;
      const out: string[] = [];
      for (const split of ["test", "tune"] as const) {
        const n = r.rows[0]?.cells[split];
        if (!n) continue;
        out.push(
          `${split === "test" ? "Held-out" : "Tune"} half (${n.all.questions} questions: ${n.current.questions} current, ${n.stable.questions} stable, ${n.past.questions} past), %:`,
          "",
          ...table(
            [
              "strategy",
              "ranks",
              "current: hit",
              "current: stale first",
              "stable: hit",
              "past: hit",
              "all: hit",
            ],
            r.rows.map((row) => {
              const c = row.cells[split];
              return [
                row.strategy,
                row.units,
                share(c.current.hits, c.current.questions),
                share(c.current.staleFirst, c.current.questions),
                share(c.stable.hits, c.stable.questions),
                share(c.past.hits, c.past.questions),
                share(c.all.hits, c.all.questions),
              ];
            }),
            2,
          ),
          "",
        );
      }
      return out.slice(0, -1);
    },
  },
  {
    id: "rules",
    title: "The obvious rules: a fact said twice, an addition, a change, a stop",
    what: "What a new user checks first, offline: a fact said again stays one memory; an addition keeps what was there; a change retires the old state and keeps the new; a stop retires the habit and keeps the stop; memories are facts, not talk. Each case is two or three short sessions ingested into a fresh engine; it is kept when every check on the memories afterwards holds (matchers on active, retired and absent memories). The last line counts active memories that still carry talk (a bare pronoun as subject, a greeting, the agent's name).",
    data: "`lab/data/rules/` (128 cases in six styles, CC0, written by a helper session that had not seen the engine's code)",
    split:
      "tune and held-out halves, fixed by the SHA-1 of each case id; the rules were first tuned on the tune half only, and since on all of it (the held-out half was spent)",
    runs: [["rules", "lab/data/rules"]],
    render: ([x]) => rulesTables(x as RuleReport),
  },
  {
    id: "rules-b",
    title: "The obvious rules, a second set by another hand",
    what: "The same measure as the first rules set, on 96 new cases (24 per class, 4 per style) written later by another helper session that had not seen the engine's code, so that its held-out half tests rules tuned on other cases; no clean class.",
    data: "`lab/data/rules-b/` (96 cases in six styles, CC0)",
    split:
      "tune and held-out halves, fixed by the SHA-1 of each case id; tuned first on the tune half, since on all of it (the held-out half was spent)",
    runs: [["rules", "lab/data/rules-b"]],
    render: ([x]) => rulesTables(x as RuleReport),
  },
  {
    id: "rules-c",
    title: "The obvious rules, a third set by another hand",
    what: "The same measure on 96 more cases written by a third helper session that had not seen the engine's code. It was measured held out (before and after the first changes of the session that added it), then its failures were read and the rules tuned on it: its figures are tune figures now.",
    data: "`lab/data/rules-c/` (96 cases in six styles, CC0)",
    split: "tune and held-out halves by the SHA-1 of each case id; all of it has been tuned on since",
    runs: [["rules", "lab/data/rules-c"]],
    render: ([x]) => rulesTables(x as RuleReport, true, "All cases, tuned on since their first measure"),
  },
  {
    id: "rules-d",
    title: "The obvious rules, a fourth set by another hand",
    what: "The same measure on 96 cases written by a fourth helper session that had not seen the engine's code. It was held out whole for one session (carecall 78, creem 81 of 96 at its end); in the next its failures were read and the rules tuned on it: its figures are tune figures now.",
    data: "`lab/data/rules-d/` (96 cases in six styles, CC0)",
    split: "none: all of it has been tuned on since its held-out measure",
    runs: [["rules", "lab/data/rules-d"]],
    render: ([x]) => rulesTables(x as RuleReport, true, "All cases, tuned on since their held-out measure"),
  },
  {
    id: "rules-e",
    title: "The obvious rules, a fifth set by another hand",
    what: "The same measure on 96 cases written by a fifth helper session that had not seen the engine's code, asked for a wide spread of ways to say each thing (implicit changes, new states named only in a later session). Held out for one session (carecall 64 then 68, creem 67 then 70 of 96), then its change failures were read: its figures are tune figures now.",
    data: "`lab/data/rules-e/` (96 cases in six styles, CC0)",
    split: "none: read since its held-out measure",
    runs: [["rules", "lab/data/rules-e"]],
    render: ([x]) => rulesTables(x as RuleReport, true, "All cases, read since their held-out measure"),
  },
  {
    id: "rules-g",
    title: "The obvious rules, a seventh set by another hand",
    what: "The same measure on 96 cases written by a seventh helper session that had not seen the engine's code. Held out whole for one session (carecall 63 then 66, creem 66 then 68 of 96); in the next its failures were read and the rules tuned on it: its figures are tune figures now.",
    data: "`lab/data/rules-g/` (96 cases in six styles, CC0)",
    split: "none: read since its held-out measure",
    runs: [["rules", "lab/data/rules-g"]],
    render: ([x]) => rulesTables(x as RuleReport, true, "All cases, read since their held-out measure"),
  },
  {
    id: "rules-h",
    title: "The obvious rules, an eighth set by another hand",
    what: "The same measure on 96 cases written by an eighth helper session that had not seen the engine's code. Held out for part of one session: carecall 77 and creem 66 of 96 before the session's changes, 77 and 65 after the changes tuned on rules-g and rules-e. Then its failures were read and the rules tuned on it: its figures are tune figures now.",
    data: "`lab/data/rules-h/` (96 cases in six styles, CC0)",
    split: "none: read since its held-out measure",
    runs: [["rules", "lab/data/rules-h"]],
    render: ([x]) => rulesTables(x as RuleReport, true, "All cases, read since their held-out measure"),
  },
  {
    id: "rules-i",
    title: "The obvious rules, a ninth set held out whole",
    what: "The same measure on 96 cases written by a ninth helper session that had not seen the engine's code, after the rules were tuned on the eight sets before it. No case of it was read to change the engine: all 96 are held out. Measured before that session's changes too (commit 10dae26), it gave the same totals: carecall 69 (18, 20, 12, 19 by class), creem 67 (16, 21, 12, 18).",
    data: "`lab/data/rules-i/` (96 cases in six styles, CC0)",
    split: "none: every case is held out",
    runs: [["rules", "lab/data/rules-i"]],
    render: ([x]) => rulesTables(x as RuleReport, true),
  },
  {
    id: "rules-f",
    title: "The obvious rules, a sixth set of changes, tuned on",
    what: "The same measure on 96 cases, half of them changes (48 changes, 18 additions, 18 stops, 12 facts said again), written by a sixth helper session that had not seen the engine's code and was asked for the many ways people tell that something changed. It was written to be tuned on: its failures were read from the first run, so its figures are tune figures.",
    data: "`lab/data/rules-f/` (96 cases in six styles, CC0)",
    split: "none: all of it is tune data",
    runs: [["rules", "lab/data/rules-f"]],
    render: ([x]) => rulesTables(x as RuleReport, true, "All cases, tuned on"),
  },
  {
    id: "spelling",
    title: "Typed slips read as the words meant",
    what: "The offline summarizer reads each message as it reads a turn (contractions written out, then slips) and its words are set beside the message with only its slips put right: slips repaired, repaired wrong, and right words harmed. A slip that makes another real word ('form' for 'from') cannot be seen word by word; those rows show what is left for a model.",
    data: "`lab/data/typos/` (160 chat messages in five slip styles and a clean one, CC0, written by a helper session that had not seen the engine's code)",
    split: "tune and held-out halves by the SHA-1 of each id, as the rules set",
    runs: [["spelling", "lab/data/typos"]],
    render([x]) {
      const r = x as SlipReport;
      const out: string[] = [];
      for (const half of ["test", "tune"] as const) {
        const rows = r.halves[half];
        if (!rows.all) continue;
        out.push(
          `${half === "test" ? "Held-out" : "Tune"} half (${rows.all.messages} messages):`,
          "",
          ...table(
            ["style", "messages", "slips", "repaired", "repaired wrong", "right words harmed"],
            Object.entries(rows).map(([style, t]) => [
              style,
              String(t.messages),
              String(t.slips),
              String(t.repaired),
              String(t.wrong),
              `${t.harmed} of ${t.words - t.slips}`,
            ]),
            1,
          ),
          "",
        );
      }
      return out.slice(0, -1);
    },
  },
  {
    id: "mtbench-plus",
    title: "MT-Bench+: long-range topics recalled",
    what: "Each conversation is played into a fresh engine per strategy (the strategy writes every agent turn), then its final long-range question is recalled and scored without any model: turn recall and precision against the turns of the named topics, option F1 against the memories drawn from them, and none right (recall chose nothing for a new topic's first question, the right answer). memochat's offline cut, threshold and gate are chosen on the tune half first (`--tune`). The second table counts model calls and tokens per partner turn with the LLM engine on the scripted test model (its replies are two letters long: prompt sizes are a floor).",
    data: "MT-Bench+ (from MemoChat, MIT): `mtbenchplus.json`, 54 conversations, 18 each of retrospection, continuation and conjunction",
    split: "test half (27), fixed by the FNV-1a hash of each id within its type; tuning on the other 27",
    needs: ["mtbenchplus/mtbenchplus.json"],
    runs: [
      ["mtbench-plus", MTBENCH, "--tune", "--split", "test"],
      ["mtbench-plus", MTBENCH, "--engine", "scripted", "--split", "test"],
    ],
    render([x, y]) {
      const r = x as Mtbench;
      const s = y as Mtbench;
      const out: string[] = [];
      if (r.tuned) {
        const t = r.tuned;
        out.push(
          `Tuning half (${t.conversations.length} conversations, ${t.openings} new-topic questions): the best chooser at each cut; objective = mean of the final questions' option F1 and none right.`,
          "",
          ...table(
            ["cut", "entries a conversation", "threshold", "gate", "objective", "option F1", "none right"],
            t.byCut.map((p) => [
              p.cut,
              p.entries.toFixed(1),
              p.threshold,
              p.gate,
              f3(p.objective),
              f3(p.optionF1),
              f3(p.noneRight),
            ]),
            0,
          ),
          "",
          `Chosen: cut ${t.best.cut}, threshold ${t.best.threshold}, gate ${t.best.gate}.`,
          "",
        );
      }
      const rows: (string | number)[][] = [];
      for (const row of r.rows)
        for (const g of ["retrospection", "continuation", "conjunction", "all"] as const) {
          const c = row.cells.test[g];
          if (!c.questions) continue;
          rows.push([
            row.strategy,
            g,
            c.questions,
            f3(c.turnRecall),
            f3(c.partnerRecall),
            f3(c.turnPrecision),
            f3(c.optionF1),
            c.noneRight === null ? "–" : `${f3(c.noneRight)} of ${c.openings}`,
          ]);
        }
      out.push(
        "Test half, offline:",
        "",
        ...table(
          [
            "strategy",
            "type",
            "questions",
            "turn recall",
            "partner-turn recall",
            "turn precision",
            "option F1",
            "none right",
          ],
          rows,
          2,
        ),
        "",
        "Calls per partner turn with the LLM engine, scripted model, test half:",
        "",
        ...table(
          ["strategy", "calls", "writing", "retrieval", "reply", "prompt tokens", "completion tokens"],
          s.rows.map((row) => [
            row.strategy,
            row.perTurn.calls.toFixed(2),
            row.perTurn.byPart.writing.calls.toFixed(2),
            row.perTurn.byPart.retrieval.calls.toFixed(2),
            row.perTurn.byPart.reply.calls.toFixed(2),
            row.perTurn.promptTokens.toFixed(0),
            row.perTurn.completionTokens.toFixed(0),
          ]),
        ),
      );
      return out;
    },
  },
  {
    id: "teafarm-demo",
    title: "TeaFarm on the demo conversation",
    what: "Theanine's counterfactual QA: one exam written from the sessions themselves (never from a strategy's memory), each question asked in a new session a week later after a lead-in; correct = the reply avoided the false premise, grounded = recall held a turn of the true fact, stale first = the first hit rests on the outdated state. Without a chat model an offline writer and judge run: heuristics, good for comparing strategies on one exam, not for absolute figures. `gold` hands the reply only the exam's gold memory.",
    data: "`data/demo-conversation.json` (four sessions we wrote)",
    split: "the one conversation (no tuning happens here)",
    runs: [
      [
        "teafarm",
        "data/demo-conversation.json",
        "--questions",
        "10",
        "--strategies",
        "none,history,accumulate,carecall,theanine,creem,gold",
      ],
      [
        "teafarm",
        "data/demo-conversation.json",
        "--questions",
        "10",
        "--strategies",
        "carecall",
        "--carecall-candidates",
        "all",
      ],
      [
        "teafarm",
        "data/demo-conversation.json",
        "--questions",
        "10",
        "--strategies",
        "theanine",
        "--theanine-query",
        "last-utterance",
      ],
    ],
    render: teafarmTable,
  },
  {
    id: "teafarm-locomo",
    title: "TeaFarm on LoCoMo conv-30",
    what: "The same exam and strategies as on the demo conversation, on a real long conversation; the offline writer mostly pairs restatements there, not changes.",
    data: "LoCoMo (CC BY-NC 4.0): `locomo-dev.json`, its conversation 1 (conv-30)",
    split: "one conversation of the dev file",
    needs: ["locomo-dev/locomo-dev.json"],
    runs: [
      [
        "teafarm",
        LOCOMO,
        "--conversation",
        "1",
        "--questions",
        "10",
        "--strategies",
        "none,history,accumulate,carecall,theanine,creem,gold",
      ],
      [
        "teafarm",
        LOCOMO,
        "--conversation",
        "1",
        "--questions",
        "10",
        "--strategies",
        "carecall",
        "--carecall-candidates",
        "all",
      ],
      [
        "teafarm",
        LOCOMO,
        "--conversation",
        "1",
        "--questions",
        "10",
        "--strategies",
        "theanine",
        "--theanine-query",
        "last-utterance",
      ],
    ],
    render: teafarmTable,
  },
  {
    id: "recall-turns",
    title: "Turn recall on LoCoMo",
    what: "Retrieval over raw turns: each conversation is ingested, every question of categories 1–4 is asked, and recall@k is the share of its evidence turns among the top k. BM25 alone, the bundled encoder alone, plain reciprocal rank fusion, and memlane's hybrid; then the hybrid without each of its signals.",
    data: "LoCoMo (CC BY-NC 4.0): `locomo-dev.json`, conversations conv-26, conv-30 and conv-41",
    split: "dev: the hybrid's weights were chosen on these conversations, so these are dev figures",
    needs: ["locomo-dev/locomo-dev.json"],
    runs: [["recall", LOCOMO, "--ablations"]],
    render([x]) {
      const r = x as RecallReport;
      const base = r.rankers.filter((n) => !n.startsWith("hybrid-no-"));
      const ablated = r.rankers.filter((n) => n.startsWith("hybrid-no-"));
      const cats = Object.keys(r.questionsByCategory).sort();
      return [
        `${r.questions} questions; evidence ids: ${r.evidence.total}, malformed ${r.evidence.malformed}, dangling ${r.evidence.dangling}.`,
        "",
        ...table(
          ["ranker", ...r.ks.map((k) => `R@${k}`)],
          base.map((n) => [n, ...r.ks.map((k) => f3(r.recall[n]?.all?.[k]))]),
        ),
        "",
        "R@10 by category:",
        "",
        ...table(
          ["category", "questions", ...base],
          cats.map((c) => [
            `${c} ${CATEGORY_NAMES[Number(c)] ?? ""}`.trim(),
            r.questionsByCategory[c] ?? 0,
            ...base.map((n) => f3(r.recall[n]?.[c]?.[10])),
          ]),
        ),
        "",
        "Questions with two or more evidence turns, at k 10: every piece found / some found, %:",
        "",
        ...table(
          ["category", "questions", ...base],
          ["all", ...cats.filter((c) => c !== "all")]
            .filter((c) => r.coverage?.hybrid?.[c]?.[10])
            .map((c) => [
              categoryLabel(c),
              r.coverage.hybrid![c]![10]!.questions,
              ...base.map((n) => {
                const x = r.coverage[n]?.[c]?.[10];
                return x
                  ? `${((100 * x.all) / x.questions).toFixed(1)} / ${((100 * x.some) / x.questions).toFixed(1)}`
                  : "–";
              }),
            ]),
        ),
        "",
        "The hybrid without one signal:",
        "",
        ...table(
          ["hybrid", "all signals", ...ablated.map((n) => n.replace("hybrid-no-", "no "))],
          [10, 25].map((k) => [
            `R@${k}`,
            f3(r.recall.hybrid?.all?.[k]),
            ...ablated.map((n) => f3(r.recall[n]?.all?.[k])),
          ]),
        ),
      ];
    },
  },
  {
    id: "recall-memories",
    title: "Memory recall on LoCoMo",
    what: "The same questions against a strategy's memories, written offline, each scored through its source turns; memory recall is capped by what the summaries keep. `hybrid` answers as recall does: a question about history or about an event also looks at past versions (docs/recall.md#questions-about-the-past), and the k are picked to cover the most evidence turns among the best k × 1.5 (docs/recall.md#evidence-cover); `hybrid-no-cover` is the fusion's plain top k over current memories.",
    data: "LoCoMo (CC BY-NC 4.0): `locomo-dev.json`",
    split: "dev (as above)",
    needs: ["locomo-dev/locomo-dev.json"],
    runs: [
      ["recall", LOCOMO, "--units", "memories", "--strategy", "carecall", "--ablations", "cover"],
      ["recall", LOCOMO, "--units", "memories", "--strategy", "theanine"],
    ],
    render(results) {
      const rows: string[][] = [];
      for (const [i, x] of results.entries()) {
        const r = x as RecallReport;
        const strategy = i ? "theanine" : "carecall";
        for (const n of r.rankers) rows.push([strategy, n, ...r.ks.map((k) => f3(r.recall[n]?.all?.[k]))]);
      }
      const ks = (results[0] as RecallReport).ks;
      const reach = results.map((x, i) => {
        const r = (x as RecallReport).reach?.all;
        return `${i ? "theanine" : "carecall"} ${f3(r?.current)} (${f3(r?.withPast)} with past versions)`;
      });
      return [
        ...table(["strategy", "ranker", ...ks.map((k) => `R@${k}`)], rows, 2),
        "",
        `Reach, the share of a question's evidence that some memory cites (the most any ranking of these memories can find; the rest was lost when they were written): ${reach.join("; ")}.`,
      ];
    },
  },
  secondHandRecall({
    id: "recall-second-hand",
    title: "Recall on the second hand's conversations",
    what: "four LoCoMo-format conversations written by a second hand who never saw LoCoMo or our data, with turn-level evidence",
    file: RECALL_DEV,
    data: "`lab/data/recall-dev/conversations.json` (CC0), 141 questions",
    split:
      "held out for the hybrid's weights (chosen on LoCoMo dev); dev for the choices made leave-one-conversation-out over the seven dev conversations (the event reading's share, docs/recall.md)",
  }),
  secondHandRecall({
    id: "recall-test",
    title: "Recall on conversations held out from every choice",
    what: "six LoCoMo-format conversations with turn-level evidence, written by three more second-hand writers who saw neither LoCoMo nor recall-dev. No recall choice was made on them",
    file: RECALL_TEST,
    data: "`lab/data/recall-test/conversations.json` (CC0), 210 questions",
    split: "test: held out from every recall weight, threshold and reading",
  }),
  {
    id: "emma",
    title: "EMMA: mixed sessions",
    what: "Each episode is ingested with each strategy in its own store; each question is asked by one partner about what another said, or about how something developed across sessions. A hit is a recalled memory made from a gold turn. hit@1 + links is EMMA's top memory with the memories linked to it (what the reply sees); wrong person: the top memory is about someone other than the person the answer concerns; misattributed: a hit whose memory names the wrong subject (share of hit@1).",
    data: "`lab/data/emma/episodes.json` (12 episodes we wrote, CC0: one agent, 6 sessions, 3 partners each, 60 questions)",
    split: "by a hash of each episode id: tune e01 e03 e04 e09 e10 (25 questions), test the other 7 (35)",
    runs: [["emma"]],
    render([x]) {
      const r = x as EmmaReport;
      const strategies = Object.keys(r.memories);
      const out: string[] = [];
      for (const part of ["test", "tune"] as const) {
        const rs = r.records.filter((q) => q.part === part);
        if (!rs.length) continue;
        out.push(
          `${part === "test" ? "Test" : "Tune"} part (${rs.length / strategies.length} questions), %:`,
          "",
          ...table(
            [
              "strategy",
              "hit@1",
              "hit@1 + links",
              `hit@${r.k}`,
              "wrong person (top 1)",
              "misattributed hits",
            ],
            strategies.map((s) => {
              const x = emmaShares(rs.filter((q) => q.strategy === s));
              return [s, x.hit1, s === "emma" ? x.hit1Linked : "–", x.hitK, x.wrongPerson, x.misattributed];
            }),
          ),
          "",
        );
      }
      const test = r.records.filter((q) => q.part === "test");
      out.push(
        "Test part by kind of question (hit@1 / hit@1 + links / hit@k):",
        "",
        ...table(
          ["strategy", "cross-partner", "development"],
          strategies.map((s) => [
            s,
            ...(["cross-partner", "development"] as const).map((kind) => {
              const x = emmaShares(test.filter((q) => q.strategy === s && q.kind === kind));
              return `${x.hit1} / ${s === "emma" ? x.hit1Linked : "–"} / ${x.hitK} (${x.n})`;
            }),
          ]),
        ),
        "",
        ...table(
          ["memories written (all episodes)", "total", "about the agent", "about partners", "links"],
          strategies.map((s) => {
            const m = r.memories[s]!;
            return [s, m.total, m.aboutAgent, m.aboutPartners, m.links];
          }),
        ),
      );
      return out;
    },
  },
  {
    id: "emma-choices",
    title: "EMMA: hops and link judge",
    what: "The choices behind emma's defaults, on its own strategy only: link hops added around the top memory (0, 1 = default, 2) and the offline link judge (cosine of gists = default, or the learned Theanine linker). The defaults were chosen on the tune part before the test part was read.",
    data: "`lab/data/emma/episodes.json`",
    split: "tune and test parts, as above",
    runs: [
      ["emma", "--strategies", "emma", "--hops", "0"],
      ["emma", "--strategies", "emma"],
      ["emma", "--strategies", "emma", "--hops", "2"],
      ["emma", "--strategies", "emma", "--judge", "learned"],
    ],
    render(results) {
      const names = ["hops 0", "hops 1, cosine judge (default)", "hops 2", "judge learned"];
      return table(
        ["emma", "tune: hit@1 + links", "test: hit@1", "test: hit@1 + links", "links written"],
        results.map((x, i) => {
          const r = x as EmmaReport;
          const part = (p: string) =>
            emmaShares(r.records.filter((q) => q.part === p && q.strategy === "emma"));
          return [
            names[i] ?? "",
            part("tune").hit1Linked,
            part("test").hit1,
            part("test").hit1Linked,
            r.memories.emma?.links ?? "–",
          ];
        }),
      );
    },
  },
  {
    id: "emma-cost",
    title: "EMMA: model calls with the LLM engine",
    what: "The LLM engine's path run on the scripted test model (it turns each line into a memory, so its hit rates say nothing of quality): model calls and tokens for all 12 episodes; tokens as the test double counts them, about four characters a token.",
    data: "`lab/data/emma/episodes.json`",
    split: "all 12 episodes (72 sessions)",
    runs: [["emma", "--engine", "scripted"]],
    render([x]) {
      const r = x as EmmaReport;
      return table(
        ["strategy", "sessions", "calls", "calls a session", "prompt tokens", "completion tokens"],
        Object.entries(r.cost).map(([s, c]) => [
          s,
          c.sessions,
          c.usage.calls,
          (c.usage.calls / Math.max(1, c.sessions)).toFixed(1),
          c.usage.promptTokens,
          c.usage.completionTokens,
        ]),
      );
    },
  },
  {
    id: "emma-links",
    title: "EMMA: related-or-not link judgement",
    what: "The offline judgement of whether two egocentric memories are related, against labelled pairs: accuracy, and precision and recall of 'related'. The last row chooses the cosine judge's threshold on the tune pairs (`--choose`) and reports the test pairs at it.",
    data: "`lab/data/emma/links.jsonl` (72 pairs we wrote, 45 related)",
    split: "tune (24 pairs) and test (48), by the same hash as the episodes; the rows below are test",
    runs: [
      ["emma-links", "--part", "test", "--judge", "cosine"],
      ["emma-links", "--part", "test", "--judge", "learned"],
      ["emma-links", "--part", "test", "--judge", "rules"],
      ["emma-links", "--choose"],
    ],
    render([cos, learned, rules, choose]) {
      const c = choose as Choose;
      return table(LINK_HEAD, [
        linkAgreementRow("cosine (default)", cos as LinkAgreement),
        linkAgreementRow("learned", learned as LinkAgreement),
        linkAgreementRow("rules", rules as LinkAgreement),
        linkAgreementRow(`cosine, threshold chosen on tune (tune accuracy ${pct(c.tune.accuracy)})`, c.test),
      ]);
    },
  },
  {
    id: "emma-links-memory-ops",
    title: "EMMA's link judgement on memory-ops",
    what: "The same judges on memory-ops' relation pairs (any relation counts as related). Its dev part cannot choose anything: the shipped linker was trained there.",
    data: "memory-ops `links-train.jsonl` (CC0, the team's own)",
    split: "frozen part",
    needs: ["memory-ops/links-train.jsonl"],
    runs: ["cosine", "learned", "rules"].map((judge) => [
      "emma-links",
      MEMORY_OPS_LINKS,
      "--source",
      "memory-ops",
      "--part",
      "frozen",
      "--judge",
      judge,
    ]),
    render(results) {
      return table(
        LINK_HEAD,
        results.map((x, i) => linkAgreementRow(["cosine", "learned", "rules"][i] ?? "", x as LinkAgreement)),
      );
    },
  },
  {
    id: "standing",
    title: "Standing instructions and preferences",
    what: "Does a later request get the instruction or preference a person gave once for every later answer? Each probe is asked where the data puts it (mostly the session the instruction was given in) and again at the start of the next session; served: the version in force is shown to the reply; stale: a replaced version is shown as holding. Then the detector by cross-validation, and false alarms on talk with no instructions.",
    data: "`lab/data/standing-dev` (6 conversations, 53 probes, 360 labelled utterances, by a separate writer, CC0); recall-dev's turns as none in training; LoCoMo dev for false alarms (never trained on)",
    split:
      "conversations by position: 1st, 3rd, 5th tune the matching and the threshold, the others are reported; the detector by 5-fold cross-validation over the utterances",
    needs: ["locomo-dev/locomo-dev.json"],
    runs: [
      ["standing", "--part", "report", "--chat", LOCOMO],
      ["standing", "--part", "tune", "--chat", LOCOMO],
    ],
    render(results) {
      const runs = results as {
        detectors: DetectorReport[];
        conversations: ConversationReport;
        falseAlarms: FalseAlarmReport | null;
      }[];
      const rows: (string | number)[][] = [];
      for (const [i, r] of runs.entries())
        for (const [placement, byCondition] of Object.entries(r.conversations.conditions))
          for (const [name, c] of Object.entries(byCondition))
            rows.push([
              i ? "tune" : "report",
              placement,
              name,
              c.probes,
              share(c.served, c.probes),
              c.withSuperseded ? `${c.stale} of ${c.withSuperseded}` : "–",
            ]);
      const detector = runs[0]!.detectors.map((d) => [
        d.embedder ?? "parse features only",
        d.threshold,
        ...["instruction", "preference", "revoke", "none"].map((l) => pct(d.perLabel[l]?.f1)),
        pct(d.falseAlarmsByStyle.chat?.rate),
      ]);
      const fa = runs[0]!.falseAlarms;
      return [
        ...table(["conversations", "asked", "the reply is shown", "asks", "served %", "stale"], rows, 3),
        "",
        ...table(
          [
            "detector",
            "threshold",
            "instruction F1",
            "preference F1",
            "revoke F1",
            "none F1",
            "chat read as standing %",
          ],
          detector,
        ),
        ...(fa
          ? [
              "",
              `False alarms on LoCoMo dev (${fa.partnerTurns} partner turns, no standing instructions): ${fa.itemsRead} items read, ${fa.inForceAtEnd} in force at the end of its ${fa.conversations} conversations.`,
            ]
          : []),
      ];
    },
  },
  {
    id: "creem-typing",
    title: "CREEM: typing insights New / Redundant / Updated",
    what: "The offline Blend & Refine typing against labelled lines: type accuracy, and exact (type and the retired memories both right).",
    data: "`lab/data/creem/typing.jsonl` (170 lines by a separate writer, CC0)",
    split: "odd ids tune, even ids test",
    runs: [["creem-typing"]],
    render([x]) {
      const r = x as TypingReport;
      const rows: (string | number)[][] = [];
      for (const split of ["test", "tune"]) {
        const s = r.splits[split];
        if (!s) continue;
        rows.push([split, "all", s.all.n, share(s.all.type, s.all.n), share(s.all.exact, s.all.n)]);
        for (const [name, t] of [...Object.entries(s.byType), ...Object.entries(s.byStyle).sort()])
          rows.push([split, name, t.n, share(t.type, t.n), share(t.exact, t.n)]);
      }
      return table(["split", "group", "lines", "type accuracy %", "exact %"], rows, 2);
    },
  },
];

const BENCHMARKS = [
  "`npm run bench ingest [file] [--strategy S] [--embedder use|hash]`: ingest rate, start-up, database size, peak memory",
  "`npm run bench live [--parts loop,session,scopes,stalls,ingest] [--sizes 1000,10000,100000] [--strategy creem] [--embedders hash,use] [--words flat,zipf] [--stores sqlite,pglite]`: an agent living with memlane: a turn and a recall against a recall alone, the cold load, a thousand scopes in one process, event-loop stalls, ingest rates",
  "`npm run bench llm-cost [file] [--strategy S] [--context tokens]`: model calls and tokens per session with the LLM engine (scripted model), and the largest prompt sent; `--context` sizes prompts to that window",
  "`npm run bench model-behaviour [--strategies S,…] [--families F,…] [--schema ignore|honour|reject] [--parts families,schema]`: every strategy against a loopback model that slips (fenced, chatty, wrong keys, cut short, refusals, empty, 429/500, drips, hangs): replies returned, sessions landed, calls and retries per family; then the retries JSON-schema output saves",
  "`npm run bench timelines [file]`: theanine offline on LoCoMo, links by relation and timeline lengths",
  "`npm run bench recall [--sizes 1000,10000,100000] [--units memories,turns] [--skip-ingest]`: recall latency and memory at scale",
  "`npm run bench postgres [--sizes …] [--stores sqlite,postgres,pglite] [--workers 1,2] [--parts analyze]`: recall on SQLite, Postgres and PGlite, then ingest through the Postgres queue with one and two workers; PGlite's statistics pass and its longest event-loop delay",
  "`npm run bench serve [--clients 50] [--seconds 20]`: load test of `memlane serve`",
];

// ---------------------------------------------------------------- running

interface RunResult {
  ok: boolean;
  value?: unknown;
  error?: string;
  ms: number;
}

function sh(cmd: string, args: string[]): Promise<string> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("close", () => done(out.trim()));
    child.on("error", () => done(""));
  });
}

async function runLab(args: Args, shared: string | null, charts: string): Promise<RunResult> {
  const started = Date.now();
  const real = args.map((a) =>
    a.startsWith(`${DIR}/`) && shared ? join(shared, a.slice(DIR.length + 1)) : a,
  );
  const extra = ["recall", "mtbench-plus"].includes(args[0] ?? "")
    ? [
        "--chart",
        join(
          charts,
          `${args
            .join("-")
            .replace(/[^\w.-]+/g, "_")
            .slice(0, 80)}.svg`,
        ),
      ]
    : [];
  process.stderr.write(`lab:report: ${shown(args)}\n`);
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "lab/main.ts", "eval", ...real, ...extra, "--json"],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
    );
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.on("close", (code) => {
      const ms = Date.now() - started;
      if (code !== 0) {
        const last = err.trim().split("\n").filter(Boolean).at(-1) ?? "";
        return done({ ok: false, error: `exit ${code}${last ? `: ${last.slice(0, 300)}` : ""}`, ms });
      }
      try {
        done({ ok: true, value: JSON.parse(Buffer.concat(out).toString()), ms });
      } catch (error) {
        done({ ok: false, error: `its output is not JSON (${(error as Error).message})`, ms });
      }
    });
  });
}

function header(s: Section): string[] {
  return [
    `### ${s.title}`,
    "",
    s.what,
    "",
    `- **Data:** ${s.data}`,
    `- **Split:** ${s.split}`,
    `- **Command${s.runs.length > 1 ? "s" : ""}:**${s.runs.length > 1 ? "" : ` \`${shown(s.runs[0] ?? [])}\``}`,
    ...(s.runs.length > 1 ? s.runs.map((r) => `  - \`${shown(r)}\``) : []),
  ];
}

function block(id: string, lines: string[]): string {
  return [`<!-- lab:begin ${id} -->`, ...lines, `<!-- lab:end ${id} -->`].join("\n");
}

const PREAMBLE = `# Lab figures

This page holds the lab's measured figures. Everything between a \`lab:begin\` and a \`lab:end\`
marker is written by \`npm run lab:report\` (lab/report.ts) from the JSON of the command shown with
it: do not edit it by hand, rerun the report. What each evaluation measures is in
[lab/README.md](../lab/README.md).
`;

async function main(argv: string[]): Promise<number> {
  const flag = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? (argv[i + 1] ?? "") : undefined;
  };
  if (argv.includes("--list")) {
    for (const s of SECTIONS) process.stdout.write(`${s.id}${s.needs ? " (shared data)" : ""}: ${s.title}\n`);
    return 0;
  }
  const sharedFlag = flag("shared-data") ?? process.env.MEMLANE_SHARED_DATA;
  const shared = sharedFlag ? resolve(sharedFlag) : null;
  if (sharedFlag !== undefined && !(shared && existsSync(shared))) {
    process.stderr.write(`lab:report: --shared-data ${sharedFlag}: no such folder\n`);
    return 2;
  }
  const only = flag("only")?.split(",").filter(Boolean);
  const unknown = only?.filter((id) => !SECTIONS.some((s) => s.id === id)) ?? [];
  if (unknown.length) {
    process.stderr.write(`lab:report: unknown table(s) ${unknown.join(", ")}; see --list\n`);
    return 2;
  }
  const out = resolve(ROOT, flag("out") || "docs/lab.md");
  const commit = await sh("git", ["rev-parse", "--short", "HEAD"]);
  const dirty = await sh("git", [
    "status",
    "--porcelain",
    "--",
    "src",
    "lab/eval",
    "lab/cli",
    "lab/main.ts",
    "lab/data",
    "data",
    "package-lock.json",
  ]);
  const when = `${new Date().toISOString().slice(0, 10)}, commit ${commit || "unknown"}${dirty ? " with uncommitted changes in src/, lab/ or data/" : ""}`;
  const charts = await mkdtemp(join(tmpdir(), "memlane-lab-report-"));
  const cache = new Map<string, Promise<RunResult>>();
  const blocks = new Map<string, string>();
  const started = Date.now();
  try {
    for (const s of SECTIONS) {
      if (only && !only.includes(s.id)) continue;
      const lines = header(s);
      const missing = shared ? (s.needs ?? []).filter((f) => !existsSync(join(shared, f))) : (s.needs ?? []);
      if (s.needs && missing.length) {
        lines.push(
          "",
          `Not generated: needs ${DIR} (${missing.map((f) => `${DIR}/${f}`).join(", ")}); run \`npm run lab:report -- --shared-data ${DIR}\`.`,
        );
        blocks.set(s.id, block(s.id, lines));
        continue;
      }
      const results: RunResult[] = [];
      for (const args of s.runs) {
        const key = JSON.stringify(args);
        if (!cache.has(key)) cache.set(key, runLab(args, shared, charts));
        results.push(await cache.get(key)!);
      }
      const failed = results.map((r, i) => ({ r, args: s.runs[i] ?? [] })).filter((x) => !x.r.ok);
      lines.push("");
      if (failed.length)
        lines.push(
          `Not generated: ${failed.map((x) => `\`${shown(x.args)}\` failed (${x.r.error})`).join("; ")}.`,
        );
      else
        try {
          lines.push(...s.render(results.map((r) => r.value)));
          const seconds = results.reduce((n, r) => n + r.ms, 0) / 1000;
          lines.push("", `Generated ${when}; the commands took ${seconds.toFixed(0)} s.`);
        } catch (error) {
          lines.push(
            `Not generated: the report could not read the commands' JSON (${(error as Error).message}).`,
          );
        }
      blocks.set(s.id, block(s.id, lines));
    }
  } finally {
    await rm(charts, { recursive: true, force: true });
  }
  let page = existsSync(out) ? await readFile(out, "utf8") : "";
  if (!page.trim()) page = PREAMBLE;
  for (const [id, text] of blocks) {
    const marked = new RegExp(`<!-- lab:begin ${id} -->[\\s\\S]*?<!-- lab:end ${id} -->`);
    page = marked.test(page) ? page.replace(marked, () => text) : `${page.trimEnd()}\n\n${text}\n`;
  }
  const bench = block("benchmarks", [
    "### Benchmarks",
    "",
    "Not generated: the benchmarks print figures for people, not JSON. Run them yourself:",
    "",
    ...BENCHMARKS.map((b) => `- ${b}`),
  ]);
  const benchMarked = /<!-- lab:begin benchmarks -->[\s\S]*?<!-- lab:end benchmarks -->/;
  page = benchMarked.test(page) ? page.replace(benchMarked, () => bench) : `${page.trimEnd()}\n\n${bench}\n`;
  await writeFile(out, page.endsWith("\n") ? page : `${page}\n`);
  process.stderr.write(
    `lab:report: ${blocks.size} table(s) written to ${out} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`lab:report: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);

/** The rules sets' tables: cases kept per class on each half, the held-out half by style. */
/**
 * The rules set's tables: by half (tune, held-out) and the held-out half by style; or, for a set
 * held out whole (`whole`), all its cases and all of them by style.
 */
function rulesTables(r: RuleReport, whole = false, allLabel = "All cases, none tuned on"): string[] {
  const out: string[] = [];
  const classes = ["same", "addition", "change", "stop", "clean"] as const;
  const kept = (c: { cases: number; passed: number }) => (c.cases ? `${c.passed} / ${c.cases}` : "–");
  const label = { test: "Held-out half", tune: "Tune half", all: allLabel } as const;
  for (const split of whole ? (["all"] as const) : (["test", "tune"] as const)) {
    const n = r.rows[0]?.cells[split];
    if (!n) continue;
    out.push(
      `${label[split]} (${n.all.cases} cases), cases kept:`,
      "",
      ...table(
        ["strategy", ...classes, "all"],
        r.rows.map((row) => [
          row.strategy,
          ...classes.map((c) => kept(row.cells[split][c])),
          kept(row.cells[split].all),
        ]),
        1,
      ),
      "",
    );
  }
  const byStyle = (row: RuleReport["rows"][number]) => (whole ? row.stylesAll : row.styles);
  const styles = [...new Set(r.rows.flatMap((row) => Object.keys(byStyle(row))))].sort();
  out.push(
    `${whole ? "All cases" : "Held-out half"} by style, cases kept:`,
    "",
    ...table(
      ["strategy", ...styles],
      r.rows.map((row) => [
        row.strategy,
        ...styles.map((st) => kept(byStyle(row)[st] ?? { cases: 0, passed: 0 })),
      ]),
      1,
    ),
    "",
    `Active memories that carry talk: ${r.rows.map((row) => `${row.strategy} ${row.uncleanMemories} of ${row.activeMemories}`).join(", ")}.`,
  );
  return out;
}
