/**
 * Memo writing without a language model: topic segmentation where adjacent exchanges stop
 * resembling each other (TextTiling's idea on sentence vectors), the segment's salient noun
 * phrase as its topic, and its most central sentences as the summary (extractive).
 *   - The unit is the exchange: a partner's line and the lines answering it (with the agent's own
 *     question before it, if it asked one). A range therefore never splits a question from its
 *     answer, and ranges cover the buffer by construction.
 *   - An exchange opens a new topic when its cosine to the current segment's mean vector falls
 *     below `cut`, unless it opens with a follow-up cue ("what about…", "now do the same…", "your
 *     previous answer"): such a line leans on what came before even when its words do not.
 *   - Lines memlane wrote itself (meta.generated) belong to the ranges but never feed the vectors,
 *     the topic or the summary: the offline engine's own replies only repeat memory.
 */
import { nlp } from "../../cognition/offline/nlp.js";
import { displayName } from "../../core/ids.js";
import { cosine } from "../../core/vector.js";
import type { Embedder } from "../../models/embedder.js";
import { bm25Terms } from "../../retrieval/bm25-terms.js";
import type { MemoEntry, MemoLine } from "./memo-shapes.js";

export interface OfflineWriterOptions {
  /** Cosine to the current segment below which an exchange starts a new topic. */
  cut?: number;
}

/**
 * Chosen on the tuning half of MT-Bench+ with the bundled encoder (`npm run lab -- eval mtbench-plus
 * --tune`): the objective rose from 0.653 at 0.1 to 0.770 at 0.7 and stayed flat above (0.767 -
 * 0.768 up to 1): with this encoder, merging exchanges by similarity helps little; the follow-up
 * cues do most of the grouping.
 */
export const DEFAULT_CUT = 0.7;

/** Longest summary we extract, in characters. */
const SUMMARY_CHARS = 320;

/**
 * Discourse cues of a follow-up: the line continues the task at hand. Openers and back-references
 * that English uses for continuation, not words of any data set's topics.
 */
const FOLLOW_UP =
  /^(?:(?:and|also|now|then|so|but|ok(?:ay)?|great|thanks?|good)\b|what about\b|how about\b|what if\b|(?:please |can you |could you )?(?:now |also )?(?:do|try) (?:the same|it|that|this)\b|(?:please |can you |could you )?(?:re-?write|rephrase|revise|alter|modify|amend|shorten)\b)|\b(?:your|the) (?:previous|last|earlier|above|former|latter) (?:answer|response|reply|example|one|output|version|text|story|plan|paragraph|list|solution)\b|\b(?:same task|do the same|again)\b/i;

/** Noun phrases that never name a topic. */
const EMPTY_PHRASE =
  /^(?:i|me|you|it|that|this|they|we|he|she|them|something|anything|everything|thing|things|way|lot|one|ones|answer|response|question|example|following|the following|today|time)$/i;

interface Exchange {
  start: number;
  end: number;
  /** What the partner and the agent said, generated text left out. */
  said: { speaker: string; text: string }[];
}

/** Memo entries for `lines` (1-based ranges that split them in order). */
export async function writeMemoOffline(
  agent: string,
  lines: MemoLine[],
  embedder: Embedder,
  options: OfflineWriterOptions = {},
): Promise<MemoEntry[]> {
  const cut = options.cut ?? DEFAULT_CUT;
  const exchanges = exchangesOf(agent, lines);
  const texts = exchanges.map((e) => e.said.map((s) => s.text).join(" "));
  const vectors = await embedder.embed(texts.map((t) => t || " "));
  const segments: Exchange[][] = [];
  let current: number[] = [];
  for (const [i, ex] of exchanges.entries()) {
    const opener = ex.said[0]?.text ?? "";
    const startsTopic =
      current.length === 0 ||
      (texts[i]!.length > 0 &&
        !FOLLOW_UP.test(opener.trim()) &&
        cosine(vectors[i]!, mean(current.map((j) => vectors[j]!))) < cut);
    if (startsTopic && current.length) {
      segments.push(current.map((j) => exchanges[j]!));
      current = [];
    }
    // An exchange with nothing said (only generated lines) joins the segment it follows.
    current.push(i);
  }
  if (current.length) segments.push(current.map((j) => exchanges[j]!));
  const entries: MemoEntry[] = [];
  const names = new Set(lines.map((l) => displayName(l.speaker).toLowerCase()));
  for (const segment of segments) {
    const said = segment.flatMap((e) => e.said);
    entries.push({
      topic: topicOf(said, lines, names),
      summary: await summaryOf(agent, said, embedder),
      start: segment[0]!.start,
      end: segment.at(-1)!.end,
    });
  }
  return entries;
}

/**
 * Exchanges: a new one starts at line 1 and at each partner line that follows the agent's — or at
 * that agent line, when the agent asked it (a question the agent wrote itself belongs with the
 * partner's answer; a reply memlane generated never opens an exchange).
 */
