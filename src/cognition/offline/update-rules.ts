/**
 * The obvious rules of keeping memory current, decided before any operator or model: how a new
 * statement about a person bears on one memory of theirs.
 *   - same: the same fact again (the same words, or other words with the same names, numbers and
 *     polarity, and no word of change; a part of the memory said again; "still" with half its
 *     words; once more, "again"): no new memory; the memory gains the new evidence. The memory
 *     said whole within more words is the same fact too, and the statement takes its place
 *     (restated.ts).
 *   - stop: the statement puts an end to what the memory holds ("quit", "gave up", "cancelled",
 *     "no longer", "not … any more"): the memory retires and the stop is kept as its own memory.
 *   - change: the statement leaves one state for another ("switched", "moved", "sold … bought",
 *     "replaced … with", "now", "these days", "instead", a new role for the person) on the
 *     memory's topic: the memory retires, the statement is kept.
 *   - addition: the statement adds to what the memory holds ("another", "a second", "also",
 *     "too", "as well", "my other", or a new name beside the memory's under the same noun, "my
 *     friend Tom" beside "my friend Ana"): both stay.
 * Each is a mechanism over the statement's reading (statement-reading.ts: its parse, frame.ts,
 * and the phrases its verbs govern), WordNet's verb classes (stopping
 * and changing verbs, `update` in data/lexicon/wordnet.json, built by lab/train/build-lexicon.ts)
 * and English's closed classes of determiners and adverbs, not a list of example sentences.
 * Anything else is left to the operator (null).
 */
import { escapeRegExp, stem } from "../../core/text.js";
import { coverage } from "./frame.js";
import {
  expandBroader,
  expandSynonyms,
  inVerbClass,
  inWordField,
  LIGHT_VERBS,
  lemmaCount,
  lexicalRelations,
  slotsOf,
  verbAspect,
} from "./lexicon.js";
import { anotherTime, fuller, again as onceMore, withNamesSpelledAs } from "./restated.js";
import {
  ACQUIRE,
  asVerb,
  denial,
  FROM_END,
  governed,
  heldBy,
  liveStop,
  ownSubject,
  partedWith,
  parting,
  REPLACED_END,
  type Reading,
  read,
  sameSubject,
  stopVerbsOf,
  subjectOf,
  TIME_WORDS,
  verbOf,
  verbPattern,
} from "./statement-reading.js";

export type UpdateRuleName = "same" | "stop" | "change" | "addition";

export interface UpdateRuleMatch {
  rule: UpdateRuleName;
  /** Why, in a sentence, for the operation log. */
  why: string;
  /**
   * A "same" whose statement says the memory and more (restated.ts): the statement takes the
   * memory's place, rather than the memory gaining the turn as evidence.
   */
  fuller?: boolean;
}

/**
 * Determiners, adverbs and prepositions that add to a set (a closed class of English): "another",
 * an ordinal or "other" after a determiner, "also", "too" ending a clause, "as well", "besides",
 * "on top of", "alongside", "one more".
 */
