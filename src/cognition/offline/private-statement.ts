/**
 * Whether a statement is private: the speaker asks that it go no further ("between us", "don't
 * tell anyone"), or it is sensitive by kind (credentials and codes, contact details, health, money,
 * relationship and family trouble, legal trouble). The offline engine's reading; the LLM engine's
 * summarizing steps say it themselves, and either one suffices to keep a memory with its speaker.
 *
 * A tokenizer and lexicon look-ups, linear in the text, and only its first MAX_CHARS characters:
 * the kinds are WordNet classes (private-lexicon.ts); a request is a parse of a few shapes over
 * WordNet's verbs of telling and knowing and its secrecy words: a telling verb under a negation or
 * prohibition with a recipient other than the listener ("don't mention it to anyone"), "keep" or
 * "stay" with this/it and a secrecy word or a place ("keep it quiet", "this stays with you"), a
 * secrecy word used of the statement ("in confidence", "our little secret", not "a secret
 * ingredient"), and others not knowing ("nobody knows yet", "my parents don't know").
 */
import { stem } from "../../core/text.js";
import { verbAspect } from "./lexicon.js";
import { classesOf, lemmas, privacyLexicon, wordInfo } from "./private-lexicon.js";

/** Why a statement is private: the speaker's request, or the sensitive kind it is. */
export type PrivateReason =
  | "request"
  | "credential"
  | "contact"
  | "health"
  | "money"
  | "relationship"
  | "legal";

/** What the detector read in one statement. */
export interface PrivateReading {
  /** The reasons found, request first; empty when the statement is ordinary. */
  reasons: PrivateReason[];
  /** True when the statement is nothing but a request (its fact is in a neighbouring turn). */
  requestOnly: boolean;
}

/** Only this much of a text is read: a turn longer than this is read by its beginning. */
const MAX_CHARS = 4000;

interface Token {
  /** Lowercase word, number or punctuation mark. */
  w: string;
  start: number;
  end: number;
  /** Index of its clause (split at , ; : dashes and sentence ends). */
  clause: number;
}

