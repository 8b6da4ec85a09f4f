/**
 * The corrections in a memory's history, one sentence each ("updated by the caller on 3 Mar
 * 2024: …", "restored on …"), read from the operations the caller's corrections wrote
 * (engine/correction/), so every surface shows them the same way.
 */
import { formatDay } from "../../core/time.js";
import type { Operation } from "../../core/types.js";

/** One correction of a memory, as history reads it. */
export interface CorrectionNote {
  /** The operation it was. */
  operation: string;
  type: "UPDATE" | "RESTORE" | "ADD";
  /** When the caller made it (system time). */
  at: string;
  text: string;
}

const quoted = (value: unknown) => `“${String(value ?? "")}”`;

/** The corrections among `operations` as they concern `memoryId`, in the log's order. */
export function correctionNotes(operations: Operation[], memoryId: string): CorrectionNote[] {
  const notes: CorrectionNote[] = [];
  for (const op of operations) {
    const day = formatDay(op.recordedAt || op.at);
    const inputs = (op.inputs ?? {}) as Record<string, unknown>;
    const outputs = (op.outputs ?? {}) as Record<string, unknown>;
    const note = (type: CorrectionNote["type"], text: string) =>
      notes.push({ operation: op.id, type, at: op.recordedAt || op.at, text });
    if (op.type === "UPDATE") {
      const role =
        outputs.memory === memoryId
          ? `this version replaced ${quoted(inputs.text)}`
          : `${quoted(inputs.text)} became ${quoted(outputs.text)}`;
      note("UPDATE", `updated by the caller on ${day}: ${role}`);
    } else if (op.type === "RESTORE") {
      const retired = Array.isArray(outputs.retired)
        ? (outputs.retired as { id: string; text: string }[])
        : [];
      const text =
        outputs.restored === memoryId
          ? `restored on ${day}: current again${retired.length ? `, retiring ${retired.map((r) => quoted(r.text)).join(", ")}` : ""}`
          : `retired on ${day} when the caller restored ${quoted(inputs.text)}`;
      note("RESTORE", text);
    } else if (op.type === "ADD")
      note("ADD", `added by the caller on ${day}, stored as given (dated ${formatDay(op.at)})`);
  }
  return notes;
}
