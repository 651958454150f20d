/**
 * The normalized intermediate representation of a spec, all the emitters see: defaults filled in,
 * references resolved, in declaration order (what makes the output deterministic without sorting).
 */
import type { ToolkitLoadingOption } from '../runtime/toolkit-loading.js';

/** A JSON value as it appears in a spec (schemas, enum values, defaults). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Whether a JSON value is an object (not an array, not null). */
export const isJsonObject = (v: unknown): v is Record<string, JsonValue> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A JSON Schema object. In the IR always draft 2020-12 form without `$schema`
 * (draft-07 input is converted by normalize), so one Ajv2020 compiles them all.
 */
export type JsonSchema = { [key: string]: JsonValue };

/** Where something was written, for messages. Line and column are 1-based. */
export interface IRSource {
  /** Spec file path as given on the command line (never made absolute in output). */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Spec path, e.g. `namespaces[1].tools[0]`. */
  readonly path: string;
}

/** How a namespace tool carries its actions' arguments. See README "Namespace encodings". */
export const NAMESPACE_ENCODINGS = ['compact', 'schema'] as const;
export type IRNamespaceEncoding = (typeof NAMESPACE_ENCODINGS)[number];

/** Spec-wide options, defaults filled in. */
export interface IROptions {
  /** Default encoding of namespace tools; a namespace may override it. Default `compact`. */
  readonly namespaceEncoding: IRNamespaceEncoding;
  /**
   * Emit OpenAI strict-mode schemas (every property required, optional ones
   * nullable, objects closed). Default false. The runtime decodes the nulls back.
   */
  readonly openaiStrict: boolean;
  /**
   * Offer the flat tools that are in no namespace in the default tool set,
   * after the namespaces. Default true. With false, a spec
   * with namespaces or toolkits offers only those by default, and codegen
   * warns (`unreachable_tool`) about each tool that then reaches no model.
   */
  readonly offerUngroupedTools: boolean;
  /**
   * The spec's default `toolkitLoading` strategy (runtime/toolkit-loading.ts);
   * absent when the spec sets none (so the router's default, `native`, applies
   * and specs without it keep their bytes). The router's option overrides it.
   */
  readonly toolkitLoading?: ToolkitLoadingOption;
  /**
   * Validators fill JSON Schema `default`s into the arguments (ajv
   * `useDefaults`), and the argument types make those properties required
   * for the handler (which defaults apply: emit/defaults.ts).
   * Default false.
   */
  readonly applyDefaults: boolean;
}

/** One tool: the unit that has a handler and a validator. */
export interface IRTool {
  /** Unique in the whole spec; the key of its handler. */
  readonly name: string;
  readonly description: string;
  /** As written (case preserved); matching lowercases at codegen time. */
  readonly tags: readonly string[];
  readonly deferLoading: boolean;
  /**
   * The argument schema: `type: "object"`, shorthand expanded, local `$ref`s
   * inlined (no `$defs` left), remote refs refused before this point.
   */
  readonly parameters: JsonSchema;
  /** Whether the user wrote any `parameters` at all (absent = takes no arguments). */
  readonly hasParameters: boolean;
  /** The result schema (`returns`), normalized like `parameters`; absent (not undefined) when the spec gives none, so the hash ignores it. */
  readonly returns?: JsonSchema;
  /** A unique, valid TS identifier for the argument type, e.g. `ReadFileArgs`. */
  readonly typeName: string;
  /** Whether the tool is offered as a flat tool (listed under top-level `tools`). */
  readonly flat: boolean;
  /** Indices into `IRSpec.namespaces` where this tool is an action, ascending. */
  readonly namespaces: readonly number[];
  /** Indices into `IRSpec.toolkits` that contain this tool, ascending. */
  readonly toolkits: readonly number[];
  readonly source: IRSource;
}

/** Layer 1: one stable tool per group; the model picks `action` (= a tool name). */
export interface IRNamespace {
  readonly name: string;
  readonly description: string;
  readonly encoding: IRNamespaceEncoding;
  /** Indices into `IRSpec.tools`, in declaration order. */
  readonly tools: readonly number[];
  readonly source: IRSource;
}

/** Layer 2: listed in the directory XML, loaded on demand through `load_toolkit`. */
export interface IRToolkit {
  readonly name: string;
  readonly description: string;
  /** Indices into `IRSpec.tools`, in declaration order. */
  readonly tools: readonly number[];
  readonly source: IRSource;
}

/** A named blocklist. */
export interface IRPolicy {
  readonly name: string;
  /** Tool, namespace or toolkit names, as written (validated to exist). */
  readonly block: readonly string[];
  readonly source: IRSource;
}

/** The whole normalized spec. */
export interface IRSpec {
  readonly version: 1;
  /** Spec file path as given (relative, POSIX separators); used only in messages. */
  readonly file: string;
  /**
   * sha256 (hex) of the canonical JSON of this IR without sources, so the same
   * spec in YAML, JSON or TS form, at any path, has the same hash.
   */
  readonly hash: string;
  readonly options: IROptions;
  /** Every tool, unique by name, in order of first definition. */
  readonly tools: readonly IRTool[];
  /** Indices into `tools` of the flat tools, in declaration order. */
  readonly flat: readonly number[];
  readonly namespaces: readonly IRNamespace[];
  readonly toolkits: readonly IRToolkit[];
  readonly policies: readonly IRPolicy[];
}

/** The library's own names and the tool-name rule: the runtime's, so a spec and a registration obey the same ones. */
export { LOAD_TOOLKIT_NAME as LOAD_TOOLKIT, PORTABLE_TOOL_NAME, RESERVED_TOOL_NAMES } from '../runtime/contract.js';