const TOKEN = /[a-z0-9]+(?:'[a-z]+)?|[^\sa-z0-9]/g;
const CLAUSE_BREAK = new Set([",", ";", ":", "—", "–", "(", ")", ".", "!", "?", "-"]);

function tokenize(text: string): Token[] {
  const lower = text.slice(0, MAX_CHARS).toLowerCase().replace(/[’‘]/g, "'");
  const out: Token[] = [];
  let clause = 0;
  for (const m of lower.matchAll(TOKEN)) {
    const w = m[0];
    const start = m.index ?? 0;
    // A hyphen inside a word ("6-0-2-9", "mother-in-law") does not break a clause.
    const inside = w === "-" && lower[start - 1] !== " " && lower[start + 1] !== " ";
    if (CLAUSE_BREAK.has(w) && !inside) {
      out.push({ w, start, end: start + w.length, clause });
      clause++;
      continue;
    }
    out.push({ w, start, end: start + w.length, clause });
  }
  return out;
}

const NEGATORS = new Set([
  "don't",
  "dont",
  "not",
  "never",
  "no",
  "haven't",
  "havent",
  "hasn't",
  "won't",
  "wont",
  "didn't",
  "didnt",
  "doesn't",
  "don",
  "nobody",
]);
/** Whoever might be told: anyone but the listener. */
const RECIPIENTS = new Set([
  "anyone",
  "anybody",
  "nobody",
  "everyone",
  "everybody",
  "others",
  "people",
  "ppl",
  "him",
  "her",
  "them",
  "soul",
  "team",
  "family",
  "parents",
  "colleagues",
  "boss",
  "friends",
  "mum",
  "dad",
  "wife",
  "husband",
]);
const KEEP = new Set(["keep", "keeping", "kept", "stay", "stays", "stayed", "remain", "remains", "treat"]);
const SECRET_WORDS = new Set(["secret", "secrecy", "confidence", "confidential", "confidentially"]);
const LISTENER = new Set(["you", "u", "ya"]);
const DEMONSTRATIVES = new Set(["this", "it", "that", "these", "things", "anything"]);
const SELF = new Set(["i", "i'm", "im", "we", "you", "u"]);
const IDIOMS = [
  /\bbetween (?:you and me|you and i|us|ourselves|the two of us)\b/,
  /\boff the record\b/,
  /\bmum'?s the word\b/,
  /\bon the (?:dl|down ?low|quiet)\b/,
  /\bunder (?:your|ur) hat\b/,
  /\bshh+\b/,
  /\b(?:no|nobody|no one|no-one)(?: else)? (?:needs to|has to|should|must)\b/,
];
const CONTENT = /[a-z]{3,}/;
const FUNCTION_WORDS = new Set([
  "please",
  "pls",
  "plz",
  "but",
  "and",
  "so",
  "the",
  "this",
  "that",
  "for",
  "now",
  "yet",
  "though",
  "tho",
  "ok",
  "okay",
  "yeah",
  "lol",
  "thanks",
  "about",
  "just",
  "all",
  "really",
  "right",
]);

/** Clause indexes that carry a request for secrecy. */
function requestClauses(tokens: Token[], lower: string): Set<number> {
  const found = new Set<number>();
  const n = tokens.length;
  for (let i = 0; i < n; i++) {
    const t = tokens[i]!;
    const w = t.w;
    if (w.length < 2 || (w.charCodeAt(0) >= 48 && w.charCodeAt(0) <= 57)) continue;
    const info = wordInfo(w);
    const cue =
      info.telling ||
      info.classes?.includes("knowing") ||
      KEEP.has(w) ||
      w === "let" ||
      w === "pass" ||
      SECRET_WORDS.has(w);
    if (!cue) continue;
    const prev = (k: number) => tokens[i - k]?.w ?? "";
    const next = (k: number) => (tokens[i + k]?.clause === t.clause ? (tokens[i + k]?.w ?? "") : "");
    // A verb of telling, negated or forbidden, with someone other than the listener to tell.
    if (
      !KEEP.has(w) &&
      (info.telling || (w === "let" && next(2) === "slip") || (w === "pass" && next(2) === "on"))
    ) {
      let negated = false;
      for (let k = 1; k <= 3; k++)
        if (NEGATORS.has(prev(k)) && tokens[i - k]?.clause === t.clause) negated = true;
      if (!negated) continue;
      let recipient = false;
      let listener = false;
      for (let k = 1; k <= 5; k++) {
        const x = next(k);
        if (LISTENER.has(x)) listener = true;
        if (RECIPIENTS.has(x) || DEMONSTRATIVES.has(x) || x === "word" || x === "anything") recipient = true;
      }
      const forbidding = /^(?:please|pls|plz|kindly)$/.test(prev(2)) || /^(?:please|pls|plz)$/.test(prev(3));
      if (!listener && (recipient || forbidding)) {
        // "I didn't tell him the ending": a told past fact, unless no one else has been told.
        const past = /^(?:didn't|didnt)$/.test(prev(1)) && !RECIPIENTS.has(next(1));
        if (!past) found.add(t.clause);
      }
      continue;
    }
    // Coming to know, negated, for someone other than the speaker and the listener.
    if (info.classes?.includes("knowing") && w !== "see" && w !== "find") {
      const k1 = prev(1);
      const k2 = prev(2);
      const nobody =
        /^(?:nobody|noone)$/.test(k1) ||
        (k1 === "one" && k2 === "no") ||
        (k1 === "else" && /^(?:nobody|one)$/.test(k2));
      const negated = /^(?:don't|dont|doesn't|doesnt|didn't|didnt|not|never)$/.test(k1);
      let subject = "";
      for (let k = negated ? 2 : 1; k <= 4; k++) {
        const x = prev(k);
        if (x === "do" || x === "does" || x === "yet") continue;
        subject = x;
        break;
      }
      if (nobody || (negated && subject && !SELF.has(subject) && /^[a-z']+$/.test(subject)))
        found.add(t.clause);
      continue;
    }
    // Keep / stay / remain with the statement and a secrecy word or a place to stay in.
    if (
      w === "keep" ||
      w === "keeping" ||
      w === "kept" ||
      w === "stay" ||
      w === "stays" ||
      w === "stayed" ||
      w === "remain" ||
      w === "remains" ||
      w === "treat"
    ) {
      const keep = w.startsWith("keep") || w === "kept" || w === "treat";
      const hasObject = DEMONSTRATIVES.has(next(1)) && next(1) !== "anything";
      const subjectIsIt = DEMONSTRATIVES.has(prev(1)) || DEMONSTRATIVES.has(prev(2));
      if (keep ? !hasObject : !subjectIsIt) continue;
      for (let k = keep ? 2 : 1; k <= 6; k++) {
        const x = next(k);
        if (!x) break;
        if (wordInfo(x).secrecy || /^(?:between|with|to|2|in|under|on|within)$/.test(x)) {
          if (x === "in" && !/^(?:the|confidence)$/.test(next(k + 1))) break;
          found.add(t.clause);
          break;
        }
      }
      continue;
    }
    // A secrecy word said of the statement: "in confidence", "our little secret", "confidentially".
    if (/^(?:secret|secrecy|confidence|confidential|confidentially)$/.test(w)) {
      const before = prev(1);
      if (/^(?:no|a|the|any|great|self|keep|of|my|his|her|their)$/.test(before)) continue;
      if (w === "confidence" && !/^(?:in|strict|total|complete)$/.test(before)) continue;
      if (
        w === "secret" &&
        !/^(?:is|be|our|little|still|it's|its|a|s)$/.test(before) &&
        tokens[i - 1]?.clause === t.clause
      )
        continue;
      const after = next(1);
      if (
        w === "secret" &&
        after &&
        /^[a-z]+$/.test(after) &&
        !FUNCTION_WORDS.has(after) &&
        after !== "still"
      )
        continue;
      found.add(t.clause);
    }
  }
  if (/between|record|word|dl|down|hat|shh|no/.test(lower))
    for (const idiom of IDIOMS) {
      const m = idiom.exec(lower);
      if (m) {
        const at = m.index;
        const tok = tokens.find((x) => x.end > at);
        if (tok) found.add(tok.clause);
      }
    }
  return found;
}

/** Topic phrase before a word: "a documentary about …", "a lecture on …", "the history of …". */
function inTopicPhrase(tokens: Token[], i: number): boolean {
  const clause = tokens[i]!.clause;
  for (let k = i - 1; k >= Math.max(0, i - 6); k--) {
    const t = tokens[k]!;
    if (t.clause !== clause) return false;
    if (/^(?:about|on|of|regarding|re)$/.test(t.w)) {
      const head = tokens[k - 1]?.w ?? "";
      if (head === "history" || classesOf(head)?.includes("topic")) return true;
    }
  }
  return false;
}

/** Words that open a verb's object: "owe the bank", "owe him". */
const OBJECT_START = new Set([
  "the",
  "a",
  "my",
  "him",
  "her",
  "them",
  "me",
  "you",
  "us",
  "money",
  "everyone",
]);
const SECRET_VALUE = /^(?=.*\d)[^\s]{3,}$|^(?=.*[a-z])(?=.*\d)\S+$/i;
const CREDENTIAL_HEADS = new Set(["code", "combination", "keypad", "login", "pw", "passcode", "pin"]);

function kindsOf(text: string, tokens: Token[]): Set<PrivateReason> {
  const kinds = new Set<PrivateReason>();
  const lower = text.slice(0, MAX_CHARS).toLowerCase();
  if (
    /[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z.]{2,}/.test(lower) ||
    /(?:\+?\d[\d ().-]{8,}\d)/.test(lower.replace(/\d{4}-\d{2}-\d{2}/g, ""))
  )
    kinds.add("contact");
  const n = tokens.length;
  for (let i = 0; i < n; i++) {
    const w = tokens[i]!.w;
    if (w.length < 2 || /^\d/.test(w)) {
      // A house number, a street name, a kind of road: "14 Elm Street".
      if (/^\d{1,5}[a-z]?$/.test(w))
        for (let k = 2; k <= 4; k++) {
          const x = tokens[i + k]?.w ?? "";
          if (classesOf(x)?.includes("street") && /^[a-z]+$/.test(tokens[i + 1]?.w ?? ""))
            kinds.add("contact");
        }
      continue;
    }
    const pair = i + 1 < n && privacyLexicon().firstWords.has(w) ? `${w} ${tokens[i + 1]!.w}` : "";
    let classes = (pair && privacyLexicon().classes.get(pair)) || classesOf(w);
    // A short word is a term only when written as one: "HIV", "IBS", not "or".
    if (
      classes &&
      w.length < 4 &&
      !CREDENTIAL_HEADS.has(w) &&
      text.slice(tokens[i]!.start, tokens[i]!.end) !== w.toUpperCase() &&
      !OBJECT_START.has(tokens[i + 1]?.w ?? "")
    )
      classes = undefined;
    // A password, PIN or code followed by its value.
    if (classes?.includes("credential") || CREDENTIAL_HEADS.has(w)) {
      const raw = text.slice(tokens[i]!.end, tokens[i]!.end + 60);
      const words = raw.split(/\s+/).slice(0, 7);
      if (
        words.some(
          (x) =>
            SECRET_VALUE.test(x.replace(/[.,;]$/, "")) &&
            /\d/.test(x) &&
            !/^\d{1,2}(?:am|pm|st|nd|rd|th)?$/i.test(x),
        )
      )
        kinds.add("credential");
      continue;
    }
    if (!classes) continue;
    if (classes.includes("residence")) {
      for (let k = 1; k <= 4; k++) {
        const x = tokens[i + k]?.w ?? "";
        if (
          x === "ran" ||
          x === "run" ||
          verbAspect(stem(x)) === "end" ||
          /^(?:expired|expire|expires|finished|over)$/.test(x)
        )
          kinds.add("legal");
      }
      continue;
    }
    for (const c of classes)
      if (
        (c === "health" || c === "money" || c === "relationship" || c === "legal") &&
        !inTopicPhrase(tokens, i)
      )
        kinds.add(c);
  }
  return kinds;
}

const ORDER: PrivateReason[] = [
  "request",
  "credential",
  "contact",
  "health",
  "money",
  "relationship",
  "legal",
];

/** Reads one statement. */
export function readPrivate(text: string): PrivateReading {
  const tokens = tokenize(text);
  const lower = tokens.length ? text.slice(0, MAX_CHARS).toLowerCase().replace(/[’‘]/g, "'") : "";
  const requests = requestClauses(tokens, lower);
  const kinds = kindsOf(text, tokens);
  if (requests.size > 0) kinds.add("request");
  const reasons = ORDER.filter((r) => kinds.has(r));
  let requestOnly = false;
  if (requests.size > 0) {
    requestOnly = !tokens.some(
      (t) =>
        !requests.has(t.clause) &&
        CONTENT.test(t.w) &&
        !FUNCTION_WORDS.has(t.w) &&
        !lemmas(t.w).some((l) => l === "please"),
    );
  }
  return { reasons, requestOnly };
}

/** The statement with its request for secrecy taken out, so a memory never carries it. */
export function withoutPrivacyRequest(text: string): string {
  const tokens = tokenize(text);
  const lower = text.slice(0, MAX_CHARS).toLowerCase().replace(/[’‘]/g, "'");
  const requests = requestClauses(tokens, lower);
  if (requests.size === 0) return text;
  // Character ranges of each clause (with its closing mark), dropped when it is a request.
  const pieces: { text: string; drop: boolean }[] = [];
  let from = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const last = i === tokens.length - 1 || tokens[i + 1]!.clause !== t.clause;
    if (!last) continue;
    const end = i === tokens.length - 1 ? Math.max(t.end, Math.min(text.length, MAX_CHARS)) : t.end;
    pieces.push({ text: text.slice(from, end), drop: requests.has(t.clause) });
    from = end;
  }
  const rest = text.slice(from);
  let out = "";
  let endMark = "";
  for (const p of pieces) {
    const mark = /[.!?]\s*$/.exec(p.text)?.[0] ?? "";
    if (p.drop) {
      if (mark && out) endMark = mark.trim();
      continue;
    }
    out += p.text;
    if (mark) endMark = "";
  }
  out = out + rest;
  out = out
    .replace(/^[\s,;:—–-]+/, "")
    .replace(/^(?:but|and|so|although|though|tho)\b[\s,]*/i, "")
    .replace(/[\s,;:—–-]+$/, "")
    .replace(/\s+([,.;!?])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .replace(/([,;])\s*(?:but|and|so|although|though)\s*$/i, "")
    .trim();
  if (endMark && !/[.!?]$/.test(out)) out += endMark;
  else if (/[.!?]\s*$/.test(text) && !/[.!?]$/.test(out)) out += ".";
  if (/^[A-Z]/.test(text.trimStart()) && out) out = out[0]!.toUpperCase() + out.slice(1);
  return out;
}
