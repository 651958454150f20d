/**
 * The loose, user-written shape of a toolroute spec: the ONE definition of
 * which keys exist, what type each has, and the help text editors show.
 *
 * `toolspec.schema.json` is emitted from this file (`schema/emit-json-schema.ts`)
 * and the generator's validator parses specs with it, so the editor schema and
 * the build can never disagree. Objects are strict: an unknown key (a typo
 * such as `namespace:` or `descripton:`) is an error, never silently ignored.
 *
 * Only the shape lives here. Rules that need the whole spec (unique names,
 * references, collisions, JSON Schema validity of `parameters`) are checked in
 * `generator/validate.ts`, with source positions.
 */
import { z } from 'zod';
import { NAMESPACE_ENCODINGS } from '../generator/ir.js';
import { TARGETS } from '../runtime/contract.js';
import { TOOLKIT_LOADING_STRATEGIES } from '../runtime/toolkit-loading.js';

/** Spec format versions this toolroute understands. */
export const SUPPORTED_SPEC_VERSIONS = [1] as const;

/**
 * `parameters` as written: a JSON object. Whether it is a full JSON Schema or
 * the shorthand properties map, and whether it is valid, is decided in
 * validate.ts (with ajv), because zod cannot point at the line of a nested
 * schema keyword.
 */
export const ParametersSchema = z
  .record(z.string(), z.unknown())
  .describe(
    'Arguments of the tool. Either a JSON Schema with `type: object` (draft 2020-12 by default; draft-07 when its `$schema` says so), ' +
      'or the shorthand: a map from property name to property schema, e.g. `{ path: { type: string } }`, which means ' +
      '`{ type: object, properties: <the map> }` (every property optional). Local `$ref`s are inlined; remote and recursive refs are refused. ' +
      'Absent = the tool takes no arguments.',
  );

/** A tool definition: the unit with a handler and a validator. */
export const ToolSchema = z
  .strictObject({
    name: z
      .string()
      .describe(
        'Unique in the whole spec; the key of its handler. Letters, digits, `_` and `-`, starting with a letter or `_`, 64 characters at most (a name every provider accepts).',
      ),
    description: z.string().describe('What the tool does, as the model reads it. Required, not empty.'),
    tags: z
      .array(z.string())
      .optional()
      .describe(
        'Words that keep this flat tool when `pruneByTask` sees them in the task (case-insensitive). No tags = always kept. Tags must not be empty.',
      ),
    parameters: ParametersSchema.optional(),
    returns: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'What the tool returns, as a JSON Schema with `type: object` (same rules and forms as `parameters`), e.g. an MCP tool\'s `outputSchema` ' +
          '(`toolroute import mcp` writes it). Types the result as `ToolResults[name]` in the generated types; never sent to a provider, never validated at run time.',
      ),
    deferLoading: z
      .boolean()
      .optional()
      .describe(
        'Mark the tool for provider-side tool search (Anthropic `defer_loading`); other targets ignore it. At least one tool the model sees must not be deferred.',
      ),
  })
  .describe('A tool definition.');

/** An entry of a group's (or the flat) tool list: a definition, or the name of a tool defined elsewhere. */
export const ToolEntrySchema = z
  .union([
    z
      .string()
      .describe('The name of a tool defined elsewhere in this spec (a tool is defined once and may be listed in several groups).'),
    ToolSchema,
  ])
  .describe('A tool definition, or the name of a tool defined elsewhere in this spec.');

const toolList = (what: string) => z.array(ToolEntrySchema).describe(what);

/** Layer 1: one stable tool per group; the model picks `action` (= a tool name). */
export const NamespaceSchema = z
  .strictObject({
    name: z
      .string()
      .describe('The name of the namespace tool the model calls. Same rule as tool names; must differ from every tool name.'),
    description: z.string().describe('What the group is for, as the model reads it. Required, not empty.'),
    encoding: z
      .enum(NAMESPACE_ENCODINGS)
      .optional()
      .describe('How this namespace carries its actions\' arguments; overrides `options.namespaceEncoding`.'),
    tools: toolList('The actions of this namespace (at least one): tool definitions or names of tools defined elsewhere.'),
  })
  .describe('A namespace: one stable tool routed by `action`.');

