/**
 * A new identifier: a prefix naming the kind ("mem", "op", "edge"), then a time part and a
 * sequence so ids sort by creation, then randomness so two processes never collide.
 */
export function newId(prefix: string): string {
  const now = Date.now();
  // Ids made in the same millisecond keep their order of creation: rows listed "by id" come
  // back in the order they were written, so runs over the same input are reproducible.
  sequence = now === lastMs ? sequence + 1 : 0;
  lastMs = now;
  const time = now.toString(36).padStart(9, "0");
  return `${prefix}_${time}${sequence.toString(36).padStart(3, "0")}${randomHex(4)}`;
}

let lastMs = 0;
let sequence = 0;

/** Lower-case, dash-separated form of a display name ("Mary Ann" -> "mary-ann"). */
export function slug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Display form of an id ("mary-ann" -> "Mary Ann"); names already capitalised are kept. */
export function displayName(id: string): string {
  if (/[A-Z]/.test(id)) return id;
  return id
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join(" ");
}

function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  return Array.from(buffer, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One string key for several ids (a tenant, an agent, a session…), for in-process maps. It is
 * the ids as a JSON array, so two different lists of ids never give the same key, whatever the
 * ids hold: ids joined by a separator collide as soon as one id contains the separator.
 */
export function compositeKey(...ids: string[]): string {
  return JSON.stringify(ids);
}
