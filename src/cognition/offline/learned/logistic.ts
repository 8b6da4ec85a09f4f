/**
 * Multinomial logistic regression: small, dependency-free, deterministic. The offline pair
 * operator and relation linker are trained with it (`npm run train`); their weights ship in
 * data/models/ as JSON so anyone can retrain them and get the same numbers.
 */

/** A trained model: features are standardised with `mean`/`scale`, then scored per label. */
export interface LogisticModel {
  labels: string[];
  mean: number[];
  scale: number[];
  /** weights[label][feature] */
  weights: number[][];
  bias: number[];
}

export interface TrainOptions {
  /** L2 penalty on the weights (not the biases), per example. */
  l2?: number;
  /** Full-batch passes of gradient descent with Adam. */
  epochs?: number;
  learningRate?: number;
  /** Per-example weights (e.g. to balance labels); 1 each by default. */
  sampleWeights?: number[];
}

/** Label probabilities for one feature vector, in `model.labels` order. */
export function predictProba(model: LogisticModel, x: ArrayLike<number>): number[] {
  const z = model.weights.map((w, k) => {
    let s = model.bias[k]!;
    for (let j = 0; j < w.length; j++) s += w[j]! * ((x[j]! - model.mean[j]!) / model.scale[j]!);
    return s;
  });
  return softmax(z);
}

/** The `n` most probable labels as "LABEL 0.87" (for a decision's rationale). */
export function topLabels(labels: string[], p: number[], n = 3): string {
  return p
    .map((_, k) => k)
    .sort((a, b) => p[b]! - p[a]!)
    .slice(0, n)
    .map((k) => `${labels[k]} ${p[k]!.toFixed(2)}`)
    .join(", ");
}

function softmax(z: number[]): number[] {
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/** Fits a model to rows `x` with labels `y` (each one of `labels`). Deterministic: zero start. */
export function trainLogistic(
  x: ArrayLike<number>[],
  y: string[],
  labels: string[],
  options: TrainOptions = {},
): LogisticModel {
  const n = x.length;
  if (n === 0 || n !== y.length) throw new Error("trainLogistic needs as many labels as rows, and some rows");
  const d = x[0]!.length;
  const l2 = options.l2 ?? 1e-2;
  const epochs = options.epochs ?? 300;
  const lr = options.learningRate ?? 0.05;
  const sw = options.sampleWeights ?? new Array(n).fill(1);
  const totalWeight = sw.reduce((a, b) => a + b, 0);
  const mean = new Array(d).fill(0);
  const scale = new Array(d).fill(0);
  for (const row of x) for (let j = 0; j < d; j++) mean[j] += row[j]! / n;
  for (const row of x) for (let j = 0; j < d; j++) scale[j] += (row[j]! - mean[j]) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j]) || 1;
  const z = x.map((row) => Float64Array.from({ length: d }, (_, j) => (row[j]! - mean[j]) / scale[j]));
  const target = y.map((label) => {
    const k = labels.indexOf(label);
    if (k < 0) throw new Error(`unknown label ${label}`);
    return k;
  });
  const K = labels.length;
  const w = Array.from({ length: K }, () => new Float64Array(d));
  const b = new Float64Array(K);
  // Adam state.
  const mw = Array.from({ length: K }, () => new Float64Array(d));
  const vw = Array.from({ length: K }, () => new Float64Array(d));
  const mb = new Float64Array(K);
  const vb = new Float64Array(K);
  const [beta1, beta2, eps] = [0.9, 0.999, 1e-8];
  const gw = Array.from({ length: K }, () => new Float64Array(d));
  const gb = new Float64Array(K);
  for (let epoch = 1; epoch <= epochs; epoch++) {
    for (let k = 0; k < K; k++) {
      gw[k]!.fill(0);
      gb[k] = 0;
    }
    for (let i = 0; i < n; i++) {
      const row = z[i]!;
      const scores = new Array(K);
      for (let k = 0; k < K; k++) {
        let s = b[k]!;
        const wk = w[k]!;
        for (let j = 0; j < d; j++) s += wk[j]! * row[j]!;
        scores[k] = s;
      }
      const p = softmax(scores);
      const weight = sw[i]! / totalWeight;
      for (let k = 0; k < K; k++) {
        const g = (p[k]! - (target[i] === k ? 1 : 0)) * weight;
        if (g === 0) continue;
        gb[k] = gb[k]! + g;
        const gk = gw[k]!;
        for (let j = 0; j < d; j++) gk[j] = gk[j]! + g * row[j]!;
      }
    }
    const c1 = 1 - beta1 ** epoch;
    const c2 = 1 - beta2 ** epoch;
    for (let k = 0; k < K; k++) {
      const wk = w[k]!;
      const gk = gw[k]!;
      const mk = mw[k]!;
      const vk = vw[k]!;
      for (let j = 0; j < d; j++) {
        const g = gk[j]! + l2 * wk[j]!;
        mk[j] = beta1 * mk[j]! + (1 - beta1) * g;
        vk[j] = beta2 * vk[j]! + (1 - beta2) * g * g;
        wk[j] = wk[j]! - (lr * (mk[j]! / c1)) / (Math.sqrt(vk[j]! / c2) + eps);
      }
      mb[k] = beta1 * mb[k]! + (1 - beta1) * gb[k]!;
      vb[k] = beta2 * vb[k]! + (1 - beta2) * gb[k]! * gb[k]!;
      b[k] = b[k]! - (lr * (mb[k]! / c1)) / (Math.sqrt(vb[k]! / c2) + eps);
    }
  }
  const round = (v: number) => Number(v.toPrecision(6));
  return {
    labels: [...labels],
    mean: mean.map(round),
    scale: scale.map(round),
    weights: w.map((wk) => Array.from(wk, round)),
    bias: Array.from(b, round),
  };
}
