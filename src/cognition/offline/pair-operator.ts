/**
 * The offline pairwise operator O(m, s) of CareCall, without a language model: sentence
 * similarity from the embedder, plus cues for negation, recovery, change of status, plans that
 * came true, antonyms, counts and information containment. Rules are checked from the most
 * specific to the most general; every decision says which rule fired.
 */
import type { PairLabelWithFusion } from "../../core/memory-update.js";
import { stem, terms } from "../../core/text.js";
import type { PairDecision } from "../inputs.js";
import { coverage, type Frame, measures, statesNewAmount } from "./frame.js";
import { expandSynonyms } from "./lexicon.js";

/** A temporary, unwelcome state: something one recovers from. */
const AILMENT =
  /\b(cold|flu|covid|fever|cough|sore|hurts?|pain|ache|aches|migraine|migraines|headache|sick|ill|injur\w*|broken|sprain\w*|infection|nause\w*|cast|stomach bug|exhausted|worried|stressed)\b/i;
const RECOVERY =
  /\b(better|recovered|recovering|healed|gone|cured|went down|feels? fine|fully recovered|no longer sick|over it|came off|cleared up|all better)\b/i;
/**
 * Slots a change speaks to: a change verb in the summary replaces a memory only if the memory
 * is about the same slot ("moved" speaks to where someone lives, not to their running).
 */
