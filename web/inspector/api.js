// Calls to memlane's REST API with the API key the user typed. The key lives in sessionStorage:
// it survives a reload of the tab but not closing it, and no other site can read it.

const KEY_ITEM = "memlane.apiKey";

/** The stored key, or "" when none was entered. */
export function storedKey() {
  return sessionStorage.getItem(KEY_ITEM) ?? "";
}

export function storeKey(key) {
  sessionStorage.setItem(KEY_ITEM, key);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_ITEM);
}

/** An error answer of the API: `code` and `field` as the server named them. */
export class ApiError extends Error {
  constructor(status, body) {
    const error = body?.error ?? {};
    super(error.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = error.code ?? "HTTP_ERROR";
    this.field = error.field;
  }
}

/** `/v1` + path, with the key as a bearer token (the same header every client uses). */
export async function api(path, { method = "GET", body } = {}) {
  const headers = { authorization: `Bearer ${storedKey()}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, json);
  return json;
}

/** A path segment from an id (ids may hold any character but surrounding spaces). */
export const seg = encodeURIComponent;
