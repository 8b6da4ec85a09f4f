/** Step `carecall.fuse`: one sentence that keeps what a memory and a summary both say (the FUSION case). */
import { z } from "zod";
import { fuseOffline } from "../../../cognition/offline/pair-operator.js";
import { defineStep } from "../../../cognition/step.js";
import { formatDay } from "../../../core/time.js";

export interface FuseInput {
  about: string;
  memory: string;
  summary: string;
  /** When each was said (conversation time), shown so that dates in them can be weighed. */
  memoryAt?: string;
  summaryAt?: string;
}

const answer = z.object({ sentence: z.string().min(3).max(400) });

/** " (7 May 2024)" for a known time, as the pair prompts date their sentences. */
const when = (at?: string) => (at ? ` (${formatDay(at)})` : "");

export const fuseStep = defineStep<FuseInput, string, z.infer<typeof answer>>({
  name: "carecall.fuse",
  // v2: each statement shows the date it was said.
  version: 2,
  description: "merge an older memory and a newer statement into one sentence",
  input: z.object({
    about: z.string().min(1),
    memory: z.string().min(1),
    summary: z.string().min(1),
    memoryAt: z.string().optional(),
    summaryAt: z.string().optional(),
  }),
  output: answer,
  prompt: (input) => [
    {
      role: "system",
      content: `Merge two statements about ${input.about} into one short third-person sentence that keeps every fact still true, preferring the newer statement where they disagree. Answer with JSON only: {"sentence": "..."}`,
    },
    {
      role: "user",
      content: `Older${when(input.memoryAt)}: ${input.memory}\nNewer${when(input.summaryAt)}: ${input.summary}`,
    },
  ],
  decode: (a) => a.sentence.trim(),
  offline: (input) => fuseOffline(input.memory, input.summary, input.about),
});
