/**
 * The catalog: what tools, namespaces and toolkits exist, by index and by name, built once from the generated module
 * and grown only by run-time registration. It holds no session state, so the rest of the router reads it as a fixed
 * table (indices stable, arrays only appended to); `structureVersion` counts registrations for the caches that depend
 * on its shape. Configuration mistakes throw here, early, and a failed registration changes nothing.
 */
import {
  LOAD_TOOLKIT_NAME, PORTABLE_TOOL_NAME, RESERVED_TOOL_NAMES, type GeneratedModule, type GeneratedSpec, type RegistryShape, type ToolDefinition, type ValidateFn,
} from '../contract.js';
import { isPlainObject } from '../call-shape.js';
import { neutralNamespaceTool, neutralTool } from '../neutral.js';
import { renderTool, type JsonSchema } from '../targets/index.js';
import { anthropicKeyPlan } from '../targets/property-keys.js';
import { assertKnownNames } from '../suggest.js';
import { listNames } from '../reasons.js';
import type { DynamicGroupDefinition, DynamicToolDefinition } from './types.js';
import { TOOLKIT_DISPATCHER_NAME } from '../toolkit-loading.js';
import { deepFreeze } from '../freeze.js';
import { planLibraryTools, staticSchema } from './library.js';
import { EMPTY_OBJECT_SCHEMA, Group, toolInput, type AnyHandler, type ToolEntry } from './entries.js';

export type { AnyHandler, Group, ToolEntry } from './entries.js';

/** A run-time tool definition with its context type erased (the catalog never calls a handler). */
export type AnyDynamicTool = DynamicToolDefinition<never>;
const DYNAMIC_TOOL_KEYS: ReadonlySet<string> = new Set(['name', 'description', 'parameters', 'tags', 'deferLoading', 'handler', 'validate']);

/** A run-time tool's parts, computed before the router changes (`Catalog.#prepare`). */
interface PreparedTool {
  readonly def: AnyDynamicTool;
  readonly schema: JsonSchema;
  readonly neutral: ReturnType<typeof neutralTool>;
  readonly definition: ToolDefinition;
  readonly keyDecode: ReturnType<typeof anthropicKeyPlan>;
}

/** A run-time group definition with its context type erased. */
export type AnyDynamicGroup = DynamicGroupDefinition<never>;

/** What a callable name refers to (`Catalog.byName`): a tool or a namespace by index, or `load_toolkit`. */
export type Ref =
  | { readonly kind: 'tool'; readonly index: number }
  | { readonly kind: 'namespace'; readonly index: number }
  | { readonly kind: 'loader' };

const RESERVED_NAMES: ReadonlySet<string> = new Set(RESERVED_TOOL_NAMES);
/** A run-time tool or namespace name must be one every target accepts (`PORTABLE_TOOL_NAME`), as in a spec. */
function checkToolName(where: string, what: string, name: string): void {
  if (!PORTABLE_TOOL_NAME.test(name)) throw new TypeError(`${where}: the ${what} name ${JSON.stringify(name)} must match ${PORTABLE_TOOL_NAME.source} (the tool-name rule of every target).`);
}
/** How run-time tools and groups are rendered (never OpenAI strict: their schemas are not checked for it). */
export const RENDER_OPTIONS = Object.freeze({ openaiStrict: false });

/**
 * The router's name tables. Internal to the router; fields are public so the other router modules read them directly.
 * @example
 * const catalog = new Catalog(generated, handlers);
 * catalog.byName.get('read_file'); // → { kind: 'tool', index: 0 }
 * catalog.tool(0).name; // → 'read_file'
 */
