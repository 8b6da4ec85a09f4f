/**
 * Checks a list of turns as a whole before any is stored: who speaks, how long each is, and that
 * their times never go back. A list that fails here stores nothing, where adding the turns one by
 * one would have stored those before the bad one.
 */
import { InvalidInputError } from "../../core/errors.js";
import { checkTurnLength, conversationTime } from "../api.js";

/** One turn of a list, as the caller named it. */
export interface ListedTurn {
  speaker: string;
  text: string;
  at?: string;
}

/**
 * The turns' times, read and checked: each at or after the one before it, the first at or after
 * `floor` (the session's time, or its last turn's).
 * @throws {InvalidInputError} a speaker not among `speakers`, a text over `maxTurnChars`, an
 *   unreadable time or one earlier than the turn before it; `details.field` is `<field>.<i>.<name>`
 *   (`<i>.<name>` when `field` is empty: the list is the whole input)
 */
export function checkTurnList(
  turns: ListedTurn[],
  options: { speakers: string[]; floor: string; maxTurnChars: number; field: string },
): (string | undefined)[] {
  let floor = options.floor;
  return turns.map((t, i) => {
    const at = options.field ? `${options.field}.${i}` : String(i);
    if (!options.speakers.includes(t.speaker))
      throw new InvalidInputError(
        `Unknown speaker "${t.speaker}" in ${options.field ? at : `turn ${i}`}; expected one of ${options.speakers.join(", ")}`,
        { field: `${at}.speaker` },
      );
    checkTurnLength(t.text, options.maxTurnChars, `${at}.text`);
    if (t.at === undefined) return undefined;
    const time = conversationTime(t.at, `${at}.at`);
    if (time < floor)
      throw new InvalidInputError(
        `The time of ${options.field ? at : `turn ${i}`} (${t.at}) is earlier than the turn before it (${floor})`,
        {
          field: `${at}.at`,
        },
      );
    floor = time;
    return time;
  });
}
