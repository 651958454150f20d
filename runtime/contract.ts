/**
 * The contract between the generator and the runtime: what a generated folder's `index.ts` exports, and the types both
 * sides share. The generator may import this file; the runtime never imports the generator.
 */

import type { ToolkitLoadingOption } from './toolkit-loading.js';

/** The providers `compile({ target })` renders for. */
export const TARGETS = ['anthropic', 'openai', 'openai-responses', 'gemini'] as const;
export type Target = (typeof TARGETS)[number];

/** Rendered tool sets exist for every target plus the reference library's provider-neutral form. */
export const RENDER_FORMS = ['neutral', ...TARGETS] as const;
export type RenderForm = (typeof RENDER_FORMS)[number];

/** Why a call was rejected: one closed set shared by `checkToolCall` and `dispatch`. */
export const REJECTION_CODES = [
  'empty_name', 'unknown_tool', 'blocked', 'not_loaded', 'unknown_action', 'malformed_arguments', 'invalid_arguments', 'handler_error',
  /** The handler did not settle within its time limit (`timeoutMs`); its `ctx.signal` was aborted. */
  'timeout',
  /** The caller's `signal` aborted while the handler ran; the handler's `ctx.signal` was aborted. */
  'aborted',
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

/** The name of the library-owned loader tool. */
export const LOAD_TOOLKIT_NAME = 'load_toolkit';
/** The library-owned tool through which loaded toolkit tools are called in `dispatcher` mode. */
export const TOOLKIT_DISPATCHER_NAME = 'call_toolkit_tool';
/** Names the library owns, reserved in specs and refused in registrations: the loader, the dispatcher, the reference library's library tools. */
export const RESERVED_TOOL_NAMES = [LOAD_TOOLKIT_NAME, TOOLKIT_DISPATCHER_NAME, 'context', 'new_context', 'create_memory', 'modify_memory', 'recall_context'] as const;
/** The tool-name rule every target accepts: a letter or `_`, then letters, digits, `_` or `-`, 64 at most. */
export const PORTABLE_TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** One ajv error, as an ajv standalone validator reports it (`allErrors: true`). */
export interface ValidationError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** An ajv standalone validate function: no schema compile, no eval at run time. */
export interface ValidateFn {
  (data: unknown): boolean;
  errors?: readonly ValidationError[] | null;
}

/** The reference library's provider-neutral tool definition: what `compile()` without a target returns. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly tags?: readonly string[];
  readonly deferLoading?: boolean;
}

/**
 * Wire name → spec name of top-level properties a target renders renamed (Anthropic's property-key rule,
 * runtime/targets/property-keys.ts); the router turns wire names back before validation.
 */
export type KeyDecodePlan = Readonly<Record<string, string>>;

/**
 * How to turn OpenAI strict-mode nulls back into absent arguments: `optional` lists the properties whose `null` means
 * "absent"; `nested` and `items` descend into object properties and array elements.
 */
export interface NullDecodePlan {
  readonly optional: readonly string[];
  readonly nested?: Readonly<Record<string, NullDecodePlan>>;
  readonly items?: NullDecodePlan;
}

/**
 * One tool's data. Indices point into `GeneratedSpec` arrays; what the groups already say (`flat`, `namespaces`,
 * `toolkits`) is derived by `specFromData`, not written twice.
 */
export interface ToolData {
  readonly name: string;
  readonly description: string;
  /** As written in the spec. */
  readonly tags: readonly string[];
  readonly deferLoading: boolean;
  /** The parameter schema, as the neutral definition (`rendered.neutral`) ships it. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Index into `GeneratedSpec.validators`; identical schemas share one validator. */
  readonly validator: number;
  /** Present when the spec asks for OpenAI strict mode and the tool has optional properties. */
  readonly nullDecode?: NullDecodePlan;
  /** Present when a top-level property key breaks Anthropic's rule: its Anthropic rendering uses these wire names. */
  readonly keyDecode?: KeyDecodePlan;
  /**
   * Present when the spec sets `applyDefaults` and this tool's validator fills a `default` into the arguments: the
   * router validates a copy, so the caller's arguments object (a history entry, a provider response) is never changed.
   */
  readonly fillsDefaults?: true;
}

/** One tool as `spec.gen.ts` writes it: its parameter schema by name, a key of `SpecData.schemas`; defaults left out. */
export interface SpecToolData extends Omit<ToolData, 'parameters' | 'tags' | 'deferLoading'> {
  readonly parameters: string;
  readonly tags?: readonly string[];
  readonly deferLoading?: true;
}

/** One tool as the runtime sees it: its data plus where the spec offers it. */
export interface GeneratedTool extends ToolData {
  /** Offered as a flat tool. */
  readonly flat: boolean;
  /** Indices into `GeneratedSpec.namespaces` where this tool is an action. */
  readonly namespaces: readonly number[];
  /** Indices into `GeneratedSpec.toolkits` that contain this tool. */
  readonly toolkits: readonly number[];
}

export interface GeneratedToolkit {
  readonly name: string;
  readonly description: string;
  /** Indices into `GeneratedSpec.tools` (in a namespace, the action name is the tool name). */
  readonly tools: readonly number[];
}

export interface GeneratedNamespace extends GeneratedToolkit {
  readonly encoding: 'compact' | 'schema';
}

/** Tool definitions already rendered for one form (a target, or `neutral`), frozen; `compile` selects from these. */
export interface RenderedTools {
  /** `tools[i]` is tool `i` rendered as a standalone tool (flat tools, loaded toolkit tools). */
  readonly tools: readonly unknown[];
  /** `namespaces[k]` is namespace `k` rendered as one tool routed by `action`. */
  readonly namespaces: readonly unknown[];
  /** The `load_toolkit` tool, or null when the spec has no toolkits. */
  readonly loader: unknown | null;
}

/** The type-level registry a generated folder carries, so `createRouter` can type handlers, names and results from a namespace import alone. */
export interface RegistryShape {
  /** Tool name → argument type. */
  readonly args: { readonly [tool: string]: unknown };
  readonly namespaces: string;
  readonly toolkits: string;
  readonly policies: string;
  /** Tool name → result type, for tools whose spec gives `returns` (absent when none does). */
  readonly results?: { readonly [tool: string]: unknown };
}

/** What a generated `index.ts` exports as `spec`. All arrays are frozen. */
export interface GeneratedSpec<R extends RegistryShape = RegistryShape> {
  /** Bumped when this contract changes incompatibly; the runtime refuses other values. */
  readonly formatVersion: 1;
  /** Content hash of the spec (same as the manifest's). */
  readonly hash: string;
  readonly tools: readonly GeneratedTool[];
  /** Indices into `tools` of the flat tools, in declaration order. */
  readonly flat: readonly number[];
  readonly namespaces: readonly GeneratedNamespace[];
  readonly toolkits: readonly GeneratedToolkit[];
  /** Policy name → blocked names (tools, namespaces or toolkits). */
  readonly policies: { readonly [policy: string]: readonly string[] };
  /** The `<available_toolkits>` directory, escaped; '' when there are no toolkits. */
  readonly directoryXml: string;
  readonly validators: readonly ValidateFn[];
  readonly rendered: { readonly [F in RenderForm]: RenderedTools };
  /** The spec's `options.offerUngroupedTools`, present only when false: the default tool set then leaves out flat tools in no namespace. */
  readonly offerUngroupedTools?: false;
  /** The spec's `options.toolkitLoading`, present only when set: the router's default strategy (its own option overrides it). */
  readonly toolkitLoading?: ToolkitLoadingOption;
  /** Phantom: never present at run time; carries the generated types. */
  readonly __registry?: R;
}

/** The data a generated `spec.gen.ts` writes, readable and in a stable order; `specFromData` (runtime/spec-data.ts) turns it into the `GeneratedSpec`. */
export interface SpecData
  extends Pick<GeneratedSpec, 'formatVersion' | 'hash' | 'flat' | 'namespaces' | 'toolkits' | 'policies' | 'offerUngroupedTools' | 'toolkitLoading'> {
  /** The spec's `options.openaiStrict`: how the target forms are rendered. */
  readonly openaiStrict: boolean;
  /** Each distinct parameter schema once, by name; tools that share a schema share its object. */
  readonly schemas: { readonly [name: string]: ToolData['parameters'] };
  readonly tools: readonly SpecToolData[];
}

/** The ranked tool search (`toolroute/search`'s `ToolSearch`) as the router uses it. */
export interface ToolSearchIndex {
  has(name: string): boolean;
  /** `groups`: the names and descriptions of the tool's namespaces and toolkits (`searchableTool`). */
  add(tool: { readonly name: string; readonly description: string; readonly tags: readonly string[]; readonly parameters: unknown; readonly groups?: readonly string[] }): void;
  /** Names best first, at most `k`, of the tools `include` accepts. */
  rank(query: string, options: { readonly k: number; readonly include?: (name: string) => boolean }): string[];
}
/** A generated folder's `loadSearch` (search.gen.ts): imports the search code on first use and returns an empty index. */
export type SearchLoader = () => Promise<ToolSearchIndex>;

/** What `createRouter` accepts: the namespace import of a generated `index.ts`. */
export interface GeneratedModule<R extends RegistryShape = RegistryShape> {
  readonly spec: GeneratedSpec<R>;
  /** The ranked tool search, loaded by the first `rankByTask` (absent from folders generated without one). */
  readonly loadSearch?: SearchLoader;
}

/** Tool names of a registry. */
export type ToolNameOf<R extends RegistryShape> = keyof R['args'] & string;

/**
 * The members of an abort signal toolroute itself relies on: the fallback of {@link AbortSignalOf} in a program that
 * declares no `AbortSignal` (no DOM lib, no `@types/node`), so the runtime's declarations compile there too.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The program's own `AbortSignal` type when it declares one (DOM lib or `@types/node`, so `ctx.signal` passes straight
 * to `fetch`), else {@link AbortSignalLike}. Read off `globalThis` so that naming the type never fails to compile.
 * @example
 * const run = (signal: AbortSignalOf) => fetch(url, { signal }); // with DOM or @types/node
 */
export type AbortSignalOf = typeof globalThis extends { readonly AbortSignal: { readonly prototype: infer S } } ? S : AbortSignalLike;

/** Per-dispatch context handed to every handler. */
export interface HandlerContext<C = unknown> {
  /** The provider's tool call id, when the call carried one. */
  readonly callId: string | undefined;
  /** Whatever the application passed to `dispatch(call, { context })`. */
  readonly context: C;
  /** Aborted when the call times out or the caller's `signal` aborts: pass it to `fetch`, child processes or an MCP `callTool` so abandoned work stops. */
  readonly signal: AbortSignalOf;
}

/** One handler per tool, keyed by tool name, however the tool is exposed. */
export type HandlersOf<R extends RegistryShape, C = unknown> = {
  readonly [K in ToolNameOf<R>]: (args: R['args'][K], ctx: HandlerContext<C>) => unknown;
};

/** Where an allowed call was routed from. */
export type CallVia = 'flat' | 'namespace' | 'toolkit';

/**
 * A resolved call: a union over every tool, with its typed arguments, plus the library's `load_toolkit` (its
 * `toolkit_name` in canonical spelling) when the spec has toolkits. The generated `ResolvedToolCall` is this type
 * written out, so the two are the same type both ways.
 */
export type ResolvedCallOf<R extends RegistryShape> =
  | {
      [K in ToolNameOf<R>]: {
        readonly tool: K;
        readonly args: R['args'][K];
        readonly via: CallVia;
        /** The namespace or toolkit it was reached through; null for a flat call. */
        readonly group: string | null;
      };
    }[ToolNameOf<R>]
  | LoaderCallOf<R>;

/** A resolved `load_toolkit` call of a spec with toolkits (never for a spec without). */
export type LoaderCallOf<R extends RegistryShape> = [R['toolkits']] extends [never]
  ? never
  : { readonly tool: typeof LOAD_TOOLKIT_NAME; readonly args: { readonly toolkit_name: R['toolkits'] }; readonly via: 'library'; readonly group: null };

/** A rejection: `reason` exists exactly when the call is rejected. */
export interface Rejection {
  readonly allowed: false;
  readonly code: RejectionCode;
  readonly reason: string;
}

/** The result of `checkToolCall`: discriminated on `allowed`. */
export type ToolCallCheckResultOf<R extends RegistryShape> =
  | { readonly allowed: true; readonly call: ResolvedCallOf<R> }
  | Rejection;
