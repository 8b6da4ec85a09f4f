/**
 * Terse turns leave their subject out: "dept head now", "volunteer at the food bank", "no longer
 * at the food bank", "cut out sugar". Said in someone's own turn, such a fragment is about the
 * speaker, so the summarizer puts the speaker back before it writes the fact in the third person.
 * These shapes are read, each from the tagger and WordNet rather than from a word list:
 * - a verbless fragment whose first words end on a noun that can name a person (WordNet's
 *   noun.person file, by any sense): "I'm a dept head now";
 * - a verbless fragment that opens with a place or state ("at", "in", "from", "back from",
 *   "no longer at"): "I'm no longer at the food bank";
 * - a fragment that opens with a phrasal verb or a verb of stopping or changing ("cut out sugar",
 *   "give up the car"): "I cut out sugar";
 * - a state's adjective with its preposition ("allergic to wasps"), a plain verb with its thing
 *   ("carry an epipen", "work at teva"), a gerund with no other verb ("renting in hanoi");
 * - a bare noun as the subject of "is a …" ("phone's a galaxy s21"): "my phone's a galaxy s21".
 */
import { stem } from "../../core/text.js";
import { inVerbClass, inWordField } from "./lexicon.js";
import type { nlp } from "./nlp.js";

/** A sentence's words as the tagger read them. */
type Tagged = ReturnType<ReturnType<typeof nlp>["terms"]>;

/** Most words before the person noun in a verbless fragment ("team lead", "senior staff nurse"). */
const MAX_ROLE_WORDS = 3;

/** Prepositions that put the speaker somewhere or in some state ("at", "in", "off to", "back from"). */
const STATE_PREPOSITION = /^(?:at|in|on|with|from|off|away|out|into|abroad|home)$/i;

/**
 * "phone's a galaxy s21", "car is a clio": a bare singular noun opening the sentence as the subject
 * of "is a …" names the speaker's own thing; the speaker dropped "my". A determiner or a plural
 * ("the car", "cars are") says something else.
 */