export class Catalog {
  readonly spec: GeneratedSpec<RegistryShape>;
  /** Tools so far: the spec's (indices below `specCount`), then run-time and library ones. */
  toolCount = 0;
  readonly specCount: number;
  /** Tool entries by index: a spec tool's is built on first read (`tool`), a run-time tool's at registration. */
  readonly #entries: (ToolEntry | undefined)[] = [];
  /** The spec tools' handlers, by index, as passed to the constructor. */
  readonly #handlers: (AnyHandler | undefined)[] = [];
  readonly namespaces: Group[] = [];
  readonly toolkits: Group[] = [];
  /** Every tool, namespace and the loader by exact name. A Map: `__proto__` finds nothing. */
  readonly byName = new Map<string, Ref>();
  /** Toolkits by lowercased name (the reference library's case-insensitive lookup). */
  readonly kitByLower = new Map<string, number>();
  /** Flat tool indices, flat order: the spec's, then run-time ones. */
  readonly flat: number[] = [];
  /** Library tool indices, registration order (fixed at creation). */
  readonly library: number[] = [];
  /** Bumped by every registration. */
  structureVersion = 0;

  constructor(generated: GeneratedModule<RegistryShape>, handlers: unknown, libraryTools?: unknown) {
    const spec = generated?.spec;
    if (!spec || spec.formatVersion !== 1) {
      throw new TypeError(
        'createRouter: expected the namespace import of a generated index.ts (`import * as generated from "./generated/index.js"`) ' +
          `with spec.formatVersion 1; got ${spec ? `formatVersion ${String((spec as { formatVersion?: unknown }).formatVersion)}` : 'no spec'}. ` +
          'Regenerate the folder with the toolroute version of this runtime.',
      );
    }
    this.spec = spec;
    const handlerTable = (handlers ?? {}) as Readonly<Record<string, unknown>>;
    const count = spec.tools.length;
    this.specCount = this.toolCount = count;
    const missing: string[] = [];
    // Handlers are taken now; a spec tool's entry is built on first read (most of a large spec is never called).
    for (let i = 0; i < count; i++) {
      const name = spec.tools[i]!.name;
      // Own properties only, enumerable or not: an inherited function is no handler.
      const handler = Object.hasOwn(handlerTable, name) ? handlerTable[name] : undefined;
      if (typeof handler !== 'function') missing.push(name);
      this.#handlers.push(handler as AnyHandler | undefined);
      this.#entries.push(undefined); // every slot filled: a packed array reads faster on each dispatch than one with holes
      this.byName.set(name, { kind: 'tool', index: i });
    }
    if (missing.length > 0) throw new TypeError(`createRouter: no handler for ${listNames(missing.map((n) => JSON.stringify(n)), 10)}. Pass one function per tool name.`);
    const stray = Object.keys(handlerTable).filter((key) => this.byName.get(key)?.kind !== 'tool');
    assertKnownNames('createRouter: handlers', stray, { has: () => false }, () => spec.tools.map((t) => t.name), 'Handlers are keyed by tool name; remove the entry or fix its name.');
    spec.namespaces.forEach((ns, k) => {
      this.namespaces.push(new Group({ kind: 'namespace', name: ns.name, description: ns.description, tools: ns.tools, specIndex: k, neutral: undefined }, this));
      // A namespace shadows a same-named tool that is not flat (the model sees the namespace).
      this.byName.set(ns.name, { kind: 'namespace', index: k });
    });
    spec.toolkits.forEach((kit, k) => {
      this.toolkits.push(new Group({ kind: 'toolkit', name: kit.name, description: kit.description, tools: kit.tools, specIndex: k, neutral: undefined }, this));
      this.kitByLower.set(kit.name.toLowerCase(), k);
    });
    this.byName.set(LOAD_TOOLKIT_NAME, { kind: 'loader' });
    this.flat.push(...spec.flat);
    const lower = new Set(spec.toolkits.map((kit) => kit.name.toLowerCase()));
    const planned = planLibraryTools(libraryTools, (name) =>
      name === LOAD_TOOLKIT_NAME || name === TOOLKIT_DISPATCHER_NAME ? 'the router itself'
      : this.byName.get(name)?.kind === 'namespace' ? 'a namespace of the spec'
      : this.byName.has(name) ? 'a tool of the spec'
      : lower.has(name.toLowerCase()) ? 'a toolkit of the spec (names of toolkits are matched ignoring case)'
      : undefined,
    );
    for (const def of planned) {
      const t = this.#addDynamicTool(this.#prepare({ ...def, validate: def.validate as ValidateFn, handler: def.handler as AnyDynamicTool['handler'] }, 'createRouter'), false, true);
      deepFreeze(this.definition(t));
      this.library.push(t);
    }
  }