function exchangesOf(agent: string, lines: MemoLine[]): Exchange[] {
  const starts = new Set([0]);
  for (let i = 1; i < lines.length; i++) {
    const before = lines[i - 1]!;
    if (lines[i]!.speaker === agent || before.speaker !== agent) continue;
    const asked = !before.generated && /\?\s*$/.test(before.text);
    if (!asked) starts.add(i);
    else if (!starts.has(i - 1) && i - 1 > 0) starts.add(i - 1);
    else if (i - 1 > 0) starts.add(i);
  }
  const out: Exchange[] = [];
  for (const [i, l] of lines.entries()) {
    if (starts.has(i)) out.push({ start: i + 1, end: i + 1, said: [] });
    const ex = out.at(-1)!;
    ex.end = i + 1;
    if (!l.generated && l.text.trim()) ex.said.push({ speaker: l.speaker, text: l.text });
  }
  return out;
}

function mean(vectors: Float32Array[]): Float32Array {
  const out = new Float32Array(vectors[0]!.length);
  for (const v of vectors) for (let i = 0; i < v.length; i++) out[i]! += v[i]! / vectors.length;
  return out;
}

/**
 * The segment's salient noun phrase: noun phrases of what was said, scored by how many of the
 * segment's terms they carry and how early they come (the opening line usually names the task);
 * a speaker's name is who talked, not what about.
 */
function topicOf(said: { text: string }[], lines: MemoLine[], names: Set<string>): string {
  const counts = new Map<string, number>();
  for (const s of said) for (const t of bm25Terms(s.text)) counts.set(t, (counts.get(t) ?? 0) + 1);
  let best: { phrase: string; score: number } | null = null;
  for (const [n, s] of said.entries()) {
    const phrases = nlp(s.text.slice(0, 600)).nouns().out("array") as string[];
    for (const raw of phrases) {
      const phrase = cleanPhrase(raw);
      if (!phrase || EMPTY_PHRASE.test(phrase) || names.has(phrase.toLowerCase())) continue;
      // Words, not figures: a table's numbers name no topic.
      const terms = bm25Terms(phrase).filter((t) => /\p{L}{3}/u.test(t));
      if (terms.length === 0) continue;
      const weight = terms.reduce((sum, t) => sum + Math.log(1 + (counts.get(t) ?? 0)), 0);
      const score = weight / Math.sqrt(terms.length) / (1 + 0.5 * n);
      if (!best || score > best.score) best = { phrase, score };
    }
  }
  if (best) return best.phrase;
  // Nothing nominal: the most frequent words, or who spoke.
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return top.length ? top.map(([t]) => t).join(" ") : `talk with ${displayName(lines[0]!.speaker)}`;
}

/** A noun phrase without leading determiners and possessives, at most six words. */
function cleanPhrase(raw: string): string {
  const words = raw
    .replace(/[.,!?;:"“”()[\]]+/g, " ")
    .trim()
    .replace(
      /^(?:(?:the|a|an|my|your|our|his|her|their|its|this|that|these|those|some|any|[\d.,-]+)\s+)+/i,
      "",
    )
    .split(/\s+/)
    .filter(Boolean);
  return words.length ? words.slice(0, 6).join(" ") : "";
}

/** The one or two sentences closest to the segment's mean, in the order they were said. */
async function summaryOf(
  agent: string,
  all: { speaker: string; text: string }[],
  embedder: Embedder,
): Promise<string> {
  // What the partners brought is the memo's matter; the agent's own lines only when they said nothing.
  const theirs = all.filter((s) => s.speaker !== agent);
  const said = theirs.length ? theirs : all;
  const sentences = said.flatMap((s, order) =>
    (s.text.match(/[^.!?\n]+[.!?]*/g) ?? [s.text])
      .map((t) => t.trim())
      .filter((t) => t.split(/\s+/).length >= 3)
      .map((text) => ({ speaker: s.speaker, text, order })),
  );
  if (sentences.length === 0)
    return said.length ? `${displayName(said[0]!.speaker)}: ${clip(said[0]!.text)}` : "(only replies)";
  const vectors = await embedder.embed(sentences.map((s) => s.text));
  const centre = mean(vectors);
  const chosen = sentences
    .map((s, i) => ({ ...s, i, score: cosine(vectors[i]!, centre) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 2)
    .sort((a, b) => a.i - b.i);
  let out = "";
  for (const s of chosen) {
    const piece = `${displayName(s.speaker)}: ${s.text}`;
    if (out && out.length + piece.length > SUMMARY_CHARS) break;
    out = out ? `${out} ${piece}` : piece;
  }
  return clip(out);
}

function clip(text: string): string {
  if (text.length <= SUMMARY_CHARS) return text;
  const cut = text.slice(0, SUMMARY_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), SUMMARY_CHARS / 2))}…`;
}