const DROPPED_POSSESSOR = /^[a-z][a-z-]*[^s\W](?:'s|\s+is)\s+(?:a|an)\s+\S/;

/** Adverbs of aspect, a closed class the tagger sometimes reads as adjectives or verbs. */
const ASPECT_ADVERB = /^(?:still|back|already|finally|currently|now|again)$/i;

/** The sentence with its dropped "I" put back, or null when it has a subject or is not one of the shapes. */
export function withSpeakerRestored(sentence: string, tagged: Tagged): string | null {
  const terms = termsOf(tagged);
  if (terms.length === 0) return null;
  const lower = `${sentence[0]!.toLowerCase()}${sentence.slice(1)}`;
  const opening = terms[0]!.tags;
  // Not a day ("monday is a bank holiday"), a quantifier ("everything's a mess") or the weather.
  if (
    DROPPED_POSSESSOR.test(sentence) &&
    opening.has("Noun") &&
    !["Pronoun", "ProperNoun", "Determiner", "Date"].some((t) => opening.has(t)) &&
    !/^(?:every|some|no|any)(?:thing|one|body)|^(?:weather|life|world|traffic)\b/i.test(sentence)
  )
    return `my ${lower}`;
  // Before a comma only a verb's shapes are read ("still selling cars at Khumalo, no
  // complaints"): "busy week, lots of meetings" is no state put back.
  if (/,/.test(sentence)) {
    const head = terms.slice(0, headLength(sentence));
    if (opensWithChangeVerb(head)) return `I ${lower}`;
    if (opensWithGerund(head)) return `I'm ${lower}`;
    return null;
  }
  if (opensWithChangeVerb(terms)) return `I ${lower}`;
  const role = roleRun(terms);
  // Verbless past the role's own words ("head" read as a verb is the noun there).
  if (role !== null && verbless(terms.slice(role.length)))
    return `I'm ${/^[aeiou]/i.test(sentence) ? "an" : "a"} ${lower}`;
  const state = stateOpener(terms);
  if (state !== null && verbless(terms.slice(state))) return `I'm ${lower}`;
  if (opensWithStateAdjective(terms)) return `I'm ${lower}`;
  if (opensWithPlainVerb(terms)) return `I ${lower}`;
  if (opensWithGerund(terms)) return `I'm ${lower}`;
  return null;
}

/** How many words come before a sentence's first comma. */
function headLength(sentence: string): number {
  return sentence.slice(0, sentence.indexOf(",")).split(/\s+/).filter(Boolean).length;
}

/**
 * Whether a fragment has no verb at all: "fizzy drinks", "paper round", "coeliac", "turkish
 * classes".
 */
export function verblessFragment(tagged: Tagged): boolean {
  const terms = termsOf(tagged);
  return terms.length > 0 && noVerbAtAll(terms);
}

/**
 * Strictly verbless: a word read as a verb counts as one unless the tagger also reads it as a
 * noun ("have" and "love" can name persons in WordNet, and are verbs in "I love it").
 */
function noVerbAtAll(terms: Term[]): boolean {
  return !terms.some((t, i) => t.tags.has("Verb") && !t.tags.has("Noun") && !nounGerund(terms, i));
}

/**
 * A gerund with nothing it governs names an activity: "engineering", "swimming", "running shoes".
 * Before a preposition, a determiner, an adverb or a pronoun it is a verb ("renting in hanoi").
 */
function nounGerund(terms: Term[], i: number): boolean {
  if (!terms[i]!.tags.has("Gerund")) return false;
  const next = terms[i + 1];
  return (
    !next || !["Preposition", "Determiner", "Adverb", "Pronoun", "Possessive"].some((t) => next.tags.has(t))
  );
}

/**
 * A detail that follows a terse fragment in the same turn: verbless ("2 cans a day", "mornings,
 * before school"), or a participle with its time ("diagnosed 2016"), and short.
 */
export function fragmentDetail(sentence: string, tagged: Tagged): boolean {
  const terms = termsOf(tagged);
  if (terms.length === 0 || terms.length > MAX_DETAIL_WORDS) return false;
  // A fragment that says a fact of its own ("team leader at Redmesa") stands alone; one word
  // ("girl.", "nurse.") says more of the fragment before it.
  if (terms.length > 1 && withSpeakerRestored(sentence, tagged) !== null) return false;
  if (noVerbAtAll(terms)) return true;
  const [first, ...rest] = terms;
  const participle = first!.tags.has("PastTense") || first!.tags.has("Participle");
  return participle && rest.length <= 2 && noVerbAtAll(rest);
}

/** Most words in a detail that joins a terse fragment ("cetirizine, daily", "2 cans a day"). */
const MAX_DETAIL_WORDS = 5;

/**
 * "renting in hanoi", "bouldering now", "training for a 10k": a gerund opening a fragment with no
 * other verb, then a preposition, adverb or determiner; the speaker dropped "I'm". A gerund as the
 * subject of a verb ("running helps") has one.
 */
function opensWithGerund(terms: Term[]): boolean {
  // "still selling cars at Khumalo Motors": an adverb of aspect first makes the gerund a verb.
  let at = 0;
  while (at < terms.length && ASPECT_ADVERB.test(terms[at]!.text)) at++;
  const [first, second] = [terms[at], terms[at + 1]];
  if (!first || !second || !first.tags.has("Gerund")) return false;
  // Otherwise a gerund right before a noun names a kind of thing ("billing software").
  const verbal =
    at > 0 || ["Preposition", "Adverb", "Determiner", "Possessive"].some((t) => second.tags.has(t));
  return verbal && verbless(terms.slice(at + 1));
}

/**
 * "allergic to wasps", "married to a chef", "scared of heights": an adjective and the
 * preposition it takes, then what it is about; the speaker's own state.
 */
function opensWithStateAdjective(terms: Term[]): boolean {
  const [first, second, third] = terms;
  if (!first || !second || !third) return false;
  if (!first.tags.has("Adjective") || first.tags.has("Comparative") || first.tags.has("Superlative"))
    return false;
  const preposition = second.tags.has("Preposition") || second.text === "to";
  return preposition && (third.tags.has("Noun") || third.tags.has("Determiner"));
}

/**
 * "have a dog", "work at teva", "carry an epipen": a verb in its plain form opening the turn's
 * sentence, then something it governs that is a thing (a determiner, a noun or a preposition);
 * the speaker dropped "I". A wish to the listener is left alone: its thing is a stretch of time
 * ("have a nice day", "enjoy the weekend"), and the shortest ones ("take care") have no third word.
 */
function opensWithPlainVerb(terms: Term[]): boolean {
  const [first, second] = terms;
  if (!first || !second || terms.length < 3) return false;
  if (!first.tags.has("Verb") || !(first.tags.has("Infinitive") || first.tags.has("Imperative")))
    return false;
  if (["Gerund", "Auxiliary", "Modal", "Copula", "PastTense", "Participle"].some((t) => first.tags.has(t)))
    return false;
  if (!(second.tags.has("Determiner") || second.tags.has("Noun") || second.tags.has("Preposition")))
    return false;
  if (second.tags.has("Pronoun")) return false;
  const thing = terms.slice(1).find((t) => t.tags.has("Noun"));
  return !thing || !(thing.tags.has("Date") || thing.tags.has("Duration"));
}

interface Term {
  text: string;
  tags: Set<string>;
}

function termsOf(tagged: Tagged): Term[] {
  return (tagged.json() as { text: string; terms: { tags: string[] }[] }[]).map((t) => ({
    text: t.text.replace(/[^\p{L}\p{N}'-]+$/u, "").toLowerCase(),
    tags: new Set(t.terms[0]?.tags ?? []),
  }));
}

/**
 * A word the tagger read as a verb that WordNet also knows as a person noun ("head", "lead",
 * "volunteer"): in a verbless fragment it is the noun.
 */
function nounAlso(term: Term): boolean {
  return inWordField(stem(term.text), "noun.person");
}

/**
 * "team lead at Redmesa", "dept head now", "volunteer at the food bank", "driver": up to
 * MAX_ROLE_WORDS words with no determiner, pronoun, possessive or number, the last of which can
 * name a person, then the end or a preposition or adverb.
 */
function roleRun(terms: Term[]): Term[] | null {
  let end = terms.findIndex((t) => t.tags.has("Preposition") || t.tags.has("Adverb") || t.text === "now");
  if (end === -1) end = terms.length;
  if (end === 0 || end > MAX_ROLE_WORDS) return null;
  const run = terms.slice(0, end);
  if (
    run.some((t) =>
      ["Determiner", "Pronoun", "Possessive", "Value", "Date", "Conjunction", "QuestionWord"].some((tag) =>
        t.tags.has(tag),
      ),
    )
  )
    return null;
  // Every word a noun or its modifier; a word read as a verb only where it can name a person.
  if (run.some((t) => t.tags.has("Verb") && !nounAlso(t))) return null;
  const head = run.at(-1)!;
  if (!head.tags.has("Noun") && !head.tags.has("Verb")) return null;
  // "engineering" stems to "engineer": a gerund names an activity, not a person. One has a role;
  // a plural ("twin boys") names others.
  if (head.tags.has("Gerund") || head.text.endsWith("ing") || head.tags.has("Plural")) return null;
  return inWordField(stem(head.text), "noun.person") ? run : null;
}

/** No verb but a noun the tagger misread ("bank on Saturdays" as a phrasal verb and its particle). */
function verbless(terms: Term[]): boolean {
  return !terms.some(
    (t) => t.tags.has("Verb") && !t.tags.has("Noun") && !t.tags.has("Particle") && !nounAlso(t),
  );
}

/**
 * "no longer at the food bank", "back from Lisbon", "at the tram depot now": adverbs, then a
 * state preposition and its object. The index of the preposition, or null.
 */
function stateOpener(terms: Term[]): number | null {
  let i = 0;
  // Aspect adverbs open a state ("still at", "back from") however the tagger reads them.
  const opener = (t: Term) =>
    (t.tags.has("Adverb") || ASPECT_ADVERB.test(t.text)) && !STATE_PREPOSITION.test(t.text);
  while (i < terms.length && opener(terms[i]!)) i++;
  const prep = terms[i];
  if (!prep || !STATE_PREPOSITION.test(prep.text)) return null;
  // "At 6am every day", "In 2019": a time is not a place one is at.
  const object = terms.slice(i + 1).find((t) => !t.tags.has("Determiner"));
  if (!object || ["Date", "Time", "Value", "Pronoun"].some((tag) => object.tags.has(tag))) return null;
  return i;
}

/**
 * A fragment that opens with a phrasal verb ("cut out sugar", "signed up for a 10k") or a verb
 * of stopping or changing (WordNet's classes in the lexicon), not a gerund and not a form with
 * an "-s" (those drop "it": "sounds great").
 */
function opensWithChangeVerb(terms: Term[]): boolean {
  const first = terms[0]!;
  if (!first.tags.has("Verb") || first.tags.has("Gerund") || first.tags.has("Auxiliary")) return false;
  if (first.tags.has("PresentTense") && !first.tags.has("Infinitive")) return false;
  if (first.tags.has("PhrasalVerb") && terms[1]?.tags.has("Particle")) return true;
  return inVerbClass(first.text, "stop") || inVerbClass(first.text, "change");
}
