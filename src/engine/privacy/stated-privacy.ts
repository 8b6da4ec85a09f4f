/**
 * Who may hear a memory the caller wrote (a correction, a fact added), by the rules the write path
 * keeps for memories learned in sessions (audience-stamp.ts), where there are no source turns to
 * read: a correction keeps the audience and privacy of the version it corrects, a fact added
 * about a partner is heard by that partner, and either becomes private, kept with those who
 * hear it, when its own text is sensitive by kind or asks to be kept secret (the request itself
 * is taken out of the text). Nothing that was private becomes less so.
 */
import { readPrivate, withoutPrivacyRequest } from "../../cognition/offline/private-statement.js";
import { type AudienceAttributes, audienceOf, privateTo } from "../../core/audience.js";
import type { Memory } from "../../core/types.js";

/** The stamp of a stated memory: its attributes' audience fields, and the text to store. */
export interface StatedPrivacy {
  attributes: AudienceAttributes;
  text: string;
}

/**
 * @param text the text as stated
 * @param about whom it is about
 * @param agent whose memory it is (a fact about the agent itself is heard by no partner in
 *   particular: agent-scope recalls find it, partner-scope ones do not)
 * @param carried the version a correction replaces, whose audience and privacy it keeps
 */
export function statedPrivacy(
  text: string,
  about: string,
  agent: string,
  carried?: Pick<Memory, "attributes">,
): StatedPrivacy {
  const audience = carried ? (audienceOf(carried) ?? [about]) : about === agent ? [] : [about];
  const attributes: AudienceAttributes = { audience };
  const keptFor = carried ? privateTo(carried) : undefined;
  if (keptFor) {
    attributes.privateTo = keptFor;
    const why = carried?.attributes.privateWhy;
    if (typeof why === "string") attributes.privateWhy = why;
  }
  const reading = readPrivate(text);
  if (reading.reasons.length === 0) return { attributes, text };
  if (!keptFor) {
    attributes.privateTo = audience.length > 0 ? audience : [about];
    attributes.privateWhy = reading.reasons.find((r) => r !== "request") ?? reading.reasons[0]!;
  }
  // A text that is nothing but the request keeps its words: there is no fact to keep apart.
  const stripped = withoutPrivacyRequest(text);
  return { attributes, text: /[\p{L}\p{N}]/u.test(stripped) ? stripped : text };
}
