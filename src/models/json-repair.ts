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

/** The text from the first { or [ to its matching closer (or to the end if it never closes). */
function outermostJson(text: string): string | null {
  const start = text.search(/[{[]/);
  if (start < 0) return null;
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
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
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
