/**
 * Turning a bench spec into the things the in-process items compare: the
 * generated module, toolroute routers over it with trivial handlers, and the
 * reference ContextChef registered with the same tools. Only the public
 * surface is used: `createRouter` from the runtime's index and the generated
 * folder's `index` (its `TOOL_NAMES`).
 */
import { pathToFileURL } from 'node:url';
import type { createRouter as CreateRouter, GeneratedModule, RegistryShape, ToolRouter } from '../runtime/index.js';
import type { MadeSpec, JsonObject } from './make-spec.js';
import { makeReference, type Reference } from './reference.js';

/**
 * The router surface the benchmarks use. The generated folders are imported by
 * path at run time, so their registry types are not known statically here; the
 * router is viewed through this structural type (`MeasuredRouterMethods`
 * below pins the method names on the real router).
 */
export interface BenchRouter {
  dispatch(call: { readonly name: string; readonly arguments: string }): Promise<BenchDispatchResult>;
  pruneByTask(task: string): BenchPruneResult;
  setBlockedTools(names: readonly string[]): unknown;
}
export type BenchDispatchResult =
  | { readonly ok: true; readonly tool: string; readonly result: unknown }
  | { readonly ok: false; readonly code: string; readonly reason: string };
export interface BenchPruneResult {
  readonly tools: readonly { readonly name: string }[];
  readonly removed: readonly string[];
  readonly kept: number;
  readonly total: number;
}

/** Which tool the last handler call was for (handlers are trivial; this lets the checks see routing). */
export const lastCall: { tool: string | null } = { tool: null };

/** One handler per tool: records the tool and returns its arguments untouched. */
export function trivialHandlers(toolNames: readonly string[]): Record<string, (args: unknown) => unknown> {
  const handlers: Record<string, (args: unknown) => unknown> = {};
  for (const name of toolNames) {
    handlers[name] = (args: unknown) => {
      lastCall.tool = name;
      return args;
    };
  }
  return handlers;
}

/** The same handlers as `async` functions (each returns a native promise). */
export function asyncHandlers(toolNames: readonly string[]): Record<string, (args: unknown) => Promise<unknown>> {
  const handlers: Record<string, (args: unknown) => Promise<unknown>> = {};
  for (const name of toolNames) {
    handlers[name] = async (args: unknown) => {
      lastCall.tool = name;
      return args;
    };
  }
  return handlers;
}

/** A generated folder's index as imported: the module `createRouter` takes, and its name lists. */
export type GeneratedIndex = GeneratedModule & { readonly TOOL_NAMES: readonly string[] };

/** Everything an item needs for one spec. */
export interface Loaded {
  readonly made: MadeSpec;
  readonly gen: GeneratedIndex;
  readonly router: BenchRouter;
  readonly handlers: Record<string, (args: unknown) => unknown>;
  /** A second router over the same folder whose handlers are `async`. */
  readonly asyncRouter: BenchRouter;
  readonly asyncHandlers: Record<string, (args: unknown) => Promise<unknown>>;
  readonly ref: Reference;
}

/** The real router's methods the benchmarks call: a renamed or removed one is a compile error here. */
export type MeasuredRouterMethods = Pick<ToolRouter<RegistryShape>, 'dispatch' | 'pruneByTask' | 'setBlockedTools'>;

/** Where the measured code is loaded from: compiled JS (default) or the TS sources through tsx. */
export interface CodeSource {
  /** Path of `runtime/index.js` (compiled) or `runtime/index.ts`. */
  readonly runtimeIndex: string;
  /** Maps a generated folder to the directory its `index` is imported from. */
  genIndex(genDir: string): string;
}

let runtimeModule: Promise<{ createRouter: typeof CreateRouter }> | null = null;

/**
 * Import a generated folder and build both routers (sync and async handlers).
 *
 * @example
 * const l = await load(source, makeMixedSpec(1000), 'bench/.tmp/gen/mixed-1000');
 */
export async function load(source: CodeSource, made: MadeSpec, genDir: string): Promise<Loaded> {
  runtimeModule ??= import(pathToFileURL(source.runtimeIndex).href) as Promise<{ createRouter: typeof CreateRouter }>;
  const { createRouter } = await runtimeModule;
  const gen = (await import(pathToFileURL(source.genIndex(genDir)).href)) as GeneratedIndex;
  const handlers = trivialHandlers(gen.TOOL_NAMES);
  const router = createRouter(gen as never, handlers as never) as unknown as BenchRouter;
  const aHandlers = asyncHandlers(gen.TOOL_NAMES);
  const asyncRouter = createRouter(gen as never, aHandlers as never) as unknown as BenchRouter;
  return { made, gen, router, handlers, asyncRouter, asyncHandlers: aHandlers, ref: makeReference(made.spec) };
}

/** A namespace call whose action uses the given argument template, near the middle of the spec. */
export interface NamespaceCall {
  readonly namespace: string;
  readonly action: string;
  readonly args: JsonObject;
  readonly call: { readonly name: string; readonly arguments: string };
}

/**
 * Pick the namespace call the dispatch items measure: the middle namespace
 * that has an action built from `template` (same schema at every size, so
 * sizes compare the router, not the validator).
 *
 * @example
 * namespaceCall(made, 'search');
 */
export function namespaceCall(made: MadeSpec, template: string): NamespaceCall {
  const namespaces = made.spec.namespaces ?? [];
  const byName = new Map(made.tools.map((t) => [t.def.name, t]));
  const order = namespaces.map((_, i) => i);
  const mid = namespaces.length >> 1;
  order.sort((a, b) => Math.abs(a - mid) - Math.abs(b - mid) || a - b);
  for (const i of order) {
    const ns = namespaces[i];
    if (!ns) continue;
    for (const e of ns.tools) {
      const name = typeof e === 'string' ? e : e.name;
      if (byName.get(name)?.template === template) {
        const args = made.exampleArgs(name);
        return { namespace: ns.name, action: name, args, call: { name: ns.name, arguments: JSON.stringify({ action: name, args }) } };
      }
    }
  }
  throw new Error(`bench: no namespace action with template ${template} in ${made.id}`);
}

/** A flat call whose tool uses the given argument template (the first such flat tool). */
export interface FlatCall {
  readonly tool: string;
  readonly args: JsonObject;
  readonly call: { readonly name: string; readonly arguments: string };
}

/**
 * Pick the flat call the dispatch items measure (make-spec gives every mixed
 * spec a flat `search` tool).
 *
 * @example
 * flatCall(made, 'search');
 */
export function flatCall(made: MadeSpec, template: string): FlatCall {
  const flat = new Set((made.spec.tools ?? []).map((e) => (typeof e === 'string' ? e : e.name)));
  for (const t of made.tools) {
    if (t.template === template && flat.has(t.def.name)) {
      const args = made.exampleArgs(t.def.name);
      return { tool: t.def.name, args, call: { name: t.def.name, arguments: JSON.stringify(args) } };
    }
  }
  throw new Error(`bench: no flat tool with template ${template} in ${made.id}`);
}
