/**
 * The example conversations that ship with the package, by name: what `memlane ingest --example`
 * reads, so the quick start works for an installed user whose working directory holds none.
 */
import { fileURLToPath } from "node:url";
import { InvalidInputError } from "../core/errors.js";

/** Each example: the file in the package's data/ and what it is. */
export const EXAMPLES = {
  demo: {
    file: new URL("../../data/demo-conversation.json", import.meta.url),
    about: "Ava and Sam over four sessions: a move, a new job, an illness and its end",
  },
  emma: {
    file: new URL("../../data/emma/demo-conversation.json", import.meta.url),
    about: "EMMA's mixed sessions: one agent with several people in turn",
  },
} as const;

/**
 * The path of a bundled example.
 * @throws {InvalidInputError} a name that is not an example (the message lists them)
 */
export function examplePath(name: string): string {
  const example = EXAMPLES[name as keyof typeof EXAMPLES];
  if (!example)
    throw new InvalidInputError(
      `There is no example "${name}"; the examples are: ${Object.keys(EXAMPLES).join(", ")}`,
      { field: "example" },
    );
  return fileURLToPath(example.file);
}
