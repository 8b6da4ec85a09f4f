/**
 * Values built from a published JSON schema alone (the OpenAPI document, an MCP tool's input
 * schema): what a client that reads only the document would send.
 */
import assert from "node:assert/strict";

export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
  examples?: unknown[];
  additionalProperties?: unknown;
};

/** The smallest value a schema admits, from the schema alone. */
export function sample(
  schema: Schema,
  doc: { components?: { schemas?: Record<string, Schema> } },
  depth = 0,
  name = "value",
): unknown {
  if (schema.$ref) return sample(doc.components!.schemas![schema.$ref.split("/").pop()!]!, doc, depth, name);
  // Rules between fields (a transcript's speakers are its agent and partners) are said in prose
  // and shown by the schema's own example: a body the document gives as valid must be accepted.
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice && !schema.properties) return sample(choice[0]!, doc, depth + 1, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "object" || schema.properties) {
    const required = new Set(schema.required ?? []);
    // An anyOf of required lists: the first alternative's fields are required too.
    for (const alt of schema.anyOf ?? []) {
      for (const r of alt.required ?? []) required.add(r);
      break;
    }
    const out: Record<string, unknown> = {};
    for (const name of required) out[name] = sample(schema.properties?.[name] ?? {}, doc, depth + 1, name);
    return out;
  }
  if (type === "array")
    return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}, doc, depth + 1));
  if (type === "integer" || type === "number") return Math.max(schema.minimum ?? 1, 1);
  if (type === "boolean") return true;
  if (type === "string") {
    if (schema.format === "date-time") return "2024-03-02T18:00:00.000Z";
    // Each field its own value (its name), as a caller writing distinct things would send.
    const value = name;
    if (schema.pattern) assert.match(value, new RegExp(schema.pattern), "the sample fits the pattern");
    return value;
  }
  return {};
}
