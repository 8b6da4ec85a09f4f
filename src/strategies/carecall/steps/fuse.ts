/** Step `carecall.fuse`: one sentence that keeps what a memory and a summary both say (the FUSION case). */
import { z } from "zod";
import { fuseOffline } from "../../../cognition/offline/pair-operator.js";
import { defineStep } from "../../../cognition/step.js";

export interface FuseInput {
  about: string;
  memory: string;
  summary: string;
}

const answer = z.object({ sentence: z.string().min(3).max(400) });

export const fuseStep = defineStep<FuseInput, string, z.infer<typeof answer>>({
  name: "carecall.fuse",
  version: 1,
  description: "merge an older memory and a newer statement into one sentence",
  input: z.object({ about: z.string().min(1), memory: z.string().min(1), summary: z.string().min(1) }),
  output: answer,
  prompt: (input) => [
    {
      role: "system",
      content: `Merge two statements about ${input.about} into one short third-person sentence that keeps every fact still true, preferring the newer statement where they disagree. Answer with JSON only: {"sentence": "..."}`,
    },
    { role: "user", content: `Older: ${input.memory}\nNewer: ${input.summary}` },
  ],
  decode: (a) => a.sentence.trim(),
  offline: (input) => fuseOffline(input.memory, input.summary, input.about),
});
