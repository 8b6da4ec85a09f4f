/**
 * Chat drops the apostrophe of a contraction ("im", "dont", "didnt", "thats") and writes "u" for
 * "you". These are a closed class, so the summarizer reads them as their full spelling before it
 * scores or rewrites a sentence: "im doing deliveries as well" is a first-person fact like "I'm
 * doing deliveries as well". Words that are also words of their own ("ill", "well", "were",
 * "its", "lets", "wed", "shell") are left as written, but for a "were" opening a statement, which
 * can only be "we're".
 */
const CONTRACTIONS: Record<string, string> = {
  im: "I'm",
  ive: "I've",
  youre: "you're",
  youve: "you've",
  theyre: "they're",
  theyve: "they've",
  weve: "we've",
  shes: "she's",
  thats: "that's",
  whats: "what's",
  theres: "there's",
  dont: "don't",
  doesnt: "doesn't",
  didnt: "didn't",
  cant: "can't",
  couldnt: "couldn't",
  shouldnt: "shouldn't",
  wouldnt: "wouldn't",
  isnt: "isn't",
  arent: "aren't",
  wasnt: "wasn't",
  werent: "weren't",
  havent: "haven't",
  hasnt: "hasn't",
  hadnt: "hadn't",
  u: "you",
};

const WORD = new RegExp(`(?<![\\p{L}'’-])(${Object.keys(CONTRACTIONS).join("|")})(?![\\p{L}'’-])`, "giu");

/**
 * "were" opening a sentence that asks nothing and inverts nothing ("were in a bungalow now", not
 * "Were it not for…", "Were you there?"): the "we're" of chat. An inverted "were" is followed by
 * its subject, a pronoun, a determiner or a name.
 */
const OPENING_WERE =
  /(^|[.!;]\s+)([Ww])ere\s+(?!(?:i|you|he|she|it|we|they|there|these|those|this|that|the|a|an|my|your|his|her|its|our|their|all\s+of)\b|\p{Lu})(?=[^.!?;]*(?:[.!;]|$))/gu;

/** The text with apostrophe-less contractions and "u" written out; a capital stays a capital. */
export function withContractionsSpelled(text: string): string {
  const read = /\?\s*$/.test(text)
    ? text
    : text.replace(OPENING_WERE, (_m, before: string, w: string) => `${before}${w}e're `);
  return read.replace(WORD, (word: string) => {
    const full = CONTRACTIONS[word.toLowerCase()]!;
    // "U" alone could be a letter or a grade ("got a U"): only the lower-case one is "you".
    if (word === "U") return word;
    return /^\p{Lu}/u.test(word) && full !== "I'm" && full !== "I've"
      ? full[0]!.toUpperCase() + full.slice(1)
      : full;
  });
}
