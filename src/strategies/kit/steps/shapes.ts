/** zod shapes that several steps' input schemas share. Loose objects: extra fields pass through. */
import { z } from "zod";

/** A stored turn as a step sees it. */
export const turnShape = z.looseObject({
  id: z.string().min(1),
  speaker: z.string().min(1),
  text: z.string(),
  at: z.string().min(1),
});

/** A recall result handed to the reply step. */
export const recallShape = z.looseObject({
  strategy: z.string(),
  query: z.string(),
  hits: z.array(z.looseObject({ id: z.string(), text: z.string(), kind: z.enum(["memory", "turn"]) })),
});
