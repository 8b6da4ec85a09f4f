/**
 * What a question asks of time: an earlier state of something ("Where did Sam live before
 * Bristol?"), whether a state still holds ("Is Sam still ill?"), an event in the past ("When did
 * Sam move?"), or none of these. Recall uses it to look at superseded memories only when the
 * question is about history or about an event.
 *
 * The reading is grammatical rather than a list of phrasings to match:
 *   - **still**: continuative or discontinuative aspect on the predicate — the adverbs *still*,
 *     *anymore* / *any more*, *no longer*, *any longer* — asked in the present;
 *   - **past**, from the tense and aspect of the question's main clause and its time adjuncts:
 *     - a clause or phrase introduced by *before* / *until* / *prior to* under a main clause in the
 *       past ("What did Maya do before she moved?"); its content is the **anchor**, the state that
 *       came next;
 *     - an *after* clause under a main clause in the past ("Where did Zoe move right after the
 *       breakup?"); its content is the anchor too, the state or event that came first;
 *     - a subordinate *while* / *when* clause in the past ("…while she was studying?"); its
 *       content is the anchor, the state the answer held in;
 *     - the habitual past *used to* ("What car did Grace use to drive?");
 *     - a past copula or past progressive as the finite verb ("Was Tom vegetarian…", "Who was
 *       Maya dating?"): a state, not an event, placed in the past;
 *     - an adverb or adjective of anteriority (*previously, originally, formerly, initially,
 *       earlier, at first, back then, in the past*, a clause-final *before* or *first*; *former,
 *       previous, original*).
 *
 * A simple past with *did* and an ordinary verb, or a past-tense verb ("When did Sam run the race?",
 * "What did Sam paint?"), asks about an **event**: something that happened, and stays true after
 * later statements replaced the memory of it ("Sam went to the support group on 7 May" may be
 * replaced by "The support group made Sam feel accepted"). Recall then looks at past versions too,
 * beside the current ones, without the version chains of a question about history. Part-of-speech
 * tags come from compromise; the closed classes (auxiliaries, subordinators) are spelled out
 * because its tagger reads a sentence-initial "Will" as a name.
 */
import { nlp } from "../cognition/offline/nlp.js";
import { prefixAtWord } from "../core/text.js";

export type TemporalIntentKind = "past" | "still" | "event" | "none";

/** Which structure of the question decided its intent. */
export type TemporalSignal =
  | "continuative"
  | "before-clause"
  | "after-clause"
  | "during-clause"
  | "used-to"
  | "past-state"
  | "anteriority"
  | "past-event";

export interface TemporalIntent {
  kind: TemporalIntentKind;
  /**
   * For "past" with a subordinate clause: what the question measures from — the later state for
   * *before* ("Bristol", "she moved"), the earlier event for *after* ("the breakup"), the state
   * the answer held in for *while / when* ("she trained"; that one is not searched from, and
   * `main` stays unset).
   */
  anchor?: string;
  /** With an anchor: the question's main clause, what is asked of that time ("where did sam live"). */
  main?: string;
  signal?: TemporalSignal;
}

interface Token {
  word: string;
  tags: Set<string>;
}

/** Finite auxiliaries, copulas and modals by tense: a closed class of English. */
const PAST_FINITE = new Set(["did", "was", "were", "had", "used"]);
const PRESENT_FINITE = new Set(["do", "does", "is", "am", "are", "has", "have"]);
const MODAL = new Set(["will", "would", "shall", "should", "can", "could", "may", "might", "must"]);
const COPULA_PAST = new Set(["was", "were"]);
const WH_DETERMINER = new Set(["what", "which", "whose"]);
/** Subordinators that place the main clause before a later state, or during a past one. */
const BEFORE = new Set(["before", "until", "till"]);
const DURING = new Set(["while", "when", "whilst"]);
/** The subordinator that places the main clause after an earlier state or event. */
const AFTER = new Set(["after"]);
/** Adverbs and adjectives of anteriority (the earlier of two times). */
const ANTERIOR_ADVERB = new Set(["previously", "originally", "formerly", "initially", "earlier"]);
const ANTERIOR_ADJECTIVE = new Set(["former", "previous", "original", "prior"]);

