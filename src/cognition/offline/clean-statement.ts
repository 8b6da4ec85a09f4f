/**
 * A statement as a memory should hold it: a fact, not the talk around it. Greetings and the
 * agent's name addressed ("Hi Ava, …"), asides ("…, as Ava knows", "as you know"), hedges around
 * the person's own fact ("Sam thinks Sam's sister…") and leftovers of the perspective rewrite
 * ("Between Ana and others, …") are taken off; a statement whose subject or object is a pronoun
 * with no one named before it ("He adopted…", "Sam adopted him recently.") cannot stand alone and
 * is not kept, with the reason. The words are read by grammar (the tagger's pronouns, nouns and
 * verbs) and closed classes (greetings, pronouns), the same for statements from a model and from
 * the offline summarizer.
 */
import { escapeRegExp } from "../../core/text.js";
import { nlp } from "./nlp.js";

export type CleanedStatement = { text: string; changed: boolean } | { dropped: string };

/** A greeting or thanks opening the statement, with whoever it addresses. */
const GREETING =
  /^(?:(?:hi|hello|hey|hiya|dear|morning|evening|good (?:morning|afternoon|evening)|thanks|thank you)\b[^,.!?;:]{0,30}[,.!?;:]+\s*)+/i;
/** What the perspective rewrite leaves in front of a fact shared in company. */
const COMPANY = /^between [^,]{1,60}?\band others\s*,\s*/i;
/** Words of believing, guessing and feeling that hedge a clause (a closed set of English). */
const HEDGE_VERBS = "thinks|believes|guesses|supposes|reckons|figures|feels|imagines|suspects";
/** Tags that hedge or aside without adding to the fact (a closed set of English, with chat spellings). */
const HEDGE_WORDS =
  /,?\s*\b(?:i think|i guess|i suppose|to be honest|honestly|by the way|btw|anyway|maybe|mayb|probably|prob|perhaps|for the record|fyi)\b\s*,?/gi;
/** "you" as chat writes it. */
const YOU = "(?:you|u|ya)";
/** A request to the agent rather than a fact: "please …", "can you …", "remind me …". */
const REQUEST = new RegExp(
  `^(?:\\w+\\s+)?(?:please|pls|plz|can ${YOU}|could ${YOU}|would ${YOU}|remind|don't forget to|do not forget to)\\b`,
  "i",
);
/**
 * A request to take note of what follows, by a verb of noting or knowing before "that" or a colon
 * (a closed set of English).
 */
const NOTE_THIS =
  /^(?:(?:please|pls|kindly|just)\s+)*(?:note|take note|be aware|bear in mind|keep in mind|remember|record|know)(?:\s+(?:down|of this))?\s*(?:that\b|:)\s*/i;
