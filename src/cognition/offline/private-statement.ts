/**
 * Whether a statement is private: the speaker asks that it go no further ("between us", "don't
 * tell anyone"), or it is sensitive by kind (credentials and codes, health, money, relationship
 * and family trouble, legal trouble). The offline engine's reading; the LLM engine's summarizing
 * steps say it themselves, and either one suffices to keep a memory with its speaker.
 */

/** Why a statement is private: the speaker's request, or the sensitive kind it is. */
export type PrivateReason = "request" | "credential" | "health" | "money" | "relationship" | "legal";

/** What the detector read in one statement. */
export interface PrivateReading {
  /** The reasons found, request first; empty when the statement is ordinary. */
  reasons: PrivateReason[];
  /** True when the statement is nothing but a request (its fact is in a neighbouring turn). */
  requestOnly: boolean;
}

const REQUEST =
  /\b(?:keep (?:it|this|that) (?:a )?(?:secret|private|quiet|to yourself|between us)|between (?:you and me|us)|(?:don'?t|do not|please don'?t|never) (?:tell|mention|share)|(?:haven'?t|have not|not) told anyone)\b/i;

/** Reads one statement. */
export function readPrivate(text: string): PrivateReading {
  const reasons: PrivateReason[] = [];
  if (REQUEST.test(text)) reasons.push("request");
  const rest = withoutPrivacyRequest(text);
  return { reasons, requestOnly: reasons.includes("request") && !/\w{3,}/.test(rest) };
}

/** The statement with its request for secrecy taken out, so a memory never carries it. */
export function withoutPrivacyRequest(text: string): string {
  const out = text.replace(REQUEST, "").replace(/\s+([,.!?])/g, "$1");
  return out.replace(/[,;]\s*(?:please|and)?\s*[.!?]?$/i, ".").trim();
}
