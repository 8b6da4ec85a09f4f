/**
 * A statement cut from its turn loses what its pronoun stood for: "My daughter painted this. She
 * loves watercolours" gives "She loves watercolours", which names no one and is not kept. The
 * summarizer carries the last person a turn mentioned from clause to clause and puts them back
 * in place of a subject "he", "she" or "they" that agrees with them, or of a possessive opening the
 * subject ("His shifts are long"), so the fact stays self-contained ("My daughter loves
 * watercolours", "Xosé's shifts are long"). A person is a name the tagger reads as one,
 * or "my"/"our" and a noun that can name a person (WordNet's noun.person), with a name after it
 * if one follows ("my friend Tom"). Gender and number come from the noun when it has them
 * ("sister", "sons"); a name agrees with "he" or "she", never with "they".
 */
import { stem } from "../../core/text.js";
import { inWordField } from "./lexicon.js";
import { nlp } from "./nlp.js";

export interface Antecedent {
  /** The words that name the person, as said ("my daughter", "Tom"). */
  text: string;
  /** Which subject pronouns may stand for them. */
  agrees: Set<"he" | "she" | "they">;
}

const FEMALE =
  /^(?:daughter|sister|mother|mom|mum|wife|girlfriend|aunt|niece|grandmother|grandma|granny|girl|woman|lady|fiancee|stepmother|stepdaughter)s?$/i;
const MALE =
  /^(?:son|brother|father|dad|husband|boyfriend|uncle|nephew|grandfather|grandpa|boy|man|guy|fiance|stepfather|stepson)s?$/i;
/** Plurals a "they" agrees with that do not end in -s. */
const PLURAL = /^(?:children|kids|people|parents|folks|twins|grandchildren|men|women)$/i;

/** The last person `text` mentions, other than `speaker` and `listener`; null if none. */
export function lastPersonIn(text: string, speaker: string, listener: string | null): Antecedent | null {
  let found: { at: number; end: number; antecedent: Antecedent } | null = null;
  const doc = nlp(text);
  const terms = (doc.terms().json() as { text: string; terms: { tags: string[] }[] }[]).map((t) => ({
    word: t.text.replace(/[^\p{L}'-]+$/u, ""),
    tags: new Set(t.terms[0]?.tags ?? []),
  }));
  let offset = 0;
  for (const [p, term] of terms.entries()) {
    const at = text.indexOf(term.word, offset);
    offset = at >= 0 ? at + term.word.length : offset;
    if (!/^(?:my|our)$/i.test(term.word)) continue;
    // The head of the noun phrase after "my": the last person noun among the nouns and adjectives
    // that follow ("my best friend" is a friend), then a name right after it ("my friend Tom").
    let head = -1;
    for (let k = p + 1; k < terms.length && k <= p + 3; k++) {
      const t = terms[k]!;
      if (!/^[a-z]+$/.test(t.word) || !(t.tags.has("Noun") || t.tags.has("Adjective"))) break;
      if (t.tags.has("Noun") && inWordField(stem(t.word), "noun.person")) head = k;
    }
    if (head === -1) continue;
    const noun = terms[head]!.word;
    const next = terms[head + 1];
    const name = next && /^\p{Lu}/u.test(next.word) && next.tags.has("ProperNoun") ? next.word : undefined;
    const phrase = [
      term.word,
      ...terms.slice(p + 1, head + 1).map((t) => t.word),
      ...(name ? [name] : []),
    ].join(" ");
    const plural = !name && (PLURAL.test(noun) || (/s$/i.test(noun) && !/ss$/i.test(noun)));
    const agrees = new Set<"he" | "she" | "they">(
      plural ? ["they"] : FEMALE.test(noun) ? ["she"] : MALE.test(noun) ? ["he"] : name ? ["he", "she"] : [],
    );
    if (agrees.size > 0) found = { at, end: at + phrase.length, antecedent: { text: phrase, agrees } };
  }
  const others = new Set([speaker, listener ?? ""].map((p) => p.toLowerCase()));
  for (const person of doc.people().json() as { text: string; offset?: { start: number } }[]) {
    const name = person.text.replace(/[^\p{L}' -]+$/u, "").trim();
    if (!name || others.has(name.toLowerCase()) || /^(?:i|me|my)$/i.test(name)) continue;
    const at = text.indexOf(name);
    // A name inside "my friend Ana" is that phrase's, which says more.
    if (!found || at >= found.end)
      found = { at, end: at + name.length, antecedent: { text: name, agrees: new Set(["he", "she"]) } };
  }
  return found?.antecedent ?? null;
}

const SUBJECT = /^(he|she|they)(?:['’](s|re|ll|ve)\b|\b(?!['’]))/i;

/** A contraction written out after a name ("she's got" -> "has got", "they're" -> "are"). */
function verbOf(contraction: string | undefined, rest: string): string {
  if (!contraction) return "";
  if (contraction === "s") return /^\s+(?:been|got|gotten|had)\b/i.test(rest) ? " has" : " is";
  return { re: " are", ll: " will", ve: " have" }[contraction.toLowerCase()] ?? "";
}

/** A possessive opening the clause's subject: "His shifts are long", "Their flat is tiny". */
const POSSESSIVE = /^(his|her|their)\s+(?=\p{L})/iu;
const OWNER = { his: "he", her: "she", their: "they" } as const;

/**
 * The clause with a subject pronoun (or a possessive opening its subject) that agrees with
 * `antecedent` replaced by it ("His shifts…" -> "Xosé's shifts…"); else as it was.
 */
export function withAntecedent(clause: string, antecedent: Antecedent | null): string {
  if (!antecedent) return clause;
  const owner = POSSESSIVE.exec(clause);
  if (owner) {
    if (!antecedent.agrees.has(OWNER[owner[1]!.toLowerCase() as keyof typeof OWNER])) return clause;
    const text = `${antecedent.text}'s ${clause.slice(owner[0].length)}`;
    return text[0]!.toUpperCase() + text.slice(1);
  }
  const m = SUBJECT.exec(clause);
  if (!m) return clause;
  const pronoun = m[1]!.toLowerCase() as "he" | "she" | "they";
  if (!antecedent.agrees.has(pronoun)) return clause;
  const rest = clause.slice(m[0].length);
  const text = `${antecedent.text}${verbOf(m[2], rest)}${rest}`;
  return text[0]!.toUpperCase() + text.slice(1);
}
