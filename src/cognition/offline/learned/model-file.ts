/** Reading a trained model that ships in data/models/, once, lazily. */
import { readFileSync } from "node:fs";

const DIR = new URL("../../../../data/models/", import.meta.url);

/**
 * A loader for data/models/<file>: the model, or null when the file is missing or `fits` refuses
 * it (trained for other features), so the caller falls back to its rules.
 */
export function loadModel<M>(file: string, fits: (model: M) => boolean): () => M | null {
  let loaded: M | null | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    try {
      const model = JSON.parse(readFileSync(new URL(file, DIR), "utf8")) as M;
      loaded = fits(model) ? model : null;
    } catch {
      loaded = null;
    }
    return loaded;
  };
}