/** A lead-in saying whose records the fact is for: "For your records:", "For Quinby's notes,". */
const FOR_THE_RECORDS =
  /^(?:just\s+)?for\s+(?:the|your|yer|ur|[\p{L}'-]+'s?)\s+(?:records?|information|info|reference|files?|notes?)\s*[:,]\s*/iu;
/** Third-person pronouns that stand for someone or something: subject and object forms. */
const PERSONAL = new Set(["he", "him", "she", "they", "them", "it"]);

/**
 * The statement cleaned, or why it cannot be kept. `about` is the person's display name (or
 * names, comma-separated), `agent` the agent's display name.
 */
export function cleanStatement(text: string, about: string, agent: string): CleanedStatement {
  let t = text.trim();
  const before = t;
  t = t.replace(GREETING, "").replace(COMPANY, "");
  // "(you) remember …", "(X) told you (already)": what the agent is reminded of, not the fact.
  t = t
    .replace(new RegExp(`^(?:\\w+\\s+)?${YOU}\\s+(?:remember|know|recall)\\s+(?:that\\s+)?`, "i"), "")
    .replace(
      new RegExp(
        `^[\\w']+(?:\\s+\\w+)?\\s+(?:told|tells|mentioned to)\\s+${YOU}\\s*(?:already|before|that)?\\s*,?\\s*`,
        "i",
      ),
      "",
    )
    .replace(new RegExp(`,?\\s*\\b(?:as|like)\\s+${YOU}\\s+(?:know|knew|remember|said)\\b\\s*,?`, "gi"), " ")
    .replace(
      new RegExp(`,?\\s*\\b\\w+\\s+told\\s+${YOU}\\s+(?:that\\s+)?(?:right|rite|already)\\b\\??`, "gi"),
      "",
    );
  if (agent) {
    const a = escapeRegExp(agent);
    // Asides about what the agent knows or was told, and the agent addressed by name.
    t = t
      .replace(
        new RegExp(
          `,?\\s*\\b(?:as|like)\\s+(?:${a}|you)\\s+(?:knows?|knew|said|remembers?|mentioned|heard|told \\w+)\\b[^,.;!?]*`,
          "gi",
        ),
        "",
      )
      .replace(new RegExp(`,?\\s*\\b(?:as|like)\\s+\\w+\\s+told\\s+${a}\\b[^,.;!?]*`, "gi"), "")
      // "… Sam told Ava that, right?" as the rewrite writes "i told u that rite".
      .replace(
        new RegExp(`,?\\s*\\b\\w+\\s+told\\s+${a}\\s+(?:that'?s?\\s+)?(?:right|rite|already)\\b\\??`, "gi"),
        "",
      )
      .replace(new RegExp(`^${a}\\s*,\\s*`, "i"), "")
      // "…, can you believe it", "My brother, would you believe it, got a tattoo": the listener asked
      // to believe or imagine, set inside the statement; not reported speech ("I told Tom, can you…").
      .replace(
        new RegExp(
          `,\\s*(?:can|could|would|will|do|did)\\s+(?:${a}|${YOU})\\s+(?:believe|believes|imagine|imagines|guess|guesses)\\b(?:\\s+(?:it|that|this))?\\s*\\??\\s*(?:,(?=\\s)|(?=[.!?;]|$))`,
          "gi",
        ),
        "",
      )
      // "Just so Ava knows, …": the telling, not the fact.
      .replace(new RegExp(`^(?:just\\s+)?so\\s+(?:${a}|you)\\s+knows?\\b\\s*,?\\s*(?:that\\s+)?`, "i"), "")
      // A lead-in to the agent ending in a colon ("Ava won't believe it: …", "Guess what, Ava: …").
      .replace(new RegExp(`^[^:;.!?]{0,40}\\b${a}\\b(?!'s)[^:;.!?]{0,40}:\\s*`, "i"), "")
      .replace(new RegExp(`,\\s*${a}\\s*(?=[.!?]*$)`, "i"), "");
  }
  // "Please note that …", "For your records: …", "Kindly bear in mind: …": the agent asked to take
  // down what follows; the fact is what follows.
  t = t.replace(NOTE_THIS, "").replace(FOR_THE_RECORDS, "");
  // "Before I forget, …" (written of the person) and "…, in case recipes come up": why the fact is
  // told now, not part of it.
  t = t
    .replace(/^before\s+[\w']+\s+forgets?\s*,\s*/i, "")
    .replace(
      /,\s*in case\s+(?:it|that|this|[a-z]+s)\s+comes?\s+up\b(?!\s+(?:to|the|at))(?:\s+in\s+(?:conversation|chat))?/gi,
      "",
    );
  // Between commas or after one, the hedge leaves the comma ("comfort food, honestly my
  // favourite" -> "comfort food, my favourite"); elsewhere a space.
  t = t.replace(HEDGE_WORDS, (m) => (m.trim().startsWith(",") ? ", " : " "));
  // "Sam thinks Sam's sister lives in Glasgow": the person's own fact, hedged. An opinion about
  // something else ("Sam thinks the film was too long") stays whole.
  for (const name of about.split(/,\s*/).filter(Boolean)) {
    const n = escapeRegExp(name);
    t = t.replace(new RegExp(`^${n}\\s+(?:${HEDGE_VERBS})\\s+(?:that\\s+)?(?=${n}\\b)`, "i"), "");
  }
  // "Sam should perhaps mention that …": a hedge around the fact that follows.
  for (const name of about.split(/,\s*/).filter(Boolean))
    t = t.replace(
      new RegExp(
        `^${escapeRegExp(name)}\\s+(?:should|must|wants to|would like to)\\s+(?:\\w+\\s+)?(?:mention|say|add|tell \\w+)\\s+(?:that\\s+)?`,
        "i",
      ),
      "",
    );
  t = tidy(t);
  if (REQUEST.test(t)) return { dropped: "a request to the agent, not a fact" };
  if (t !== tidy(before) && t.split(/\s+/).length < 3)
    return { dropped: "nothing of a fact is left once the talk is taken off" };
  const unresolved = unresolvedPronoun(t, about);
  if (unresolved) return { dropped: `"${unresolved}" names no one the statement says` };
  return { text: t, changed: t !== before };
}

function tidy(text: string): string {
  let t = text
    .replace(/\s+,/g, ",")
    .replace(/,\s*,/g, ",")
    .replace(/\s{2,}/g, " ")
    .replace(/^[\s,;:]+/, "")
    .replace(/[\s,;:]+([.!?])$/, "$1")
    .trim();
  if (t && !/[.!?]$/.test(t)) t = `${t}.`;
  return t ? t[0]!.toUpperCase() + t.slice(1) : t;
}

/**
 * A personal pronoun with no noun before it other than the person's own name, where the statement
 * rests on it: as its subject ("He adopted a dog"), or as an object when the statement names
 * nothing else ("Sam adopted him recently"; but "Lucia found him in Zaragoza, where Lucia is
 * from" still says where Lucia is from). A possessive ("her job") refers to the subject and is
 * fine; "it" counts only as a whole object ending the statement ("Sam loves it").
 */
function unresolvedPronoun(text: string, about: string): string | null {
  const names = new Set(
    about
      .split(/,\s*/)
      .flatMap((n) => n.toLowerCase().split(/\s+/))
      .filter(Boolean),
  );
  const terms = (nlp(text).json() as { terms: { text: string; tags: string[] }[] }[]).flatMap((s) => s.terms);
  let named = false;
  for (const [i, term] of terms.entries()) {
    // "It's" is one term to the tagger: the pronoun with its verb.
    const word = term.text
      .toLowerCase()
      .replace(/[^a-z']/g, "")
      .replace(/'s$/, "");
    const isPronoun = term.tags.includes("Pronoun") && !term.tags.includes("Possessive");
    if (isPronoun && (PERSONAL.has(word) || (word === "her" && i === terms.length - 1))) {
      const subject = i === 0;
      // "It" opening the statement is its subject ("It's got a new leaf"); elsewhere it counts only
      // as a whole object ending it ("Sam loves it"), not in "found it hard to sleep".
      if (word === "it" && !subject && i !== terms.length - 1) continue;
      if (!named && (subject || !namesAfter(terms.slice(i + 1), names)))
        return term.text.replace(/[^A-Za-z']/g, "");
    }
    if (term.tags.includes("Noun") && !term.tags.includes("Pronoun") && !names.has(word.replace(/'s$/, "")))
      named = true;
  }
  return null;
}

/** Whether the words after a pronoun name something: a noun that is not the person, a time or a pronoun. */
function namesAfter(terms: { text: string; tags: string[] }[], names: Set<string>): boolean {
  return terms.some((t) => {
    const word = t.text
      .toLowerCase()
      .replace(/[^a-z']/g, "")
      .replace(/'s$/, "");
    return (
      t.tags.includes("Noun") &&
      !t.tags.includes("Pronoun") &&
      !t.tags.includes("Date") &&
      !t.tags.includes("Duration") &&
      !names.has(word)
    );
  });
}
