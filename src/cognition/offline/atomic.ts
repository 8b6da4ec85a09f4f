/**
 * Compound sentences into atomic ones, so that one memory holds one fact and an update to one
 * fact does not retire another (CareCall replaces whole sentences: "I live in Leeds with my dog
 * Biscuit" replaced by "I moved to Bristol" would lose the dog).
 *
 * Two constructions are split, both by grammar rather than by topic:
 * - coordinated clauses ("…, and he works…", "…; I also…", "… but works…") where each side has
 *   its own verb; a second clause without a subject borrows the first one's;
 * - a companion named inside another fact ("with my dog Biscuit", "with her husband Tom"), which
 *   becomes its own sentence ("I have a dog called Biscuit").
 */
import { nlp } from "./nlp.js";

/** A joint between clauses; an adverb after it ("and also", "and now") belongs to the second one. */
const JOINT = /\s*(?:;|,?\s+(?:and|but)\s+(?:then\s+|(also|now)\s+)?)\s*/g;
const COMPANION =
  /,?\s+(?:together\s+)?with\s+(my|his|her|their|our)\s+((?:[a-z]+\s+){0,2}?[a-z]+),?\s+(?:called\s+|named\s+)?([A-Z][a-z]+)\b((?:,\s+(?:a|an|the)\s+[^,.;!?]+)?)/;

const PREPOSITIONS = new Set(["in", "at", "on", "to", "from", "near", "for", "of", "by", "into", "over"]);

export function atomicClauses(sentence: string): string[] {
  const trimmed = sentence.trim();
  const out: string[] = [];
  for (const clause of splitCoordinated(trimmed)) out.push(...splitCompanion(clause));
  return out.length ? out : [trimmed];
}

function hasVerb(text: string): boolean {
  return nlp(text).verbs().length > 0;
}

/** The words before the first verb: the clause's subject ("My sister", "I", "Sam"). */
function subjectOf(clause: string): string {
  const verb = nlp(clause).verbs().first().text();
  const at = verb ? clause.indexOf(verb) : -1;
  return at > 0 ? clause.slice(0, at).trim() : "";
}

function startsWithVerb(clause: string): boolean {
  const first = nlp(clause).terms().first();
  return first.has("#Verb") && !first.has("#Pronoun");
}

function splitCoordinated(sentence: string): string[] {
  const parts: string[] = [];
  let rest = sentence;
  for (;;) {
    JOINT.lastIndex = 0;
    let split: { left: string; right: string; adverb: string } | null = null;
    for (let m = JOINT.exec(rest); m; m = JOINT.exec(rest)) {
      const left = rest.slice(0, m.index).trim();
      const right = rest.slice(m.index + m[0].length).trim();
      // Both sides must be clauses of their own; "cats and dogs" or "rock and roll" stay whole.
      if (
        left.split(/\s+/).length >= 2 &&
        right.split(/\s+/).length >= 2 &&
        hasVerb(left) &&
        hasVerb(right)
      ) {
        split = { left, right, adverb: m[1] ? `${m[1]} ` : "" };
        break;
      }
    }
    if (!split) break;
    parts.push(finish(split.left));
    const subject = subjectOf(split.left);
    // "also" adds and "now" changes: either stays with its clause ("I sing in a choir too",
    // "Now I teach yoga"), placed where turning "I" into the person's name keeps the verb agreeing.
    const clause = startsWithVerb(split.right) && subject ? `${subject} ${split.right}` : split.right;
    rest =
      split.adverb === "also "
        ? `${capitalise(clause.replace(/[\s.!?]+$/, ""))} too.`
        : capitalise(`${split.adverb}${clause}`);
  }
  parts.push(finish(rest));
  return parts;
}

function splitCompanion(clause: string): string[] {
  const m = COMPANION.exec(clause);
  if (!m || m[2]!.split(/\s+/).some((w) => PREPOSITIONS.has(w))) return [clause];
  const subject = subjectOf(clause);
  if (!subject) return [clause];
  const main = finish(clause.replace(m[0], ""));
  // What is left must still say something ("I live in Leeds", not "I live").
  if (main.split(/\s+/).length < 4) return [clause];
  const have = /^(i|we|you|they)$/i.test(subject) ? "have" : "has";
  return [main, `${subject} ${have} a ${m[2]} called ${m[3]}${m[4] ?? ""}.`];
}

function finish(clause: string): string {
  const text = clause.replace(/[\s,;:]+$/, "");
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function capitalise(text: string): string {
  return text[0] ? text[0].toUpperCase() + text.slice(1) : text;
}
