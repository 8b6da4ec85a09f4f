/** Vector maths on embeddings. Embedders return unit vectors, but we never assume it. */

export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}

export function norm(a: Float32Array): number {
  return Math.sqrt(dot(a, a));
}

export function cosine(a: Float32Array, b: Float32Array): number {
  const d = norm(a) * norm(b);
  return d === 0 ? 0 : dot(a, b) / d;
}

/** Scales a vector to unit length in place and returns it. */
export function normalize(a: Float32Array): Float32Array {
  const n = norm(a);
  if (n > 0) for (let i = 0; i < a.length; i++) a[i] = a[i]! / n;
  return a;
}