function tokens(text: string): Token[] {
  const json = nlp(text).terms().json() as { terms: { normal: string; tags: string[] }[] }[];
  return json.flatMap((t) =>
    t.terms.map((x) => ({ word: x.normal.replace(/[’']/g, "'"), tags: new Set(x.tags) })),
  );
}

type Tense = "past" | "present" | "modal" | null;

/** Tense of a clause: its first finite verb (auxiliary, copula, modal or a tagged verb). */
function clauseTense(clause: Token[]): { tense: Tense; at: number } {
  for (const [i, t] of clause.entries()) {
    if (PAST_FINITE.has(t.word)) return { tense: "past", at: i };
    if (PRESENT_FINITE.has(t.word)) return { tense: "present", at: i };
    if (MODAL.has(t.word)) return { tense: "modal", at: i };
    // Between an opening "what / which / whose" and an auxiliary, a word heads the question's
    // noun phrase ("What shifts was…", "Which books does…"), whatever the tagger made of it;
    // "What happened to…" keeps its verb.
    const next = clause[i + 1]?.word ?? "";
    const finite = PAST_FINITE.has(next) || PRESENT_FINITE.has(next) || MODAL.has(next);
    if (i === 1 && WH_DETERMINER.has(clause[0]!.word) && finite) continue;
    if (t.tags.has("Verb") && !t.tags.has("Infinitive") && !t.tags.has("Gerund"))
      return { tense: t.tags.has("PastTense") ? "past" : "present", at: i };
  }
  return { tense: null, at: -1 };
}

const words = (ts: Token[]) => ts.map((t) => t.word);
const has = (ts: Token[], ...seq: string[]) => ts.some((_, i) => seq.every((w, j) => ts[i + j]?.word === w));

/** Readings of the latest questions: one recall reads its question more than once (memories, then the turns they missed). */
const READ = new Map<string, Readonly<TemporalIntent>>();
const READ_KEPT = 64;

/**
 * Reads a question's temporal intent. Pure and fast (one compromise parse, kept for the latest
 * questions; the reading is frozen, as callers share it); never throws.
 * @example temporalIntent("Where did Sam live before Bristol?") // { kind: "past", anchor: "bristol", main: "where did sam live", signal: "before-clause" }
 */
export function temporalIntent(question: string): TemporalIntent {
  let intent = READ.get(question);
  if (intent) return intent;
  intent = Object.freeze(readIntent(question));
  if (READ.size >= READ_KEPT) READ.delete(READ.keys().next().value!);
  READ.set(question, intent);
  return intent;
}

/**
 * The prefix of a question its temporal intent is read from. The reading is one tagger parse, the
 * costliest step of a recall's question (it grows with the text, and more with other work
 * competing for the cores; `npm run bench -- recall --signals` measures it), and a question that
 * asks about time says so in its first clauses: the longest question in our data sets is 119
 * characters. Longer queries are documents, whose grammar says nothing of what is asked.
 */
export const INTENT_CHARS = 1000;

function readIntent(question: string): TemporalIntent {
  const all = tokens(prefixAtWord(question, INTENT_CHARS));
  if (all.length === 0) return { kind: "none" };
  // The main clause ends at the first subordinator that is not the question's opening word, nor
  // the particle of a phrasal verb ("look after the babies", "take after his father").
  const cut = all.findIndex(
    (t, i) =>
      i > 0 &&
      !t.tags.has("Particle") &&
      (BEFORE.has(t.word) ||
        DURING.has(t.word) ||
        AFTER.has(t.word) ||
        (t.word === "prior" && all[i + 1]?.word === "to")),
  );
  const main = cut < 0 ? all : all.slice(0, cut);
  const sub = cut < 0 ? [] : all.slice(all[cut]!.word === "prior" ? cut + 2 : cut + 1);
  const { tense, at } = clauseTense(main);
  const past = tense === "past";

  if (cut >= 0 && sub.length > 0) {
    const subordinator = all[cut]!.word;
    // A while / when clause is not searched from (`main` stays unset): "when she first mentioned
    // it" names no state, and "while she trained" finds the plan to train before the training
    // (tried: both lowered the currency set's tune half). Its anchor only picks, within a chain,
    // the version that says it.
    if (DURING.has(subordinator)) {
      if (past && clauseTense(sub).tense === "past")
        return { kind: "past", anchor: words(sub).join(" "), signal: "during-clause" };
    } else if (past) {
      return {
        kind: "past",
        anchor: words(sub).join(" "),
        main: words(main).join(" "),
        signal: AFTER.has(subordinator) ? "after-clause" : "before-clause",
      };
    }
  }
  if (has(all, "used", "to") || (has(all, "use", "to") && past)) return { kind: "past", signal: "used-to" };
  if (past) {
    // "before" or "first" closing the question is an adverb: "Where did Sam live before?"
    const last = all.at(-1)!.word;
    if (last === "before" || last === "first") return { kind: "past", signal: "anteriority" };
  }
  if (
    all.some((t) => ANTERIOR_ADVERB.has(t.word) || ANTERIOR_ADJECTIVE.has(t.word)) ||
    has(all, "at", "first") ||
    has(all, "back", "then") ||
    has(all, "in", "the", "past")
  )
    return { kind: "past", signal: "anteriority" };
  const continuative =
    all.some((t) => t.word === "still" || t.word === "anymore") ||
    has(all, "any", "more") ||
    has(all, "no", "longer") ||
    has(all, "any", "longer");
  if (continuative)
    return past ? { kind: "past", signal: "continuative" } : { kind: "still", signal: "continuative" };
  if (past && COPULA_PAST.has(main[at]!.word)) return { kind: "past", signal: "past-state" };
  if (past) return { kind: "event", signal: "past-event" };
  return { kind: "none" };
}
