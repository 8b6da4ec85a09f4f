/** Reads a transcript file in memlane or LoCoMo format into validated transcripts. */
import { readFile } from "node:fs/promises";
import { InvalidInputError, NotFoundError } from "../../../core/errors.js";
import { isLocomo, readLocomo } from "./locomo.js";
import { type Transcript, validateTranscript } from "./transcript.js";

export type TranscriptFormat = "memlane" | "locomo" | "auto";

export const TRANSCRIPT_FORMATS: TranscriptFormat[] = ["auto", "memlane", "locomo"];

export async function loadTranscripts(
  path: string,
  options: { format?: TranscriptFormat; agent?: string } = {},
): Promise<Transcript[]> {
  const format = options.format ?? "auto";
  if (!TRANSCRIPT_FORMATS.includes(format))
    throw new InvalidInputError(`Unknown format "${format}"; use one of ${TRANSCRIPT_FORMATS.join(", ")}`);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") throw new NotFoundError(`No file at ${path}`);
    throw new InvalidInputError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const chosen = format === "auto" ? (isLocomo(raw) ? "locomo" : "memlane") : format;
  if (chosen === "locomo") return readLocomo(raw, { agent: options.agent }).map((s) => s.transcript);
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) throw new InvalidInputError(`${path} holds no transcript`);
  return list.map((t, i) => validateTranscript(t, list.length > 1 ? `${path} [${i}]` : path));
}
