/**
 * Reads LoCoMo's JSON (a list of samples, each a conversation between speaker_a and speaker_b
 * with `session_<n>` turn lists and `session_<n>_date_time` stamps) into memlane transcripts.
 * The agent is speaker_a unless `agent` names the other speaker. Turn ids keep LoCoMo's dia_id,
 * prefixed by the sample id, so evidence ids ("D1:3") can be matched later.
 */
import { InvalidInputError } from "../../../core/errors.js";
import { type RawTranscript, type Transcript, validateTranscript } from "./transcript.js";

interface LocomoTurn {
  speaker: string;
  dia_id?: string;
  text: string;
  blip_caption?: string;
  img_url?: string | string[];
}

export interface LocomoQuestion {
  question: string;
  answer?: unknown;
  adversarial_answer?: unknown;
  evidence?: unknown;
  category: number;
}

export interface LocomoSample {
  sampleId: string;
  transcript: Transcript;
  qa: LocomoQuestion[];
}

export function isLocomo(raw: unknown): boolean {
  const first = Array.isArray(raw) ? raw[0] : raw;
  return !!first && typeof first === "object" && "conversation" in first;
}

export function readLocomo(raw: unknown, options: { agent?: string } = {}): LocomoSample[] {
  const samples = Array.isArray(raw) ? raw : [raw];
  return samples.map((sample, i) => {
    const where = `LoCoMo sample ${i}`;
    if (!sample || typeof sample !== "object") throw new InvalidInputError(`${where} is not an object`);
    const s = sample as Record<string, unknown>;
    const conversation = s.conversation as Record<string, unknown> | undefined;
    if (!conversation || typeof conversation !== "object")
      throw new InvalidInputError(`${where} has no "conversation"`);
    const a = String(conversation.speaker_a ?? "");
    const b = String(conversation.speaker_b ?? "");
    if (!a || !b) throw new InvalidInputError(`${where} lacks speaker_a or speaker_b`);
    const agent = options.agent && [a, b].includes(options.agent) ? options.agent : a;
    const partner = agent === a ? b : a;
    const sampleId = String(s.sample_id ?? `sample-${i}`);
    // Enumerate session_<n> keys that hold turn lists, in numeric order.
    const numbers = Object.keys(conversation)
      .map((k) => /^session_(\d+)$/.exec(k)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((x, y) => x - y);
    const sessions: RawTranscript["sessions"] = [];
    for (const n of numbers) {
      const turns = conversation[`session_${n}`];
      if (!Array.isArray(turns) || turns.length === 0) continue;
      const at = conversation[`session_${n}_date_time`];
      if (typeof at !== "string")
        throw new InvalidInputError(`${where}: session_${n} has no session_${n}_date_time`);
      sessions.push({
        id: `${sampleId}:session_${n}`,
        at,
        partners: [partner],
        turns: (turns as LocomoTurn[]).map((t, ti) => ({
          id: `${sampleId}:${t.dia_id ?? `D${n}:${ti + 1}`}`,
          speaker: t.speaker,
          text: t.blip_caption ? `${t.text} [shares a photo: ${t.blip_caption}]` : t.text,
          meta: { dia_id: t.dia_id ?? null, ...(t.blip_caption ? { blip_caption: t.blip_caption } : {}) },
        })),
      });
    }
    const transcript = validateTranscript({ agent, sessions }, `${where} (${sampleId})`);
    return { sampleId, transcript, qa: Array.isArray(s.qa) ? (s.qa as LocomoQuestion[]) : [] };
  });
}