const SLOTS: { name: string; change: RegExp; topic: RegExp }[] = [
  {
    name: "home",
    change: /\b(moved|moving|relocat\w*|bought a (house|flat|home)|new (flat|house|home|apartment))\b/i,
    topic: /\b(lives?|living|flat|house|apartment|move|moving|neighbou?rhood|rent\w*|home in)\b/i,
  },
  {
    name: "work",
    change:
      /\b(new job|started (?:\w+ ){0,3}(job|work|role|position)|quit (?:\w+ ){0,2}job|hired|fired|retired|promoted|laid off|lost (?:\w+ ){0,2}job|job offer)\b/i,
    topic:
      /\b(works? (?:as|at|in|for|nights?|days?|shifts?)|job|nurse|teacher|shifts?|employed|unemployed|career|office|manager|company|boss|banker|engineer)\b/i,
  },
  {
    name: "relationship",
    change: /\b(engaged|married|divorced|broke up|split up|dating|separated)\b/i,
    topic: /\b(single|dating|partner|girlfriend|boyfriend|wife|husband|married|engaged|relationship)\b/i,
  },
  {
    name: "diet",
    change:
      /\b(not vegetarian|not vegan|started eating|stopped eating|went vegan|became vegetarian|gave up (meat|dairy))\b/i,
    topic: /\b(vegetarian|vegan|meat|fish|diet|eat|eats|eating)\b/i,
  },
  {
    name: "school",
    change: /\b(graduated|enrolled|started (?:\w+ ){0,2}(school|college|university|class|course))\b/i,
    topic: /\b(school|college|university|student|studying|studies|class|course|degree)\b/i,
  },
];
/** "no longer X", "quit X", "stopped X": X must be what the memory says. */
const ENDED = /\b(?:no longer|quit|stopped|gave up|not \w+ anymore)\s+((?:\w+\s*){1,3})/i;
const DONE = /\b(went|ran|finished|completed|did|got|visited|saw|passed|took|won|made it|moved|started)\b/i;
const CONTRAST = /\b(but|yet|although|though|however)\b/i;
const UNRESOLVED =
  /\b(not yet|has not|hasn't|have not|haven't|does not|doesn't|do not|don't|cannot|can't|no)\b/i;
const INCREMENT = /\b(another|third|fourth|fifth|sixth|one more)\s+(\w+)/i;
/** A small count of something: "two cats", "3 kids" (not years or dates). */
const COUNT = /\b(two|three|four|five|six|seven|eight|nine|ten|[2-9]|1[0-9])\s+(\w+)/i;
/** The words a negation governs: "not vegetarian", "no longer works night shifts". */
const NEGATED =
  /\b(?:not|no longer|never|don't|doesn't|didn't|isn't|aren't|wasn't|hasn't|haven't|can't|cannot|won't)\s+((?:\w+\s*){1,3})/i;
/** Emphatic negations that deny nothing ("will never forget", "can't wait"). */
const EMPHATIC =
  /\b(never forget|(?:not|never) (?:gonna|going to) forget|won't forget|can't wait|cannot wait|can't believe|not just|not only|no doubt|never been better)\b/i;
/** Pairs of words whose meeting across m and s signals a changed state. */
const ANTONYMS: [RegExp, RegExp][] = [
  [/\b(lives|living|is|am|are) alone\b/i, /\b(with|staying|together|roommate|partner)\b/i],
  [/\bsingle\b/i, /\b(engaged|married|dating|girlfriend|boyfriend|partner)\b/i],
  [/\bunemployed|looking for work|jobless\b/i, /\b(job|hired|works?|working|employed)\b/i],
  [/\b(can't|cannot|couldn't) sleep|insomnia\b/i, /\bsleeps? well|sleeping well\b/i],
  [
    /\bno (particular )?health issues|not sick|healthy\b/i,
    /\b(surgery|diagnosed|sick|ill|injur\w*|hospital)\b/i,
  ],
  [/\belementary\b/i, /\bmiddle school|high school\b/i],
  [/\bsmokes?\b/i, /\bquit\b/i],
];

export interface PairFeatures {
  cosine: number;
}

/** Thresholds chosen on data/carecall/dev.jsonl with the bundled encoder (see the eval). */
export const OPERATOR_THRESHOLDS = {
  /** Below this similarity and with no shared content word, two sentences are unrelated. */
  related: 0.45,
  /** At or above this similarity a change of state in one sentence speaks to the other. */
  topical: 0.55,
  /** At or above this similarity a sentence says nothing the other does not. */
  same: 0.82,
  /** At or above this similarity two sentences are paraphrases whatever their words. */
  paraphrase: 0.92,
  /** Share of one sentence's content words the other must hold to contain it. */
  containment: 0.75,
};

function contentTerms(text: string, about: string): Set<string> {
  const names = new Set(terms(about));
  return new Set(terms(text).filter((t) => !names.has(t)));
}

/** Content terms of lower-case words: no names, places, days, months, years or other numbers. */
export function commonTerms(text: string, about: string): Set<string> {
  const lower = text
    .split(/\s+/)
    .filter((w) => !/^[A-Z]/.test(w) && !/\d/.test(w))
    .join(" ");
  return contentTerms(lower, about);
}

/**
 * Which rule decided a pair: the learned operator weighs each rule by how often it was right on
 * labelled data (a rule that is right about moves but not about paraphrases gets its due).
 */
export const RULE_REASONS = [
  "unrelated",
  "closes-state",
  "resolves-clause",
  "adds-to-count",
  "new-value",
  "opposite-states",
  "negation",
  "slot-change",
  "ended",
  "plan-happened",
  "memory-holds-summary",
  "summary-holds-memory",
  "paraphrase",
  "compatible",
] as const;
export type RuleReason = (typeof RULE_REASONS)[number];

/** The rules' catch-all: related, but no rule says how. The learned operator decides these. */
export const RULE_LEFT_OPEN: RuleReason = "compatible";

/**
 * Rules that judge by word overlap alone (one sentence's words hold the other's), with no word
 * that says what changed. Under the "evidence" policy the learned operator decides these too; on
 * memory-ops' dev folds it was right more often than they were (`npm run lab -- eval carecall
 * DIR/memory-ops/train.jsonl --part dev --folds 5`).
 */
export const RULES_ON_OVERLAP: readonly RuleReason[] = [
  "memory-holds-summary",
  "summary-holds-memory",
  "paraphrase",
];

/** The rules' decision, with which rule made it. */
export interface RuleDecision extends PairDecision {
  reason: RuleReason;
}

export function classifyPair(
  memory: string,
  summary: string,
  about: string,
  f: PairFeatures,
  fusion = true,
): RuleDecision {
  const tm = contentTerms(memory, about);
  const ts = contentTerms(summary, about);
  const shared = [...tm].filter((t) => ts.has(t)).length;
  const decide = (label: PairLabelWithFusion, reason: RuleReason, rationale: string): RuleDecision => ({
    label,
    reason,
    rationale: `${rationale} (cosine ${f.cosine.toFixed(2)}, ${shared} shared words)`,
  });
  // Related: about the same thing. Topical: closely enough that a change of state in one speaks to
  // the other. One incidental shared word ("Bristol") is not enough for either.
  const related = f.cosine >= OPERATOR_THRESHOLDS.related || shared >= 2 || (shared >= 1 && f.cosine >= 0.35);
  if (!related) return decide("APPEND", "unrelated", "unrelated");
  const topical = f.cosine >= OPERATOR_THRESHOLDS.topical || shared >= 2;
  const ailment = memory.match(AILMENT)?.[0]?.toLowerCase();
  if (
    ailment &&
    RECOVERY.test(summary) &&
    (summary.toLowerCase().includes(ailment) || f.cosine >= OPERATOR_THRESHOLDS.topical)
  )
    return decide("DELETE", "closes-state", "the summary closes a temporary state the memory held");
  if (fusion && topical && CONTRAST.test(memory)) {
    const [head, ...rest] = memory.split(CONTRAST);
    const tail = rest.filter((p) => !CONTRAST.test(p)).join(" ");
    if (
      UNRESOLVED.test(tail) &&
      !UNRESOLVED.test(summary) &&
      coverage(contentTerms(head ?? "", about), ts) < 0.5
    )
      return decide(
        "FUSION",
        "resolves-clause",
        "the summary resolves one clause of the memory and drops the other",
      );
  }
  const counted = COUNT.exec(memory)?.[2];
  const added = INCREMENT.exec(summary)?.[2];
  if (fusion && counted && added && stem(counted) === stem(added))
    return decide("FUSION", "adds-to-count", "the summary adds to a count the memory holds");
  // The summary's measures first: a memory's parse (milliseconds) is needed only when it has some.
  const after = measures(summary);
  const before = after.length ? measures(memory) : [];
  if (after.some(([unit, value]) => before.some(([u, v]) => u === unit && v !== value)))
    return decide("REPLACE", "new-value", "the summary gives a new value for a measure the memory holds");
  for (const [a, b] of ANTONYMS)
    if ((a.test(memory) && b.test(summary)) || (a.test(summary) && b.test(memory)))
      return decide("REPLACE", "opposite-states", "opposite states");
  if (topical && negates(memory, summary, about))
    return decide("REPLACE", "negation", "one sentence negates what the other says");
  for (const slot of SLOTS)
    if (
      slot.change.test(summary) &&
      !background(summary, slot.change) &&
      slot.topic.test(memory) &&
      slot.change.exec(memory)?.[0]?.toLowerCase() !== slot.change.exec(summary)?.[0]?.toLowerCase()
    )
      return decide("REPLACE", "slot-change", `a change of ${slot.name}`);
  const ended = ENDED.exec(summary)?.[1];
  const endedTerms = ended ? commonTerms(ended, about) : new Set<string>();
  if (endedTerms.size > 0 && coverage(endedTerms, commonTerms(memory, about)) >= 0.5)
    return decide("REPLACE", "ended", "the summary says what the memory held has ended");
  if (topical && DONE.test(summary) && !EMPHATIC.test(memory) && planCameTrue(memory, summary, about))
    return decide("REPLACE", "plan-happened", "a plan in memory that the summary says happened");
  const summaryCovered = coverage(ts, tm);
  const memoryCovered = coverage(tm, ts);
  // PASS says the memory already holds the summary; a summary with an amount of its own does not
  // qualify, however many words the two share ("rent went up to 1400" beside "1200 a month").
  const held = !statesNewAmount(memory, summary);
  if (held && summaryCovered >= OPERATOR_THRESHOLDS.containment && summaryCovered >= memoryCovered)
    return decide("PASS", "memory-holds-summary", "the memory already holds the summary");
  if (memoryCovered >= OPERATOR_THRESHOLDS.containment)
    return decide("REPLACE", "summary-holds-memory", "the summary holds the memory and more");
  // A paraphrase: very close in meaning, and the memory already holds part of the summary's words.
  if (
    held &&
    f.cosine >= OPERATOR_THRESHOLDS.same &&
    (summaryCovered >= 0.5 || f.cosine >= OPERATOR_THRESHOLDS.paraphrase)
  )
    return decide("PASS", "paraphrase", "the two say the same thing");
  return decide("APPEND", "compatible", "related but compatible");
}

/**
 * Whether the memory could already hold what the summary says, the precondition of PASS (which
 * drops the summary). Not when the summary states an amount the memory lacks; otherwise the two
 * must be topical (`cosine` of their gists, the partner's name and dates left out, at least
 * OPERATOR_THRESHOLDS.topical), or share a content word or a WordNet synonym of one that is not
 * part of a name. A partner's sister or dog is named in many facts that hold nothing of each other:
 * "Claire and I have separated" beside a row with Claire (gist cosine 0.52, raw 0.62) was dropped.
 * On memory-ops' dev part, 78 of 79 PASS pairs are topical by gist cosine and the other shares a
 * word; no PASS pair shares only names, 9 other pairs do (7 APPEND, 2 FUSION). A real pair the
 * model called PASS, "Lucia's clients are not happy" beside her rent, had nothing in common.
 */
export function canHold(
  memory: { text: string; frame: Frame },
  summary: { text: string; frame: Frame },
  cosine: number,
): boolean {
  if (statesNewAmount(memory.text, summary.text)) return false;
  if (cosine >= OPERATOR_THRESHOLDS.topical) return true;
  const known = expandSynonyms(memory.frame.terms);
  const named = (t: string) => memory.frame.names.has(t) || summary.frame.names.has(t);
  return [...summary.frame.terms].some((t) => known.has(t) && !named(t));
}

/** What a plan is about ("going to a transgender conference" -> transgender, conference). */
const PLAN_OBJECT =
  /\b(?:planning to|plans? to|going to|will|wants? to|hoping to|hopes? to|training for|thinking of|about to|intends? to|preparing for)\s+((?:\S+\s*){1,6})/i;

/** The summary reports as done what the memory planned: the plan's object reappears. */
function planCameTrue(memory: string, summary: string, about: string): boolean {
  const object = PLAN_OBJECT.exec(memory)?.[1];
  if (!object) return false;
  const terms = commonTerms(object, about);
  return terms.size > 0 && coverage(terms, commonTerms(summary, about)) >= 0.3;
}

/** A change told as background ("since Sam moved from…", "years after she moved") is not news. */
function background(summary: string, change: RegExp): boolean {
  const at = summary.search(change);
  return at > 0 && /\b(since|when|after|before|until|ago)\s+(\S+\s+){0,2}$/i.test(summary.slice(0, at));
}

/**
 * One sentence negates what the other asserts: the words a negation governs ("not vegetarian",
 * "no longer works night shifts") stand, unnegated, in the other sentence.
 */
function negates(memory: string, summary: string, about: string): boolean {
  for (const [a, b] of [
    [memory, summary],
    [summary, memory],
  ] as const) {
    if (EMPHATIC.test(a)) continue;
    const scope = NEGATED.exec(a)?.[1];
    if (!scope || NEGATED.test(b)) continue;
    const governed = commonTerms(scope, about);
    if (governed.size > 0 && coverage(governed, commonTerms(b, about)) >= 0.5) return true;
  }
  return false;
}

/** An offline fused sentence: the newer statement, then what only the older one said. */
export function fuseOffline(memory: string, summary: string, about: string): string {
  const base = summary.trim().replace(/[.!?]+$/, "");
  const parts = memory.split(CONTRAST).filter((p) => p.trim() && !CONTRAST.test(p));
  const ts = contentTerms(summary, about);
  const keep = parts
    .filter(
      (p) =>
        contentTerms(p, about).size > 0 && !UNRESOLVED.test(p) && coverage(contentTerms(p, about), ts) < 0.5,
    )
    .map((p) => p.trim().replace(/[.!?]+$/, ""));
  const extra = keep.length ? keep.join(", ") : memory.trim().replace(/[.!?]+$/, "");
  return `${base}; earlier: ${extra}.`;
}
