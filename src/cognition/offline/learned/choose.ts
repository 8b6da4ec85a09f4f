/** Which trained model an offline step uses: the caller's, else the shipped one, if it fits the encoder. */
import type { Embedder } from "../../../models/embedder.js";

/**
 * `given` (undefined: use `shipped`; null: rules) when it was trained on this encoder's vectors;
 * otherwise null, and the step falls back to its hand-written rules.
 */
export function chooseModel<M extends { embedder: string }>(
  given: M | null | undefined,
  shipped: () => M | null,
  embedder: Embedder,
): M | null {
  const model = given === undefined ? shipped() : given;
  return model && model.embedder === embedder.name ? model : null;
}
