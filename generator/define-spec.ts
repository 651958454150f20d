/**
 * `defineSpec` for specs written in TypeScript: the YAML form, type-checked, with zod schemas allowed
 * for `parameters`. TS specs have no source positions: their problems point at 1:1 with the spec path.
 */
import type { z } from 'zod';
import type { SpecShape, ToolShape } from '../schema/spec-schema.js';

/** A JSON Schema object as written in a spec. */
export type JsonSchemaInput = { readonly [key: string]: unknown };

/** `parameters` in a TS spec: a JSON Schema, the shorthand map, or a zod object schema. */
export type ParametersInput = JsonSchemaInput | z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig>;

/** A tool definition in a TS spec. */
export type ToolInput = {
  readonly [K in keyof Omit<ToolShape, 'parameters' | 'tags'>]: ToolShape[K];
} & {
  readonly tags?: readonly string[];
  readonly parameters?: ParametersInput;
};

/** An entry of a tool list: a definition, or the name of a tool defined elsewhere. */
export type ToolEntryInput = string | ToolInput;

type Group<G> = { readonly [K in keyof Omit<G, 'tools'>]: G[K] } & { readonly tools: readonly ToolEntryInput[] };
type Namespace = NonNullable<SpecShape['namespaces']>[number];
type Toolkit = NonNullable<SpecShape['toolkits']>[number];

/** A whole spec in TS form (the YAML shape, read-only, with zod allowed for parameters). */
export type SpecInput = {
  readonly [K in keyof Omit<SpecShape, 'tools' | 'namespaces' | 'toolkits' | 'policies'>]: SpecShape[K];
} & {
  readonly tools?: readonly ToolEntryInput[];
  readonly namespaces?: readonly Group<Namespace>[];
  readonly toolkits?: readonly Group<Toolkit>[];
  readonly policies?: { readonly [name: string]: readonly string[] };
};

/**
 * Declares a spec in TypeScript. Identity at run time; at compile time it
 * checks the shape and keeps literal names (`const` inference).
 *
 * @example
 * export default defineSpec({
 *   version: 1,
 *   tools: [{ name: 'read_file', description: 'Read a file',
 *             parameters: z.strictObject({ path: z.string() }) }],
 * });
 */
export function defineSpec<const S extends SpecInput>(spec: S): S {
  return spec;
}