const ADDITIVE =
  /\b(another|also|as well|in addition|besides|on the side|on top of(?!\s+(?:that|this|it|everything|all))|alongside|one more|(?:a|an)\s+(?:second|third|fourth|fifth)\b|(?:my|his|her|their|our|\w+'s)\s+other\b(?!\s+half))|\btoo\b(?=\s*(?:now|already|again|these days)?\s*(?:[.,!?;]|$))/i;
/** The statement's additive word, if any; "another" of a time ("another day of leases") adds nothing. */
function additiveWord(text: string): string | undefined {
  const word = ADDITIVE.exec(text)?.[0];
  return word && !(word.toLowerCase() === "another" && anotherTime(text)) ? word : undefined;
}
/** The additive determiners that bring in another one of a kind: "another", "a second", "my other". */
const NEW_ONE = /^(?:another|one more|(?:a|an)\s|(?:my|his|her|their|our|\w+'s)\s+other(?!\s+half))/i;
/** Adverbs that mark a state as replacing an earlier one (a closed class). */
const NOW_ADVERBS =
  /(?<!\b(?:years?|yrs?|months?|weeks?|wks?|days?|hours?|hrs?|while|ages|decades?)\s)\b(now(?! that)|nowadays|these days|instead|from now on|at this point)\b/i;
/**
 * "currently", "at the moment": what holds now, though a fact said again may carry them too, so
 * they mark a change only where a rule also finds the new thing (not in `sameFact`).
 */
const CURRENTLY = /\b(?:currently|at the moment)\b/i;
/** A thing parted with as one of several: "sold a guitar", "my old boots", "one guitar", "my spare deck". */
const ONE_OF_SEVERAL =
  /\b(?:sold|sell|sells|selling|gave|give|gives|giving|given)\s+(?:away\s+)?(?:a|an|one|some|two|three|(?:my|the|his|her|their|our)\s+(?:old|second|spare|extra|other|oldest))\b/i;
/**
 * The head of the phrase an acquiring verb governs ("bought a truck" -> truck, "got my own studio in
 * Villeurbanne" -> studio), stemmed; undefined when the verb has two objects ("bought my son a car").
 */
function acquired(text: string): string | undefined {
  const hit =
    /\b(?:bought|buy|buys|buying|got|get|gets|getting|purchased|leased|rented|renting|picked up)\s+([^.,;!?]*)/i.exec(
      text,
    );
  if (!hit) return undefined;
  const phrase = hit[1]!.split(
    /\s+(?:in|at|on|for|from|with|to|by|and|but|so|last|this|next|yesterday|today)\b/i,
  )[0]!;
  const words = phrase.toLowerCase().split(/\s+/).filter(Boolean);
  // "my son a car", "him a car": a being or a pronoun, then a determiner.
  const twice = words.findIndex((w, i) => i > 0 && /^(?:a|an|the)$/.test(w));
  if (twice > 0 && words.slice(0, twice).some((w) => /^(?:him|her|them|me|us)$/.test(w) || being(stem(w))))
    return undefined;
  const head = words.at(-1);
  return head ? stem(head.replace(/[^a-z-]/g, "")) : undefined;
}

/** A thing got for someone else: "for my mum", "for his birthday", "for the baby". */
const FOR_SOMEONE = /\bfor\s+(?:my|his|her|their|our|the)\s+(?!own\b)\w+|\bfor\s+\p{Lu}\w+/u;
/** "new" before the thing it qualifies, perhaps after one more modifier ("a new phone", "new electric car"). */
const NEW_THING = /\bnew\s+([a-z-]+)(?:\s+([a-z-]+))?/gi;
/** Adverbs that say a state goes on (a closed class): "still", "as ever", "as usual". */
const CONTINUING = /\b(still|as ever|as always|as usual)\b/i;
/**
 * "no longer", "not (or no) … any more", "no more", "done with", "haven't … since", "is over": the end of a state
 * without a verb of stopping (negative adverbs and quantifiers, a closed class, the idiom of being
 * finished, and a denied perfect that runs from a time).
 */
const ENDED =
  /\b(?:is|are|was|'s)\s+(?:(?!not\b|n't\b)(?:all|now|well|totally|completely|so)\s+)?(?:over|finished|history)\b(?!\s+(?:there|here|the|to|at|till|until|yet)\b|\s+for\s+(?:today|tonight|now|the|this|a|an|dinner|lunch|tea|breakfast|drinks?|coffee)\b)|\bno longer\b|\bno more\b(?!\s+than)(?![^.;,]*\b(?:this|for the|for a|today|tonight)\b)|\b(?:have|has|had)(?:n't|\s+not|\s+never)\s+(?!(?:stop|stopped|miss|missed|lost|lose|skipped|skip|quit|given up|gave up|failed|put\b))[^.;,]*?\bsince\b|\bdone with\b(?![^.;,]*\bfor (?:today|tonight|now|the (?:day|week|night|evening)))|(?:\bnot|n't|\bnever|\bno)\b[^.;]*\bany ?more\b/i;
/** Where the noun a bare "no" governs ends: a clause's end, or a preposition. */
const NO_THING_END = /[,;:.!?]|\b(?:for|in|at|on|with|of|from|since|and|but|because|so|as)\b/i;

/**
 * Whether the clause that tells an end without a verb of stopping is the person's: "Tom doesn't
 * go to the gym anymore" ends Tom's habit, not the person's.
 */
function endedOwn(text: string, about: string): boolean {
  const clause = text.split(/[,;]|\b(?:so|but|because)\b/i).find((c) => ENDED.test(c)) ?? text;
  const before = clause.slice(0, ENDED.exec(clause)?.index ?? 0);
  const names = new Set(about.toLowerCase().split(/,\s*/));
  // Someone named, or "he", "she", "they", before the words of ending: theirs, not the person's.
  return !before
    .split(/\s+/)
    .map((w) => w.replace(/['’]s$|[^\p{L}'’]/gu, ""))
    .some((w) => (/^\p{Lu}/u.test(w) && !names.has(w.toLowerCase())) || /^(?:he|she|they)$/i.test(w));
}

/** The subject of a clause before its copula ("paddleboarding" in "paddleboarding is over for me"). */
const COPULA_SUBJECT = /^\s*(.+?)\s+(?:is|are|was|were)(?:n't|\s+not|\s+no longer)?\b|^\s*(.+?)'s\b/i;
/** A change denied or not made: "refused to replace", "almost switched", "never transferred". */
const REFUSED =
  /\b(?:refus\w*|declin\w*|not|never|n't|almost|nearly)\b[^.;,]{0,20}?\b(?:replac|switch|swap|transfer|mov)\w*/i;

/** Where what ENDED ends begins ("no more bingo", "done with snooker", "no longer at the school"). */
const ENDED_AT =
  /\bno longer\b|\bno more\b(?!\s+than)|\bdone with\b|(?:\bnot|n't|\bnever)\b|\bno\b(?=[^.;]*\bany ?more\b)/i;
/**
 * "left" with an object ("having left Dodoma", "left the cafe"), which the tagger can read as an
 * adjective: a determiner, a possessive or a name after it makes it the verb (not "turned left").
 */
const LEFT_OBJECT = /\b(?:left|leaving)\s+(?:(?:the|a|an|my|his|her|their|our)\s+|\p{Lu})/u;
/** Leaving for a while, or leaving someone in another's care: "left Rex with his mum for the weekend". */
const LEFT_A_WHILE =
  /\b(?:left|leav\w*)\b[^.;,]*\b(?:with|behind|for (?:a|an|the|\d+)\s+(?:[\w']+\s+)?(?:week|weekend|day|night|while|month|holiday|trip|break|bit|few|hours?|days|weeks))\b/i;
/** Adverbs of frequency and degree that change how often or how much (a closed class), as written. */
const DEGREE_WORDS =
  /\b(?:hardly|rarely|barely|seldom|every other|less often|more often|never|sometimes|occasionally)\b/i;
/** Adverbs of frequency and degree (a closed class), stemmed as terms are. */
const DEGREE =
  /^(?:hardly|rare|rarely|barely|seldom|other|less|more|never|sometim|occasional|occasionally|often|alway|usual|usually)$/;
/** "rather than", "instead of": what follows is what the statement leaves. */
const INSTEAD_OF = /\b(?:rather than|instead of)\b/i;
/** A choice of one thing over another: "picked X over Y", "went with X over Y", "chose X over Y". */
const PICKED_OVER =
  /\b(?:pick(?:ed|s)?(?!\s+up\b)|chose|chosen|choose|chooses|went with|go with|going with|opted for|opt for)\b[^.;!?]*?\bover\b/i;
/**
 * "has gone from X to Y", "going from X to Y": going from one state to another, in a form that
 * says where one is now, is a change ("went from Leeds to York" in the past may be a trip).
 */
const GONE_FROM = /\b(?:go|goes|going|gone)\s+(?:\w+\s+)?from\b[^.;!?]*\bto\b/i;
/** Someone of the person's, as a subject: "Sam's son", "her nephew", "my sister". */
const OTHERS = /\w's\s+\w|\b(?:his|her|their|my|our)\s+\w/i;
/** Where a clause begins inside a sentence. */
const CLAUSE_START = /[,;:]|\b(?:so|and|but|because|since|while|when)\b/i;
/** A place or body named after "at" ("at Greenfield Primary", "at MTN"): its names, stemmed. */
const AT_NAME = /\bat\s+(?:the\s+)?((?:\p{Lu}[\p{L}'&+-]*\s*)+)/gu;
/** Names after "for", "to" or "attends" ("plays for Red Lion FC", "goes to Fernhill Primary", "attend St Werburgh's"). */
const FOR_OR_TO_NAME =
  /\b(?:(?:plays?|playing|works?|working|goes|go|going|attends?|attending)\s+(?:for|to|at)?|attends?|attending)\s*(?:the\s+)?((?:\p{Lu}[\p{L}'&+-]*\s*)+)/gu;
/** A place named after "in" or "at" ("in Valencia", "at Greenhill Infants"): where one lives. */
const IN_OR_AT_NAME = /\b(?:in|at)\s+(?:the\s+)?((?:\p{Lu}[\p{L}'&+-]*\s*)+)/gu;
/** Names after "to" ("moved to Clann na Gael", "transferred to Nazarbayev University"). */
const TO_NAME =
  /\bto\s+(?:the\s+)?(\p{Lu}[\p{L}'&+-]*(?:\s+(?:\p{Lu}[\p{L}'&+-]*|na|de|del|la|le|of|van|von))*)/gu;
/** Parents too broad to say what was ended ("thing", "activity", "person"). */
const BROAD = new Set(
  ["thing", "activity", "act", "person", "object", "entity", "event", "matter", "group", "way"].map(stem),
);

/** One noun for the same thing: the same word, a synonym ("flat", "apartment") or one slot of a life. */
function sameThing(a: string, b: string): boolean {
  return (
    a === b || expandSynonyms(new Set([a])).has(b) || slotsOf(a).some((slot) => slotsOf(b).includes(slot))
  );
}

/** A person or an animal (WordNet's files): counted, not replaced, by a new one. */
function being(n: string): boolean {
  return inWordField(n, "noun.person") || inWordField(n, "noun.animal");
}

/**
 * The names a statement calls someone's ex or parted from, stemmed: "Leif is my ex-boyfriend",
 * "my ex, Leif", "the breakup with Maribel", "split up with Tom". An ex is "ex" before a partner
 * noun or after a possessive.
 */
function exPartners(text: string): Set<string> {
  const out = new Set<string>();
  const add = (name: string | undefined) => {
    if (name && /^\p{Lu}/u.test(name)) out.add(stem(name.toLowerCase()));
  };
  for (const hit of text.matchAll(/\bex\b(?:[-\s]+([a-z]+))?/giu)) {
    const before = text.slice(0, hit.index);
    const possessed = /\b(?:my|his|her|their|our|[\p{L}-]+'s)\s+$/iu.test(before);
    const partnerNoun = hit[1] !== undefined && slotsOf(stem(hit[1].toLowerCase())).includes("partner");
    if (!partnerNoun && !possessed) continue;
    // "Leif is my ex-boyfriend", then "my ex(-boyfriend), Leif" / "ex called Leif".
    add(
      /([\p{L}'-]+)\s+(?:is|was|'s)\s+(?:now\s+)?(?:(?:my|his|her|their|our|[\p{L}-]+'s)\s+)?$/iu.exec(
        before,
      )?.[1],
    );
    const rest = text.slice(hit.index + (partnerNoun ? hit[0].length : 2));
    add(/^[\s,]+(?:called\s+|named\s+)?([\p{L}'-]+)/u.exec(rest)?.[1]);
  }
  // "Marnie and I aren't together any more", "Tom and Sam are no longer together".
  for (const hit of text.matchAll(
    /\b(\p{Lu}[\p{L}-]*)\s+and\s+[\p{L}'-]+\s+(?:are|were|'re)(?:n't|\s+not|\s+no\s+longer)\s+together\b/gu,
  ))
    add(hit[1]);
  // The one parted from, not someone of theirs ("split up with Daniel Ortiz's nephew").
  for (const hit of text.matchAll(
    /\b(?:break-?up|broke\s+up|broken\s+up|split(?:\s+up)?|divorced?)\s+(?:with|from)\s+((?:\p{Lu}[\p{L}-]*)(?:\s+\p{Lu}[\p{L}-]*)*)(['’]s\b)?/gu,
  ))
    if (!hit[2]) add(hit[1]!.split(/\s+/)[0]);
  return out;
}

/** Whether the statement ends something by its verbs' aspect or a word of ending ("died", "over"). */
function endsOne(s: Reading): boolean {
  return (
    s.verbs.some((v) => verbAspect(stem(v.split(" ")[0]!)) === "end") ||
    /\b(?:over|gone|died|passed away|lost)\b/i.test(s.text)
  );
}

/**
 * A verb of loss the tagger read as something else ("imelda and me split in may"), by its written
 * form: not after a determiner, where it is a noun ("the split").
 */
function lossWord(text: string): string | undefined {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  for (const [i, w] of words.entries()) {
    if (i > 0 && /^(?:the|a|an|my|his|her|our|their|its|this|that)$/.test(words[i - 1]!)) continue;
    const lemma = [w, w.replace(/ed$/, ""), w.replace(/d$/, ""), w.replace(/ied$/, "y")].find((f) =>
      inVerbClass(f, "loss"),
    );
    if (lemma) return lemma;
  }
  return undefined;
}

/**
 * A stay for a while, not a change: "for the weekend", "for two weeks", "during the holidays",
 * "for the season", "this week", "till August", "in hospital".
 */
const TEMPORARY =
  /\b(?:for|during|over)\s+(?:the\s+|a\s+|an\s+|two\s+|three\s+|a few\s+|\d+\s+)?(?:day|days|night|nights|weekend|weekends|week|weeks|holidays?|summer|break|month|months|trip|season|show|tour|run|festival|course)\b|\bthis\s+(?:week|weekend)\b|\b(?:till|until)\s+\p{Lu}|\bin\s+hospital\b/iu;
/** A home beside the one lived in: "a holiday cottage", "a second home", "a buy-to-let", "for the shop". */
const SECOND_HOME = /\b(?:holiday|second|weekend|buy-to-let|rental|investment|office|shop|studio for)\b/i;

/** Whether the statement is said of the person themself: no subject read, the person's name, "we". */
function personSubject(s: Reading, about: string): boolean {
  const names = about.toLowerCase().split(/,\s*/);
  // A clause fronted by a conjunction ("since moving to Cardiff, Mordecai walks…") leaves its
  // word where the subject is read: a conjunction is no one.
  const words = s.subject
    .replace(
      /\band others\b|\band\b|\bwe\b|\b(?:since|after|before|when|while|because|once|though|although)\b/g,
      " ",
    )
    .split(/\s+/)
    .filter(Boolean);
  return words.every((w) => names.includes(w));
}

/** A subject someone else owns: "Tom's mum", "my neighbour's cat", "his bike" (not "my bike"). */
const POSSESSED_BY_OTHER = /\w's\s+\w|\b(?:his|her|their)\s+\w/i;
/** Verbs of theft whose object is the one robbed ("Tom got robbed"), not the thing taken. */
const THEFT = /^(?:rob|burglari[sz]e|burgle|loot|plunder|stick up|mug)/;

/** Auxiliaries between a subject and its verb ("got stolen", "was stolen", "has died"). */
const AUXILIARIES = /\b(?:got|get|gets|was|were|is|has|have|had|been|just|finally|sadly)\b/gi;

/**
 * A verb of loss whose subject shares terms with the memory ("Turnip died", "the giant got nicked",
 * "imelda and me split"): the verb, the shared terms, and whether the subject names a person or an
 * animal (a name, or a WordNet person or animal noun). Undefined when there is none or it is denied.
 */
function lostHere(
  s: Reading,
  m: Reading,
  memoryTerms: Set<string>,
  about: string,
): { verb: string; shared: string[]; being: boolean } | undefined {
  const verb = verbOf(s, "loss") ?? lossWord(s.text);
  if (!verb || denial(verb).test(s.text)) return undefined;
  const at = verbPattern(verb).exec(s.text);
  if (!at) return undefined;
  // Said of the one lost, with no object: "split the bill", "stole my bike" lose their subject nothing.
  if (
    /^\s+(?:the|a|an|my|his|her|our|their|its|it|him|her|them|this|that|some|\d)\b/i.test(
      s.text.slice(at.index + at[0].length),
    )
  )
    return undefined;
  // "imelda and me split": a subject may join two with "and".
  const subject = s.text
    .slice(0, at.index)
    .split(/[,;:]|\b(?:so|but|because|since|while|when)\b/i)
    .at(-1)!
    .replace(AUXILIARIES, " ");
  // The one lost is the subject's head, not its possessor or a word beside it: "Tom's mum died"
  // loses Tom nothing, "my neighbour's cat died" is not the person's cat. "nearly died" lost no one.
  const own = subject.replace(
    new RegExp(`\\b(?:${about.split(/,\\s*/).map(escapeRegExp).join("|")})'s\\b`, "gi"),
    "my",
  );
  if (POSSESSED_BY_OTHER.test(own) || /\b(?:nearly|almost)\s*$/i.test(subject)) return undefined;
  const words = subject.trim().split(/\s+/).filter(Boolean);
  const heads = words.filter((w, i) => i === words.length - 1 || /^(?:and|&|n)$/i.test(words[i + 1] ?? ""));
  const r = read(`${heads.join(" and ")} left.`, about);
  const shared = sharedTerms(new Set([...r.terms, ...r.names].filter((t) => t !== "left")), memoryTerms);
  if (shared.length === 0) return undefined;
  // A person or an animal ("Rex" alone may be a car's name: a thing needs another in its place).
  const beingNamed = shared.some(being);
  // One robbed loses a thing, not themself ("Tom got robbed in Barcelona").
  if (THEFT.test(verb)) return undefined;
  return { verb, shared, being: beingNamed };
}

/** Whether a clause of the statement tells a stop with no plan or wish of its own. */
function toldStop(s: Reading, about: string): boolean {
  return s.text.split(/[,;]/).some((clause) => {
    const c = read(`${clause.trim().replace(/[.!?]+$/, "")}.`, about);
    return !c.plan && (ENDED.test(clause) || liveStop(c) !== undefined);
  });
}

/** A noun and the number after it ("year 2", "level 4", "grade 3"), the noun stemmed. */
function numbered(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const hit of text.matchAll(
    /\b([a-z]{3,})\s+(\d{1,2})\b(?!\s*(?:am|pm|:|%|k\b|km|mi|kg|lb|min|h\b))/gi,
  )) {
    const noun = stem(hit[1]!.toLowerCase());
    if (!TIME_WORDS.has(noun) || noun === "year") out.set(noun, hit[2]!);
  }
  return out;
}

/** Becoming, being appointed or hired, or getting a job: new work begun. */
const NEW_JOB =
  /\b(?:became|appointed|promoted|hired|(?:got|landed|found|starting|started)\s+(?:a\s+|my\s+)?(?:new\s+)?job(?!\s+offer)|(?:taken|took|take|taking|accepted|accepts?|accepting)\s+(?:up\s+)?(?:a|an|the)\s+(?:[\w-]+\s+){0,2}(?:post|position|role|job|appointment|chair|offer))\b/i;

/** "from this month", "from next week", "starting Monday": a change from a time on. */
const FROM_ON = /\bfrom\s+(?:now|this|next|in|on)\b|\bstarting\b/i;

/** The days of the week a text names, by their first three letters ("fri" for "Fridays"). */
function weekdays(text: string): Set<string> {
  return new Set(
    [
      ...text.matchAll(
        /\b(mon|tue|wed|thu|fri|sat|sun)(?:s|day|days|nesday|nesdays|rsday|rsdays|urday|urdays|sday|sdays)?\b/gi,
      ),
    ].map((d) => d[1]!.toLowerCase()),
  );
}

/** The names in each match of `shape`'s first group, stemmed as terms are. */
function namesAfter(text: string, shape: RegExp): Set<string> {
  const out = new Set<string>();
  for (const hit of text.matchAll(shape))
    for (const w of hit[1]!.split(/\s+/))
      if (/^\p{Lu}/u.test(w)) out.add(stem(w.replace(/[^\p{L}]/gu, "").toLowerCase()));
  out.delete("");
  return out;
}

/** Terms the two share, synonyms counted (WordNet senses); light verbs, dates and numbers left out. */
function sharedTerms(a: Set<string>, b: Set<string>): string[] {
  const wide = expandSynonyms(b);
  return [...a].filter(
    (t) => !LIGHT_VERBS.has(t) && !TIME_WORDS.has(t) && !/\d/.test(t) && (b.has(t) || wide.has(t)),
  );
}

/**
 * A head noun of the memory and a different head noun of the statement under one WordNet parent
 * sense ("coffee" and "tea"), or in one slot of a life ("car" and "van" are vehicles: see
 * `slotsOf`), as [memory's, statement's]; else null.
 */
function sameKind(s: Reading, m: Reading): [string, string] | null {
  const mine = [...m.heads].filter((n) => !TIME_WORDS.has(n) && !BROAD.has(n));
  const theirs = [...s.heads].filter((n) => !TIME_WORDS.has(n) && !BROAD.has(n));
  for (const a of mine)
    for (const b of theirs) {
      if (a === b) continue;
      const r = lexicalRelations(new Set([a]), new Set([b]));
      if (r.antonyms > 0) continue;
      if (r.related > 0 || slotsOf(a).some((slot) => slotsOf(b).includes(slot))) return [a, b];
    }
  return null;
}

/**
 * Whether the statement denies a stop ("Bori won't stop staring at the hutch"): it says a state
 * goes on, so it closes nothing.
 */
export function deniesStop(statement: string, about: string): boolean {
  const s = read(statement, about);
  // "Rex won't stop barking, and Sam quit smoking" denies one stop and tells another.
  return stopVerbsOf(s).length > 0 && liveStop(s) === undefined && !parting(s) && !ENDED.test(s.text);
}

export function statesStop(statement: string, about: string): boolean {
  const s = read(statement, about);
  if (s.plan) return false;
  const verb = liveStop(s) ?? parting(s);
  if (verb) return !denial(verb).test(s.text);
  return ENDED.test(s.text);
}

/**
 * Whether the text sets one of `names` right beside a word of the noun `kind`: "friend Tom", "a
 * dog called Pixel", "Pixel, a greyhound" (an apposition, the way a new one of a kind is named).
 */
function namedBy(text: string, kind: string, names: string[]): boolean {
  const words = text.split(/\s+/).map((w) => w.replace(/[^A-Za-z',-]/g, ""));
  const isName = (w: string | undefined) =>
    Boolean(w && /^[A-Z]/.test(w) && names.includes(stem(w.replace(/[^A-Za-z'-]/g, "").toLowerCase())));
  return words.some((w, i) => {
    if (stem(w.replace(/[^A-Za-z'-]/g, "").toLowerCase()) !== kind) return false;
    // "friend Tom", "a dog called Pixel", "Pixel, a greyhound": right beside it, or with "called".
    const after = words[i + 1];
    if (isName(after)) return true;
    // The noun as the last word of the name itself: "the Beskydy Hiking Club".
    if (/^[A-Z]/.test(w) && isName(words[i - 1])) return true;
    if (/^(?:called|named)$/i.test(after ?? "") && isName(words[i + 2])) return true;
    const before = words.slice(Math.max(0, i - 3), i);
    return isName(before[0]) && /,$/.test(before[0] ?? "") && before.length > 1;
  });
}

/** Whether two statements say the same thing: see the file's head. */
function sameFact(m: Reading, s: Reading, cosine: number | undefined): string | null {
  if (m.plain === s.plain) return "the same words";
  if (m.negated !== s.negated) return null;
  // "every other Friday", "hardly": how often or how much changed.
  if (DEGREE_WORDS.exec(s.text)?.[0].toLowerCase() !== DEGREE_WORDS.exec(m.text)?.[0].toLowerCase())
    return null;
  // A statement whose numbers are all the memory's may be part of it ("plays bass in The Amber
  // Foxes" within "…The Amber Foxes, mostly 80s stuff"); other numbers are another fact.
  const sAmounts = s.amounts ? s.amounts.split(",") : [];
  const within = sAmounts.every((a) => m.amounts.split(",").includes(a));
  if (m.amounts !== s.amounts && !within) return null;
  // Each side's names among the other's words: chat in lower case ("still in leeds") writes the
  // same names without their capitals.
  if ([...m.names].some((n) => !s.terms.has(n)) || [...s.names].some((n) => !m.terms.has(n))) return null;
  if (
    additiveWord(s.text) ||
    NOW_ADVERBS.test(s.text) ||
    verbOf(s, "stop") ||
    verbOf(s, "change") ||
    parting(s)
  )
    return null;
  if (s.plan !== m.plan) return null;
  // "Stomach bug over" beside "has a stomach bug": the same words, but one ends the other.
  if (s.ends && !m.ends) return null;
  // Numbers are compared as amounts above, so their words may be left out ("twelve", "12"); a
  // number word can also be a synonym of another ("ten", "decade"): the better of the two counts.
  const there = Math.max(
    coverage(s.wording, expandSynonyms(m.wording)),
    coverage(s.terms, expandSynonyms(m.terms)),
  );
  const back = Math.max(
    coverage(m.wording, expandSynonyms(s.wording)),
    coverage(m.terms, expandSynonyms(s.terms)),
  );
  // Nothing the memory does not already say: a part of it, said again.
  if (there >= 0.9 && s.names.size > 0 && s.terms.size >= 3)
    return "nothing the memory does not say: its names, numbers and words";
  if (m.amounts !== s.amounts) return null;
  // The memory said again with an aside ("Busy tonite, Mei plays mahjong every friday…"): all its
  // words are there, and besides them at most two, none naming a thing ("and a cat" is news) or
  // done ("sold", "visited").
  const wideMemory = expandSynonyms(m.wording);
  const aside = [...s.wording].filter((t) => !wideMemory.has(t) && !TIME_WORDS.has(t));
  // "hardly", "every other": how often or how much is no aside.
  const degree = aside.some((t) => DEGREE.test(t));
  const doing = new Set(s.verbs.map((v) => stem(v.split(" ")[0]!)));
  if (
    back >= 0.9 &&
    m.wording.size >= 3 &&
    aside.length <= 2 &&
    !degree &&
    !aside.some((t) => s.nouns.has(t) || doing.has(t))
  )
    return "the memory's words again, with an aside";
  if (there >= 0.8 && back >= 0.8) return "the same names, numbers and words (synonyms counted)";
  // The same names besides the person's and the same numbers: "Mango is twelve" and "Sam's
  // cockatiel Mango is 12" are one fact in other words.
  if (s.names.size > 0 && s.amounts !== "" && there >= 0.3 && back >= 0.3)
    return "the same names and the same numbers";
  if (cosine !== undefined && cosine >= 0.9 && there >= 0.6 && back >= 0.6)
    return `the same names and numbers, and close in meaning (cosine ${cosine.toFixed(2)})`;
  // "still", "as ever": the statement says a state goes on, so it is the memory's state again
  // when it keeps the memory's names and half its words each way (the rest is the day's news).
  const going = CONTINUING.exec(s.text)?.[0];
  if (going && !CONTINUING.test(m.text) && there >= 0.5 && back >= 0.5)
    return `the same names and numbers, and "${going}" says the state goes on`;
  return null;
}

/**
 * How a new statement bears on one memory about the same person, or null when no rule decides.
 * `about` is the person's display name (its words are not content); `cosine`, when known, is the
 * two sentences' similarity under the engine's encoder.
 */
export function updateRule(
  memory: string,
  statement: string,
  about: string,
  cosine?: number,
): UpdateRuleMatch | null {
  const m = read(memory, about);
  const s = withNamesSpelledAs(read(statement, about), m);
  const same = sameFact(m, s, cosine);
  if (same) return { rule: "same", why: `the same fact again: ${same}` };
  // Said whole within more, or once more: only where no rule below reads a stop, a change or an
  // addition in it.
  const restatedHere = (): UpdateRuleMatch | null => {
    const again = fuller(m, s) ?? onceMore(m, s);
    return again ? { rule: "same", why: `the same fact again: ${again.why}`, fuller: again.fuller } : null;
  };
  // A plan or a wish ("wants to quit smoking") changes nothing yet.
  // "No more darts for me, my shoulder won't have it": a plan elsewhere in the statement leaves a
  // stop told in a clause of its own standing.
  if (s.plan && !toldStop(s, about)) return restatedHere();
  const memoryTerms = new Set([...m.terms, ...m.names]);
  // A stop: the thing a stopping verb (or "no longer", "not … any more") governs is what the
  // memory holds, and the memory is not itself a stop.
  // The newer rules below read only what the person does: "Sam's neighbour sold his Fiesta" ends
  // nothing of Sam's.
  const own = ownSubject(s);
  const stopVerb =
    (stopVerbsOf(s).length > 0 ? liveStop(s) : undefined) ??
    (((s.verbs.some((v) => v.startsWith("leave")) && !/\bleft\s+(?:at|in|on|to|into|onto)\b/i.test(s.text)) ||
      LEFT_OBJECT.test(s.text)) &&
    !LEFT_A_WHILE.test(s.text)
      ? "leave"
      : undefined) ??
    // Selling a thing ends owning it, not a habit of selling or of making what is sold ("sells
    // kittens to families", "bakes cakes every Saturday"). A habit that needs the thing ends with
    // it ("sold the metal detector" beside "goes metal detecting every Saturday").
    // One of several parted with ("sold my old boots", "gave one guitar away", "my spare deck")
    // leaves the rest, and the habit.
    (m.verbs.some((v) => v.startsWith("sell") || inWordField(stem(v.split(" ")[0]!), "verb.creation")) ||
    !own ||
    ONE_OF_SEVERAL.test(s.text)
      ? undefined
      : parting(s));
  // "won't stop staring", "didn't quit": a stopping verb denied stops nothing.
  // "dumped my bags at Tom's", "chucked it in the wash": a thing put somewhere, not thrown out.
  const putSomewhere =
    stopVerb !== undefined &&
    /^(?:bin|dump|chuck)$/.test(stopVerb) &&
    new RegExp(`${verbPattern(stopVerb).source}[^.;,]*\\b(?:in|into|at|on|onto)\\b`, "i").test(s.text);
  const denied = stopVerb ? denial(stopVerb).test(s.text) || putSomewhere : false;
  if (!denied && !verbOf(m, "stop") && !ENDED.test(m.text)) {
    const ended = stopVerb
      ? stopVerb === parting(s)
        ? partedWith(s, stopVerb, about)
        : governed(s.text, verbPattern(stopVerb), about)
      : ENDED.test(s.text) && endedOwn(s.text, about)
        ? governed(
            s.text,
            ENDED_AT,
            about,
            // "no walks for Biscuit anymore", "no sugar in the coffee anymore": what "no" ends is
            // its noun, not what a preposition after it names.
            /^no$/i.test(ENDED_AT.exec(s.text)?.[0] ?? "") ? NO_THING_END : undefined,
          )
        : new Set<string>();
    // What is sold is what the memory holds, not a thing it names in passing ("bought a Volvo for
    // towing his caravan" is not ended by selling the caravan).
    const held = stopVerb && stopVerb === parting(s) ? heldBy(m, about) : memoryTerms;
    // What is ended may be the broader thing: "gave up alcohol" ends "a glass of wine".
    const shared = sharedTerms(ended, held);
    if (shared.length === 0)
      shared.push(...sharedTerms(ended, expandBroader(held)).filter((t) => !BROAD.has(t)));
    // "night shifts" do not end "day shifts": an opposite between the two says another thing.
    // Read in the clause that tells the stop: "Proud of myself, haven't touched it since" keeps
    // the pride out.
    const told =
      s.text.split(/[,;]/).find((c) => (stopVerb ? verbPattern(stopVerb).test(c) : ENDED.test(c))) ?? s.text;
    // "paddleboarding is over for me", "carnivore isn't for me anymore": what ended is the subject.
    const copula = !stopVerb && ENDED.test(told) ? COPULA_SUBJECT.exec(told) : null;
    const endedSubject = copula ? (copula[1] ?? copula[2]) : undefined;
    // Only the memory's own words, not a name in it, are ended so.
    if (shared.length === 0 && endedSubject)
      shared.push(
        ...sharedTerms(
          governed(`${endedSubject.trim()}.`, /^/, about),
          new Set([...m.terms].filter((t) => !m.names.has(t))),
        ),
      );
    if (shared.length > 0 && lexicalRelations(read(told, about).terms, m.terms).antonyms === 0)
      return {
        rule: "stop",
        why: `the statement ends what the memory holds ("${stopVerb ?? ENDED.exec(s.text)?.[0].toLowerCase() ?? "no longer"}": ${shared.join(", ")})`,
      };
  }
  // The memory's thing or person itself is lost ("Turnip died", "the Dell died, got an Asus",
  // "Imelda and I split in May"): the memory retires and the statement is kept. A thing said to
  // "die" may be a flat battery, so a lost thing needs another in its place or "now"; a person or
  // an animal does not.
  const lost = lostHere(s, m, memoryTerms, about);
  if (
    lost &&
    !m.past &&
    (lost.being || s.verbs.some((v) => ACQUIRE.has(v.split(" ")[0]!)) || NOW_ADVERBS.test(s.text))
  )
    return {
      rule: "change",
      why: `the statement says what the memory holds is gone ("${lost.verb}": ${lost.shared.join(", ")})`,
    };
  // "Ieuan's last day at Bramhall & Price was on Friday": the person's last day at a place the
  // memory names ends what the memory holds there.
  const lastDay =
    /\blast\s+(?:day|shift|week)\s+(?:at|with|of|for)\s+(?:the\s+)?((?:\p{Lu}[\p{L}'&+-]*\s*)+)/u.exec(
      s.text,
    );
  const leftPlace = lastDay
    ? lastDay[1]!
        .trim()
        .split(/\s+/)
        .map((w) => stem(w.replace(/[^\p{L}]/gu, "").toLowerCase()))
        .find((n) => m.names.has(n))
    : undefined;
  if (leftPlace && own && !m.past && !s.negated && !s.plan)
    return {
      rule: "change",
      why: `the statement tells the person's last day at what the memory holds (${leftPlace})`,
    };
  const additive = additiveWord(s.text);
  // A verb of changing that the memory has as a thing ("night shifts r mon-thu" beside "does night
  // shifts") was misread: it is the memory's noun, not a change.
  const changing = verbOf(s, "change");
  const changeVerb =
    changing && !m.nouns.has(stem(changing.split(" ")[0]!)) && asVerb(s.text, changing)
      ? changing
      : undefined;
  const sold = s.verbs.some((v) => v.startsWith("sell") || v.startsWith("give away"));
  const soldAndGot = sold && s.verbs.some((v) => ACQUIRE.has(v.split(" ")[0]!));
  // An addition never replaces anything, so it needs no topic in common. One more of a counted
  // thing ("another kitten, so 3 cats now" beside "has 2 cats") updates the count instead.
  // "adopted a third cat" beside "has two cats" recounts too.
  const ordinal = /\b(?:second|third|fourth|fifth)\b/i.test(additive ?? "");
  const recounted = m.amounts !== "" && (ordinal || (s.amounts !== "" && m.amounts !== s.amounts));
  // A change: what is left behind ("from the piano", "sold the Honda") is what the memory holds;
  // or, with "now" or "these days", the memory says the same kind of thing (the same verb).
  // "replaced the Fitbit with a Garmin", "swapped coffee for tea": the verb's object is left; what
  // is replaced is left however the sentence goes on ("got a Realme to replace the Lenovo").
  // "rather than", "instead of" in a past one-off ("had tea instead of coffee at the party") leaves
  // nothing for good.
  const insteadOf = INSTEAD_OF.test(s.text) && !s.past;
  // A change denied or nearly made, money sent ("transferred £200 to Monzo"), or the person put
  // through by someone else ("the receptionist transferred Sam to…") leaves nothing.
  const named = escapeRegExp(about.split(/,\s*/)[0]!);
  const sentOn =
    REFUSED.test(s.text) ||
    /\btransferr?\w*\s+(?:£|\$|€|\d)/i.test(s.text) ||
    new RegExp(`\\b(?:transferr?ed|moved|switched|put)\\s+(?:${named}|me|him|her|them)\\b`, "i").test(s.text);
  const gone = GONE_FROM.exec(s.text);
  // Said of whoever stands in its own clause ("his nephew set it up so Brigida has gone from …").
  // Not for a day ("gone from Leeds to York for the day"), nor next month.
  const goneSubject = gone ? s.text.slice(0, gone.index).split(CLAUSE_START).at(-1)! : "";
  const goneFrom =
    gone !== null &&
    !TEMPORARY.test(s.text) &&
    !/\bnext\s+(?:week|month|year|term)\b/i.test(s.text) &&
    (!OTHERS.test(goneSubject) || sameSubject(m.subject, subjectOf(goneSubject)));
  // "picked the leisure centre over Anytime": a choice made leaves what it was made over.
  const pickedOver = own && PICKED_OVER.test(s.text);
  const left = insteadOf
    ? governed(s.text, INSTEAD_OF, about, FROM_END)
    : pickedOver
      ? governed(s.text.slice(PICKED_OVER.exec(s.text)!.index), /\bover\b/i, about, FROM_END)
      : /\bfrom\b/i.test(s.text)
        ? governed(s.text, /\bfrom\b/i, about, FROM_END)
        : soldAndGot
          ? governed(s.text, verbPattern("sell"), about)
          : changeVerb &&
              !sentOn &&
              ((changeVerb === "replace" && own) ||
                new RegExp(`${verbPattern(changeVerb).source}[^,;.!?]*\\b(?:with|for)\\b`, "i").test(s.text))
            ? governed(s.text, verbPattern(changeVerb), about, REPLACED_END)
            : new Set<string>();
  const leftShared = sharedTerms(left, memoryTerms);
  // A change of another one ("my other brother just moved to Montreal") leaves nothing the memory
  // holds: the marker makes it an addition. "my other sister switched from the piano" leaves the
  // piano.
  // Only a determiner that brings in another one does this; "also moved" may be the person's move.
  // In the subject ("my other brother moved"), not the object ("moved to another flat").
  const another =
    additive !== undefined &&
    NEW_ONE.test(additive) &&
    s.subject.includes(additive.toLowerCase().trim().split(/\s+/).at(-1)!);
  const changes = (changeVerb || soldAndGot) && (!another || leftShared.length > 0);
  if (additive && !recounted && !changes)
    return { rule: "addition", why: `the statement adds to what the memory holds ("${additive.trim()}")` };
  const topicalTerms = sharedTerms(new Set([...s.terms, ...s.names]), memoryTerms);
  const sameVerb = s.verbs.find((v) => {
    const head = stem(v.split(" ")[0]!);
    return !LIGHT_VERBS.has(head) && m.verbs.some((w) => stem(w.split(" ")[0]!) === head);
  });
  const marked = NOW_ADVERBS.exec(s.text)?.[0] ?? CURRENTLY.exec(s.text)?.[0];
  if ((changeVerb || soldAndGot || insteadOf || goneFrom || pickedOver) && leftShared.length > 0)
    return {
      rule: "change",
      why: `the statement leaves what the memory holds for something else (${changeVerb ? `"${changeVerb}"` : soldAndGot ? "sold and got" : goneFrom ? '"from … to"' : pickedOver ? '"chose … over"' : `"${INSTEAD_OF.exec(s.text)![0]}"`}: ${leftShared.join(", ")})`,
    };
  // A verb of changing to a new name where the memory holds another of the same kind or topic
  // ("transferred to Nazarbayev University" beside "at Satbayev University", "moved to Clann na
  // Gael" beside "trains with Naomh Mairtin GAA"): the person left the old one for it.
  const toNames =
    changeVerb && (own || sameSubject(m.subject, s.subject)) && !another && !sentOn
      ? [...namesAfter(s.text, TO_NAME)].filter((n) => !m.names.has(n))
      : [];
  // The memory's names left behind: those the statement does not change to (it may name the old
  // one too: "transferred to Highcliffe, as St Werburgh's could not…").
  const leftNames = [...m.names].filter((n) => !toNames.includes(n) && !TIME_WORDS.has(n));
  if (toNames.length > 0 && leftNames.length > 0 && !m.past && !NOW_ADVERBS.test(m.text)) {
    const common = sharedTerms(new Set([...s.terms, ...s.names]), memoryTerms);
    // Or the two names are of one kind by the nouns in them ("Ravelstone University" beside
    // "Kelmscott College": WordNet puts the two nouns side by side).
    for (const t of toNames)
      for (const l of leftNames) {
        const kin = lexicalRelations(new Set([t]), new Set([l]));
        if (kin.synonyms + kin.related > 0 && !common.includes(`${l}/${t}`)) common.push(`${l}/${t}`);
      }
    if (common.length > 0)
      return {
        rule: "change",
        why: `the statement changes to a new name in the memory's place ("${changeVerb}" to ${toNames.join(" ")}, ${common.join(", ")})`,
      };
  }
  // A verb of changing alone is not enough here: "Dev moved out" is no change to "Tom moved over".
  // "is a receptionist" and "is now a dental nurse instead" share only "be", and a topic word.
  const sameLight = s.verbs.some((v) => m.verbs.some((w) => w.split(" ")[0] === v.split(" ")[0]));
  const sameSlot = sameVerb ?? (sameLight && topicalTerms.length > 0 ? s.verbs[0] : undefined);
  // Only a state that holds can be left, and only by what it was said of: "now" beside a past
  // event ("felt powerful giving the talk") or of someone else ("now they're happy") changes nothing.
  if (
    marked &&
    sameSlot &&
    !NOW_ADVERBS.test(m.text) &&
    !m.past &&
    !s.past &&
    sameSubject(m.subject, s.subject)
  )
    return {
      rule: "change",
      why: `the statement says what holds now in the memory's place ("${marked}", the same verb "${sameSlot.split(" ")[0]}")`,
    };
  // A note with no verb ("Internet provider: Telia") and, now, another name for the thing it
  // notes, said as the subject ("Internet's Cgates now"): the new name in the old one's place.
  // The note's thing is the person's: no one else's ("Mum's internet"), not asked about.
  const noteHead = s.subject.split(" ").at(-1) ?? "";
  const noteSubject = s.subject.replace(
    new RegExp(`^(?:${escapeRegExp(about.split(/,\s*/)[0]!.toLowerCase())}'s|my|our)s+`),
    "",
  );
  if (
    marked &&
    m.verbs.length === 0 &&
    noteHead !== "" &&
    noteSubject === noteHead &&
    !s.text.includes("?") &&
    m.terms.has(noteHead) &&
    !m.names.has(noteHead) &&
    [...s.names].some((n) => !m.terms.has(n) && !TIME_WORDS.has(n)) &&
    [...m.names].some((n) => !s.terms.has(n)) &&
    !m.past &&
    !s.past &&
    !s.negated
  )
    return {
      rule: "change",
      why: `the statement names another for what the memory notes ("${marked}", ${noteHead})`,
    };
  // Somewhere else now ("at Greenfield Primary these days" beside "is at Little Acorns preschool",
  // "nowadays doing data analysis at MTN" beside "teaches maths at Achimota school"): the one it
  // was said of, at another named place, in the same verb or a light one.
  // A home said with "in" ("we're in Valencia these days" beside "we live in Bedminster"), and a
  // place begun ("Alfie started at Marshbrook Juniors" beside "Alfie is at Greenhill Infants").
  const dwelling =
    m.verbs.some((v) => /^(?:live|reside|rent)\b/.test(v)) ||
    [...m.heads].some((n) => slotsOf(n).includes("home"));
  const place = dwelling ? IN_OR_AT_NAME : AT_NAME;
  const atNow = namesAfter(s.text, place);
  // Where the memory puts them may be said with "for" or "to" ("plays for Red Lion FC", "goes to
  // Fernhill Primary"), or straight after "attends".
  const atThen = new Set([...namesAfter(m.text, place), ...namesAfter(m.text, FOR_OR_TO_NAME)]);
  const lightOnly = s.verbs.every((v) => LIGHT_VERBS.has(stem(v.split(" ")[0]!)));
  const atClause = s.text.split(/[,;]/).find((c) => namesAfter(c, place).size > 0) ?? "";
  if (
    (marked || (s.begins && own)) &&
    !additive &&
    !TEMPORARY.test(s.text) &&
    !/\b(?:not|never|no)\b|n't\b/i.test(atClause) &&
    atNow.size > 0 &&
    atThen.size > 0 &&
    // Another name, not the same one said again: each side names something the other does not
    // ("Oakridge Primary" beside "Fernhill Primary").
    [...atNow].some((n) => !atThen.has(n)) &&
    [...atThen].some((n) => !atNow.has(n) && !TIME_WORDS.has(n)) &&
    (sameSlot || lightOnly || s.begins || changeVerb !== undefined) &&
    !m.past &&
    (!s.past || s.begins) &&
    !NOW_ADVERBS.test(m.text) &&
    (sameSubject(m.subject, s.subject) || (personSubject(m, about) && personSubject(s, about)))
  )
    return {
      rule: "change",
      why: `the statement puts the one it speaks of at another place now ("${marked ?? "begun"}": ${[...atNow].join(" ")})`,
    };
  // The next number of the same thing ("went up to year 3" beside "is in year 2", "level 4 now"
  // beside "level 3"), said of the one the memory speaks of, now or begun.
  const numberedNow = numbered(s.text);
  const numberedThen = numbered(m.text);
  const renumbered = [...numberedNow].find(
    ([noun, n]) => numberedThen.has(noun) && numberedThen.get(noun) !== n,
  );
  if (
    renumbered &&
    (marked || s.begins || /\b(?:went|moved|going|gone)\s+up\b/i.test(s.text)) &&
    !additive &&
    !s.negated &&
    !m.past &&
    (s.subject === "" || sameSubject(m.subject, s.subject))
  )
    return {
      rule: "change",
      why: `the statement gives the memory's "${renumbered[0]}" a new number (${numberedThen.get(renumbered[0])} to ${renumbered[1]})`,
    };
  // Another day for the same thing ("sketch club is on Sunday mornings from this month" beside
  // "my sketch club meets on Friday evenings"), said to hold now or from a time on.
  const daysNow = weekdays(s.text);
  const daysThen = weekdays(m.text);
  if (
    daysNow.size > 0 &&
    daysThen.size > 0 &&
    [...daysNow].every((d) => !daysThen.has(d)) &&
    (marked || FROM_ON.test(s.text)) &&
    !additive &&
    !s.negated &&
    !m.past &&
    topicalTerms.length > 0
  )
    return {
      rule: "change",
      why: `the statement moves what the memory holds to another day (${topicalTerms.join(", ")}: ${[...daysNow].join(", ")})`,
    };
  // "instead" says outright that one thing takes another's place: a topic in common is enough
  // ("yoga is on Thursdays now instead" beside "goes to yoga on Tuesdays").
  if (
    /\binstead\b/i.test(s.text) &&
    topicalTerms.length > 0 &&
    !m.past &&
    !s.past &&
    !NOW_ADVERBS.test(m.text)
  )
    return {
      rule: "change",
      why: `the statement says what holds instead of what the memory holds (${topicalTerms.join(", ")})`,
    };
  // A thing of the same kind in the old one's place ("switched to architecture" beside
  // "engineering", "on green tea these days" beside "coffee, 4 cups a day"): WordNet puts the two
  // under one parent sense. Said with a verb of changing or a marker of now, of a state that holds.
  // A verb of changing is told in the past ("switched"); "now" needs a state that holds.
  // A move is a change of home, read elsewhere: "moved into a house" says nothing of working from home.
  // Only what the verb changes to ("switched to architecture"), not its object ("switched the
  // kettle on").
  const swapping =
    changeVerb !== undefined &&
    !changeVerb.startsWith("move") &&
    new RegExp(`${verbPattern(changeVerb).source}\\s+(?:over\\s+)?(?:to|for|into)\\b`, "i").test(s.text);
  const kindOf =
    own && (swapping || (marked && !s.past)) && !m.past && !NOW_ADVERBS.test(m.text) ? sameKind(s, m) : null;
  if (kindOf)
    return {
      rule: "change",
      why: `the statement puts a thing of the same kind in the memory's place ("${kindOf[1]}" for "${kindOf[0]}")`,
    };
  // One partner at a time: a new husband, girlfriend or fiancé ("a new boyfriend, Dev" beside
  // "Sam's boyfriend is called Tom") takes the old one's place (the "partner" slot of the lexicon).
  // The person's own partner: not "my friend's husband", "my sister's girlfriend", "her husband".
  const partnerNow =
    [...s.text.matchAll(/([\w'-]+)\s+(?:new\s+)?([a-z-]+)/gi)].some(
      (hit) =>
        slotsOf(stem(hit[2]!.toLowerCase())).includes("partner") &&
        !/^(?:his|her|their)$|'s?$/i.test(
          hit[1]!.replace(new RegExp(`^${escapeRegExp(about.split(/,\s*/)[0]!)}'s$`, "i"), "my"),
        ),
    ) ||
    [...s.nouns].some(
      (n) => slotsOf(n).includes("partner") && new RegExp(`^\\W*${n}`, "i").test(s.text.toLowerCase()),
    );
  const partnerThen = [...m.nouns].some((n) => slotsOf(n).includes("partner"));
  const newNames = [...s.names].filter((n) => !m.names.has(n) && !TIME_WORDS.has(n));
  const oldNames = [...m.names].filter((n) => !s.names.has(n) && !TIME_WORDS.has(n));
  // The head of what is new ("case" in "a new phone case"), and not one bought for someone else.
  const renewed = FOR_SOMEONE.test(s.text)
    ? []
    : [...s.text.matchAll(NEW_THING)].flatMap((hit) => {
        // "a possible new flat" is one looked at, not had.
        if (/\b(?:possible|potential|prospective)\s+$/i.test(s.text.slice(0, hit.index))) return [];
        const words = [hit[1], hit[2]].filter((w) => w !== undefined).map((w) => stem(w.toLowerCase()));
        const head = words.findLast((w) => s.heads.has(w));
        return head ? [head] : words.slice(0, 1);
      });
  // Said of the person, or of the partner as the person's ("Rosa's fiance is called Mateo now").
  const ofPartner = slotsOf(stem(s.subject.split(" ").at(-1) ?? "")).includes("partner");
  if (
    (own || ofPartner) &&
    partnerNow &&
    partnerThen &&
    !additive &&
    !s.negated &&
    !m.past &&
    (renewed.some((n) => slotsOf(n).includes("partner")) ||
      marked ||
      (newNames.length > 0 && oldNames.length > 0))
  )
    return { rule: "change", why: "the statement names a new partner in place of the memory's" };
  // One the memory names as the person's partner, now called an ex or parted from ("Leif is my
  // ex-boyfriend now", "since the breakup with Maribel"): the memory of them as partner retires.
  const courting = partnerThen || m.verbs.some((v) => /^(?:see|date|court|marry|go out)\b/.test(v));
  const exNames = exPartners(s.text);
  const exOfMemory = [...m.names].find((n) => exNames.has(n));
  // Denied, it is no ex ("Leif isn't my ex"), unless the denial is the parting ("aren't together").
  const apart = /\b(?:are|were|'re)(?:n't|\s+not|\s+no\s+longer)\s+together\b/i.test(s.text);
  if (courting && exOfMemory && !m.past && (!s.negated || apart))
    return { rule: "change", why: `the statement says the memory's partner is an ex now (${exOfMemory})` };
  // "a new phone" beside "has a Samsung phone", "new flat" beside "rents a house": the same thing,
  // or one in the same slot of a life, renewed. People and animals are counted instead.
  const renewedThing =
    own && !additive && !s.negated && !m.past
      ? renewed.find((n) => !being(n) && [...m.nouns].some((k) => sameThing(k, n)))
      : undefined;
  if (renewedThing)
    return {
      rule: "change",
      why: `the statement names a new one in the memory's place ("new ${renewedThing}")`,
    };
  // "a new friend at work" beside "my best friend is Oriel": people and animals are counted.
  const renewedBeing =
    !s.negated && !m.past ? renewed.find((n) => being(n) && [...m.nouns].some((k) => k === n)) : undefined;
  if (renewedBeing && !slotsOf(renewedBeing).includes("partner"))
    return {
      rule: "addition",
      why: `the statement names one more beside the memory's ("new ${renewedBeing}")`,
    };
  // A move is a change of home: "moved to Bristol" beside "lives in Leeds", not beside a memory
  // that only names a place ("training for the Bristol half marathon").
  const home =
    m.verbs.some((v) => /^(?:live|reside)\b/.test(v)) ||
    [...m.heads].some((n) => slotsOf(n).includes("home"));
  // The person moves (not "my office", "new neighbours"), for good (not "for the weekend"), to a
  // named place or a home ("moved to tears", "moved to the night shift" are no new home).
  const destination =
    /\b(?:mov|relocat)\w*\s+(?:(?:back|over|out|away)\s+)?(?:to|into)\b|\b(?:taken|took|take|taking)\s+up\s+residence\s+(?:in|at)\b|\bsettled\s+(?:in|into)\b/i.exec(
      s.text,
    );
  if (
    personSubject(s, about) &&
    home &&
    destination &&
    !TEMPORARY.test(s.text) &&
    !additive &&
    !m.past &&
    !NOW_ADVERBS.test(m.text)
  ) {
    const rest = s.text.slice(destination.index + destination[0].length);
    const to = governed(s.text.slice(destination.index), /\b(?:to|into|in|at)\b/i, about);
    // Chat writes a town in lower case ("moved to rijeka"): a word WordNet does not know is a name.
    const first = /^\s+(?:the\s+)?([\p{L}'-]+)/u.exec(rest)?.[1] ?? "";
    const somewhere =
      /^\p{Lu}/u.test(first) ||
      (first !== "" && lemmaCount(first.toLowerCase()) === 0) ||
      [...to].some((n) => slotsOf(n).includes("home"));
    if (somewhere && to.size > 0 && sharedTerms(to, memoryTerms).length === 0)
      return { rule: "change", why: `the statement moves the person's home (${[...to].join(" ")})` };
  }
  // A new home of the person's ("Dobromir's new address is a house in Varna", "our new flat")
  // beside the home the memory holds: one lives in one home at a time.
  // Whose: the word before "new" is the person's ("my", "our", "Dobromir's") or a determiner.
  const person = about
    .split(/,\s*/)
    .map((n) => `${escapeRegExp(n)}'s?`)
    .join("|");
  // The home noun ends its phrase ("new flat", not "new flat mate"); with "a" or "the", the person
  // is the subject ("Sam's office has a new address" is the office's).
  const newHome = [
    ...s.text.matchAll(
      /([\p{L}'’]+)\s+new\s+([a-z]+)\b(?!\s*-?\s*(?:mates?|share|warming|hunting|viewing|search))/giu,
    ),
  ].some(
    (hit) =>
      (/^(?:address|place|home|digs|pad)$/i.test(hit[2]!) ||
        slotsOf(stem(hit[2]!.toLowerCase())).includes("home")) &&
      (new RegExp(`^(?:my|our|${person})$`, "i").test(hit[1]!) ||
        (/^(?:the|a)$/i.test(hit[1]!) && personSubject(s, about))),
  );
  if (
    home &&
    newHome &&
    !additive &&
    !s.negated &&
    !s.plan &&
    !TEMPORARY.test(s.text) &&
    !SECOND_HOME.test(s.text) &&
    !m.past &&
    !NOW_ADVERBS.test(m.text)
  )
    return { rule: "change", why: "the statement names a new home of the person's in place of the memory's" };
  // A home got ("finally got my own studio in Villeurbanne" beside "lives with her parents in
  // Lyon"), or a vehicle got beside the one the person drives ("bought a truck" beside "drives a
  // Ford Fiesta"): one lives in one home and drives one car at a time, so the new one takes the
  // old one's place. Bikes and boats are collected ("got a gravel bike" beside "a road bike").
  const held = (slot: string) =>
    slot === "home"
      ? [...m.nouns].some((n) => slotsOf(n).includes(slot)) ||
        m.verbs.some((v) => /^(?:live|reside)\b/.test(v))
      : m.verbs.some((v) => /^drive\b/.test(v));
  // What is got is the head of the phrase right after the verb, for the person ("a parking ticket
  // in the car", "my son a car", "a car for his birthday" get the person no car).
  const gotThing =
    own && !additive && !s.negated && !m.past && !FOR_SOMEONE.test(s.text) ? acquired(s.text) : undefined;
  // "got my own place": one's own place is a home.
  const gotHome = gotThing === stem("place") && /\bown\s+place\b/i.test(s.text);
  const got = gotThing
    ? ["home", "vehicle"].find(
        (slot) => (slotsOf(gotThing).includes(slot) || (gotHome && slot === "home")) && held(slot),
      )
    : undefined;
  if (got) return { rule: "change", why: `the statement gets the person a new ${got} in the memory's place` };
  // Beginning a thing of the same kind with no word of change ("started gymnastics" beside "does
  // swimming 3 times a week") adds it: one takes up a second sport, not a second job of that sort.
  // Not a role ("started a job as a delivery driver"): one holds one job of a kind at a time.
  const taken =
    own && s.begins && !marked && !changeVerb && !s.negated && !m.role && !s.role ? sameKind(s, m) : null;
  if (taken)
    return {
      rule: "addition",
      why: `the statement begins a thing of the same kind beside the memory's ("${taken[1]}" beside "${taken[0]}")`,
    };
  // New work ("runs a dumpling stand now" beside "works as a sales rep", "started at the royal
  // infirmary as a ward clerk" beside "works at the warehouse for Brindley Parcels", "became a
  // driving examiner" beside "flies long-haul for Aer Lingus"): one's living, said to hold now or
  // begun, of the one the memory speaks of, with something the memory does not say.
  if (
    m.work &&
    s.work &&
    (marked || s.begins || NEW_JOB.test(s.text)) &&
    (own || sameSubject(m.subject, s.subject)) &&
    (s.subject === "" || m.subject === "" || sameSubject(m.subject, s.subject)) &&
    !additive &&
    !s.negated &&
    !m.past &&
    !NOW_ADVERBS.test(m.text) &&
    [...s.names, ...s.nouns].some((t) => !memoryTerms.has(t))
  )
    return { rule: "change", why: "the statement gives the one the memory speaks of new work" };
  // A new role for the person ("is a dept head now", "first day as a loan officer") leaves the role
  // the memory gives them: a role that holds, not a past one.
  if (
    m.role &&
    s.role &&
    m.role !== s.role &&
    (marked || s.begins) &&
    !m.past &&
    !s.negated &&
    !NOW_ADVERBS.test(m.text)
  )
    return {
      rule: "change",
      why: `the statement gives the person a new role in place of the memory's ("${m.role}" to "${s.role}")`,
    };
  // A new name set beside a noun the memory also has ("my friend Tom" beside "my friend Ana", "a
  // cat called Luna" beside "a cat called Miso"), with nothing ended or changed.
  const wideNouns = expandSynonyms(m.nouns);
  // People and animals are counted, never replaced, by a new one of another word ("new baby girl,
  // Kahurangi" beside "one kid, Tama", "got a kitten, Mischa" beside "has a collie, Fionn"): a
  // person or animal noun beside one the memory names.
  const beings = [...m.nouns].some(being);
  const kinds = [...s.nouns].filter(
    (n) =>
      (m.nouns.has(n) || wideNouns.has(n) || (beings && being(n))) &&
      !TIME_WORDS.has(n) &&
      namedBy(s.text, n, newNames),
  );
  if (
    newNames.length > 0 &&
    oldNames.length > 0 &&
    kinds.length > 0 &&
    !s.negated &&
    // "got a kitten" reads as a change of state, not as an end; a death or a verb of ending is one.
    (!s.ends || (kinds.some(being) && !endsOne(s))) &&
    !verbOf(s, "change") &&
    !stopVerb
  )
    return {
      rule: "addition",
      why: `a new name beside the memory's, under the same noun (${kinds.join(", ")})`,
    };
  return restatedHere();
}