/** Layer 2: listed in the directory XML, loaded on demand through `load_toolkit`. */
export const ToolkitSchema = z
  .strictObject({
    name: z.string().describe('The toolkit name the model passes to `load_toolkit`. Unique ignoring case.'),
    description: z.string().describe('What the toolkit offers, shown in the toolkit directory. Required, not empty.'),
    tools: toolList('The tools this toolkit loads (at least one): tool definitions or names of tools defined elsewhere.'),
  })
  .describe('A toolkit: listed in the directory, its tools loaded on demand.');

export const OptionsSchema = z
  .strictObject({
    namespaceEncoding: z
      .enum(NAMESPACE_ENCODINGS)
      .optional()
      .describe('Default encoding of namespace tools. `compact` (default) or `schema`.'),
    openaiStrict: z
      .boolean()
      .optional()
      .describe('Emit OpenAI strict-mode schemas (every property required, optional ones nullable). Default false.'),
    offerUngroupedTools: z
      .boolean()
      .optional()
      .describe(
        'Offer the flat tools that are in no namespace in the default tool set, after the namespaces. Default true. `false`: a spec with namespaces or toolkits offers only those (and `load_toolkit`), and codegen warns about each tool that then reaches no model.',
      ),
    toolkitLoading: z
      .union([
        z.enum(TOOLKIT_LOADING_STRATEGIES),
        z.strictObject(Object.fromEntries(TARGETS.map((t) => [t, z.enum(TOOLKIT_LOADING_STRATEGIES).optional()])) as Record<(typeof TARGETS)[number], z.ZodOptional<z.ZodEnum<{ [S in (typeof TOOLKIT_LOADING_STRATEGIES)[number]]: S }>>>),
      ])
      .optional()
      .describe(
        'How a loaded toolkit reaches the model without breaking the prompt cache: `native` (default: each target\'s own mechanism), `dispatcher` (one stable `call_toolkit_tool`), `append` (loaded tools appended to `tools`; costs the cache reuse of everything after them), `tool-changes` (Anthropic mid-conversation `tool_addition` blocks; `native` elsewhere), or a mapping from target to strategy. The router\'s `toolkitLoading` option overrides it.',
      ),
    applyDefaults: z
      .boolean()
      .optional()
      .describe(
        'Fill JSON Schema `default` values into the arguments before the handler runs (ajv `useDefaults`; never inside anyOf/oneOf/not/if), and type those properties as required for the handler. The caller\'s arguments object is never changed. Default false.',
      ),
  })
  .describe('Spec-wide options.');

/** The whole spec as written. */
export const SpecSchema = z
  .strictObject({
    $schema: z.string().optional().describe('The JSON Schema of this file, for editors. Ignored by toolroute.'),
    version: z.literal(SUPPORTED_SPEC_VERSIONS).describe('Spec format version. Must be 1.'),
    options: OptionsSchema.optional(),
    tools: toolList('Flat tools, pruned by task: tool definitions or names of tools defined elsewhere.').optional(),
    namespaces: z.array(NamespaceSchema).optional().describe('Namespaces (layer 1).'),
    toolkits: z.array(ToolkitSchema).optional().describe('Toolkits (layer 2), loaded on demand through `load_toolkit`.'),
    policies: z
      .record(
        z.string(),
        z.array(z.string()).describe('Tool, namespace or toolkit names this policy blocks.'),
      )
      .optional()
      .describe('Named blocklists: policy name → tool, namespace or toolkit names.'),
  })
  .describe('A toolroute spec: the tools an LLM agent may call, compiled into a typed router.');

/** The spec as the user writes it (YAML/JSON form). */
export type SpecShape = z.input<typeof SpecSchema>;
export type ToolShape = z.input<typeof ToolSchema>;

/** The kinds of objects in a spec, for messages ("unknown key of a tool"). */
export const OBJECT_KINDS = ['spec', 'options', 'tool', 'namespace', 'toolkit'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

/** The keys each kind of object accepts, read from the zod shapes above (one source of truth). */
export const KNOWN_KEYS = {
  spec: Object.keys(SpecSchema.shape),
  options: Object.keys(OptionsSchema.shape),
  tool: Object.keys(ToolSchema.shape),
  namespace: Object.keys(NamespaceSchema.shape),
  toolkit: Object.keys(ToolkitSchema.shape),
} as const satisfies Record<ObjectKind, readonly string[]>;

/** The JSON Schema editors use, emitted from `SpecSchema` (draft-07: what editors support best). */
export function specJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(SpecSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
}
