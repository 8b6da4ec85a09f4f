/**
 * Turns a model's almost-JSON into JSON: strips code fences and chatter around the value,
 * drops trailing commas, and closes a value cut off by a token limit where that is unambiguous.
 */
export function extractJson(text: string): unknown {
  const attempts = [text.trim()];
  const fenced = /```(?:json|JSON)?\s*([\s\S]*?)```/.exec(text);
  if (fenced) attempts.push(fenced[1]!.trim());
  const span = outermostJson(text);
  if (span) attempts.push(span);
  let lastError: unknown;
  for (const candidate of attempts) {
    for (const variant of [
      candidate,
      fixCommonFaults(candidate),
      closeOpenValue(fixCommonFaults(candidate)),
    ]) {
      try {
        return JSON.parse(variant);
      } catch (error) {
        lastError = error;
      }
    }
  }
  throw new SyntaxError(`No JSON value found in the answer (${(lastError as Error)?.message ?? "empty"})`);
}

/**
 * Every reading of a model's almost-JSON, most faithful first, for a caller that checks each
 * against a schema: `extractJson`'s readings, then, for an answer cut off by a token limit, the
 * value with its last unfinished element dropped (the elements before it are whole).
 */
export function jsonCandidates(text: string): unknown[] {
  const attempts = [text.trim()];
  const fenced = /```(?:json|JSON)?\s*([\s\S]*?)(?:```|$)/.exec(text);
  if (fenced) attempts.push(fenced[1]!.trim());
  const span = outermostJson(text);
  if (span) attempts.push(span);
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (const candidate of attempts) {
    const fixed = fixCommonFaults(candidate);
    for (const variant of [candidate, fixed, closeOpenValue(fixed), closeOpenValue(lastWhole(fixed))]) {
      if (seen.has(variant)) continue;
      seen.add(variant);
      try {
        out.push(JSON.parse(variant));
      } catch {
        // not this reading
      }
    }
  }
  return out;
}

/** Each bracket of `text` outside its strings, from `start`, with the nesting depth after it. */
function* brackets(text: string, start = 0): Generator<{ at: number; open: boolean; depth: number }> {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") yield { at: i, open: true, depth: ++depth };
    else if (c === "}" || c === "]") yield { at: i, open: false, depth: --depth };
  }
}

/** The text up to the end of the last element closed inside an open array or object. */
function lastWhole(text: string): string {
  let depth = 0;
  let cut = -1;
  for (const b of brackets(text)) {
    depth = b.depth;
    if (!b.open && depth >= 1) cut = b.at + 1;
  }
  return cut > 0 && depth > 0 ? text.slice(0, cut) : text;
}

/** The text from the first { or [ to its matching closer (or to the end if it never closes). */
function outermostJson(text: string): string | null {
  const start = text.search(/[{[]/);
  if (start < 0) return null;
  for (const b of brackets(text, start)) if (!b.open && b.depth === 0) return text.slice(start, b.at + 1);
  return text.slice(start);
}

function fixCommonFaults(text: string): string {
  return text
    .replace(/,\s*([}\]])/g, "$1") // trailing commas
    .replace(/[“”]/g, '"')
    .replace(/\bNone\b/g, "null")
    .replace(/\bTrue\b/g, "true")
    .replace(/\bFalse\b/g, "false");
}

/** Closes strings, arrays and objects left open at the end of a truncated answer. */
function closeOpenValue(text: string): string {
  const stack: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") stack.push("}");
    else if (c === "[") stack.push("]");
    else if (c === "}" || c === "]") stack.pop();
  }
  let out = inString ? `${text}"` : text;
  out = out.replace(/,\s*$/, "");
  return out + stack.reverse().join("");
}