  /** Tool `t`'s entry (`0 <= t < toolCount`). */
  tool(t: number): ToolEntry { return (this.#entries[t] ??= this.#specEntry(t)); }

  /** Tool `t`'s name (without building its entry). */
  toolName(t: number): string { return t < this.specCount ? this.spec.tools[t]!.name : this.#entries[t]!.name; }

  /** Tool `t`'s neutral definition (prune results, extractToolkit): a spec tool's is read from the spec when asked. */
  definition(t: number): ToolDefinition {
    return t < this.specCount ? (this.spec.rendered.neutral.tools[t] as ToolDefinition) : this.#entries[t]!.definition!;
  }

  /** The entry of spec tool `t`: its generated record and handler, in the field order of every entry (one shape on the hot path). */
  #specEntry(t: number): ToolEntry {
    const tool = this.spec.tools[t]!;
    return {
      name: tool.name, flat: tool.flat, library: false, namespaces: tool.namespaces, toolkits: tool.toolkits,
      validate: this.spec.validators[tool.validator], nullDecode: tool.nullDecode, keyDecode: tool.keyDecode, fillsDefaults: tool.fillsDefaults === true,
      handler: this.#handlers[t], schema: tool.parameters as JsonSchema, description: tool.description, tags: tool.tags, deferLoading: tool.deferLoading,
      definition: undefined, specIndex: t, neutral: undefined,
    };
  }

  /** Whether `name` is a library tool of this router (`libraryTools`; `load_toolkit` is not one of them). */
  isLibraryTool(name: unknown): boolean {
    const ref = typeof name === 'string' ? this.byName.get(name) : undefined;
    return ref?.kind === 'tool' && this.tool(ref.index).library;
  }

  /** A toolkit's index by name, case-insensitively (the reference library's lookup); undefined for anything else. */
  findToolkit(name: unknown): number | undefined { return typeof name === 'string' ? this.kitByLower.get(name.toLowerCase()) : undefined; }

  /** The names of the tools registered at run time, library tools included, in registration order. */
  registeredNames(): string[] { return this.#entries.slice(this.specCount).map((e) => e!.name); }

  /** Whether toolkits were registered at run time (then the directory and the loader are rendered, not read from the spec). */
  hasDynamicToolkits(): boolean { return this.toolkits.length > this.spec.toolkits.length; }

  // ---- Run-time registration ---------------------------------------------------

  /** `registerTools`: new flat tools. Throws before any change on a bad or colliding definition. */
  registerTools(tools: readonly AnyDynamicTool[]): void {
    this.#checkTools(tools, 'registerTools');
    for (const p of tools.map((def) => this.#prepare(def, 'registerTools'))) this.flat.push(this.#addDynamicTool(p, true));
    this.structureVersion++;
  }

  /** `registerNamespaces` / `registerToolkits`. Throws before any change on a bad or colliding group. */
  registerGroups(groups: readonly AnyDynamicGroup[], kind: 'namespace' | 'toolkit'): void {
    const where = kind === 'namespace' ? 'registerNamespaces' : 'registerToolkits';
    if (!Array.isArray(groups)) throw new TypeError(`${where}: expected an array of groups.`);
    // The groups' names as given, and (toolkits, unique ignoring case) in lower case.
    const groupNames = new Set<string>();
    const kitNames = new Set<string>();
    for (const g of groups) {
      if (typeof g?.name !== 'string' || g.name === '' || typeof g.description !== 'string' || !Array.isArray(g.tools) || g.tools.length === 0) {
        throw new TypeError(`${where}: every group needs a non-empty string \`name\`, a string \`description\` and a non-empty \`tools\` array.`);
      }
      // The spec's rules: a namespace is named as a tool is, and no two names a policy can hold are the same.
      if (kind === 'namespace') {
        checkToolName(where, 'namespace', g.name);
        if (g.encoding !== undefined && g.encoding !== 'compact' && g.encoding !== 'schema') throw new TypeError(`${where}: ${JSON.stringify(g.name)}.encoding is 'compact' or 'schema'.`);
        if (this.#taken(g.name) || groupNames.has(g.name)) throw new TypeError(`${where}: the name ${JSON.stringify(g.name)} is already taken; pick another.`);
      } else {
        const lower = g.name.toLowerCase();
        if (this.kitByLower.has(lower) || kitNames.has(lower) || this.library.some((t) => this.toolName(t).toLowerCase() === lower) || this.byName.has(g.name) || RESERVED_NAMES.has(g.name)) {
          throw new TypeError(`${where}: a toolkit named ${JSON.stringify(g.name)} (ignoring case) already exists; pick another.`);
        }
        kitNames.add(lower);
      }
      groupNames.add(g.name);
    }
    // Check every inline tool before changing anything, so a bad call leaves no partial state.
    const inline = groups.flatMap((g) => g.tools.filter((m: AnyDynamicTool | string): m is AnyDynamicTool => typeof m !== 'string'));
    this.#checkTools(inline, where, groupNames);
    for (const g of groups) {
      const stray = g.tools.find((m: AnyDynamicTool | string) => typeof m === 'string' && (this.byName.get(m)?.kind !== 'tool' || this.isLibraryTool(m)));
      if (typeof stray === 'string') throw new TypeError(`${where}: group ${JSON.stringify(g.name)} refers to ${JSON.stringify(stray)}, which is ${this.isLibraryTool(stray) ? 'a library tool (library tools are never grouped)' : 'not a tool of this router'}.`);
    }
    const prepared = inline.map((def) => this.#prepare(def, where));
    const created = new Map(prepared.map((p) => [p.def, this.#addDynamicTool(p, false)]));
    const indexOf = (m: AnyDynamicTool | string): number => (typeof m === 'string' ? (this.byName.get(m) as { index: number }).index : created.get(m)!);
    for (const g of groups) {
      const members = [...new Set<number>(g.tools.map(indexOf))]; // each member once, in first-mention order
      const list = kind === 'namespace' ? this.namespaces : this.toolkits;
      const index = list.length;
      const neutral = kind === 'namespace' ? neutralNamespaceTool(g, members.map((t) => toolInput(this.tool(t))), g.encoding ?? 'compact') : undefined;
      list.push(new Group({ kind, name: g.name, description: g.description, tools: members, specIndex: -1, neutral }, this));
      for (const t of members) {
        const entry = this.tool(t);
        if (kind === 'namespace') entry.namespaces = [...entry.namespaces, index];
        else entry.toolkits = [...entry.toolkits, index];
      }
      if (kind === 'namespace') this.byName.set(g.name, { kind: 'namespace', index });
      else this.kitByLower.set(g.name.toLowerCase(), index);
    }
    this.structureVersion++;
  }

  /** Whether a new tool or namespace may not take `name`: a tool's, a namespace's or a toolkit's (policies name all three), or reserved. */
  #taken(name: string): boolean { return this.byName.has(name) || RESERVED_NAMES.has(name) || this.toolkits.some((k) => k.name === name); }

  /** Validate new tool definitions against each other and the router; throws before any change. */
  #checkTools(defs: readonly AnyDynamicTool[], where: string, alsoTaken?: ReadonlySet<string>): void {
    if (!Array.isArray(defs)) throw new TypeError(`${where}: expected an array of tool definitions.`);
    const names = new Set<string>();
    for (const def of defs) {
      if (typeof def?.name !== 'string' || def.name === '' || typeof def.description !== 'string') {
        throw new TypeError(`${where}: every tool needs a non-empty string \`name\` and a string \`description\`.`);
      }
      checkToolName(where, 'tool', def.name);
      if (this.#taken(def.name) || names.has(def.name) || alsoTaken?.has(def.name)) {
        throw new TypeError(`${where}: the tool name ${JSON.stringify(def.name)} is already taken; pick another.`);
      }
      if (def.parameters !== undefined && !isPlainObject(def.parameters)) {
        throw new TypeError(`${where}: ${JSON.stringify(def.name)}.parameters must be a JSON Schema object or a properties map.`);
      }
      // A misspelt key (`tag`) would leave the tool without what it names: refused, as a library tool's is.
      assertKnownNames(`${where}: ${JSON.stringify(def.name)}`, Object.keys(def), DYNAMIC_TOOL_KEYS, () => DYNAMIC_TOOL_KEYS, `A tool takes ${[...DYNAMIC_TOOL_KEYS].join(', ')}.`);
      for (const key of ['handler', 'validate'] as const) if (def[key] !== undefined && typeof def[key] !== 'function') throw new TypeError(`${where}: ${JSON.stringify(def.name)}.${key} must be a function.`);
      if (def.deferLoading !== undefined && typeof def.deferLoading !== 'boolean') throw new TypeError(`${where}: ${JSON.stringify(def.name)}.deferLoading must be true or false.`);
      // A string would be spread into letters, and a number breaks pruning later: both are refused here.
      if (def.tags !== undefined && !(Array.isArray(def.tags) && (def.tags as unknown[]).every((t) => typeof t === 'string'))) {
        throw new TypeError(`${where}: ${JSON.stringify(def.name)}.tags must be an array of strings.`);
      }
      names.add(def.name);
    }
  }

  /**
   * What a run-time tool's entry is made of, computed before the router changes. The schema is checked and copied as a
   * library tool's is (`staticSchema`): plain JSON, `type: "object"` at the top, frozen, so later edits change nothing.
   */
  #prepare(def: AnyDynamicTool, where: string): PreparedTool {
    // The reference library's shorthand (a properties map) or a full schema, as a full `type: "object"` schema.
    const { parameters } = def;
    const full = parameters === undefined ? EMPTY_OBJECT_SCHEMA : parameters['type'] === 'object' ? parameters : { type: 'object', properties: parameters };
    const schema = staticSchema(full, `${where}: ${JSON.stringify(def.name)}`) as JsonSchema;
    const neutral = neutralTool({ name: def.name, description: def.description, parameters: schema, deferLoading: def.deferLoading === true });
    return { def, schema, neutral, definition: deepFreeze(renderTool('neutral', neutral, RENDER_OPTIONS) as ToolDefinition), keyDecode: anthropicKeyPlan(schema) };
  }

  #addDynamicTool({ def, schema, neutral, definition, keyDecode }: PreparedTool, flat: boolean, library = false): number {
    const index = this.toolCount;
    // Run-time tools: wire names for Anthropic rendered in #prepare; their own `validate` (one that writes into its
    // argument does so on its own terms, so no `fillsDefaults`). Fields in `#specEntry`'s order: every entry has one shape.
    this.#entries[index] = {
      name: def.name, flat, library, namespaces: [], toolkits: [],
      validate: def.validate, nullDecode: undefined, keyDecode, fillsDefaults: false,
      handler: def.handler as AnyHandler | undefined, schema, description: def.description,
      tags: def.tags ? [...def.tags] : [], deferLoading: def.deferLoading === true, definition, specIndex: -1, neutral,
    };
    this.toolCount = index + 1;
    this.byName.set(def.name, { kind: 'tool', index });
    return index;
  }
}
