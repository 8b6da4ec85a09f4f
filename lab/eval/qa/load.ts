/**
 * Opens a QA data set by its shape: a LoCoMo file, a LongMemEval file, or a BEAM folder (one
 * conversation's `chat.json` and probing questions, or a folder of such folders). `--format`
 * names the format when its shape is not enough.
 */
import { stat } from "node:fs/promises";
import { readJson } from "../../../src/cli/read-text.js";
import { InvalidInputError } from "../../../src/core/errors.js";
import { isLocomo } from "../../../src/engine/ingest/formats/locomo.js";
import type { QaSet } from "./qa-set.js";
import { isBeamChat, readBeamFolder } from "./readers/beam.js";
import { readLocomoQa } from "./readers/locomo.js";
import { isLongMemEval, readLongMemEval } from "./readers/longmemeval.js";

/** The formats `--format` names (auto: by the file's shape). */
export const QA_FORMATS = ["auto", "locomo", "longmemeval", "beam"] as const;
/** One of QA_FORMATS. */
export type QaFormat = (typeof QA_FORMATS)[number];

/** Reads `path` as `format` ("auto": by its shape). */
export async function loadQaSet(
  path: string,
  options: { format?: QaFormat; agent?: string } = {},
): Promise<QaSet> {
  const format = options.format ?? "auto";
  if (!QA_FORMATS.includes(format))
    throw new InvalidInputError(`--format must be one of ${QA_FORMATS.join(", ")}, not "${format}"`);
  const folder = await stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (folder || format === "beam") {
    if (!folder)
      throw new InvalidInputError(
        `BEAM is read from a folder (chat.json and its probing questions): ${path}`,
      );
    return readBeamFolder(path);
  }
  const raw = await readJson(path);
  if (format === "locomo" || (format === "auto" && isLocomo(raw))) return readLocomoQa(raw, options);
  if (format === "longmemeval" || (format === "auto" && isLongMemEval(raw))) return readLongMemEval(raw);
  if (isBeamChat(raw))
    throw new InvalidInputError(
      `${path} is a BEAM chat: give its folder, which holds the probing questions beside it`,
    );
  throw new InvalidInputError(
    `${path} is not a LoCoMo or LongMemEval file, nor a BEAM folder; name the format with --format`,
  );
}
