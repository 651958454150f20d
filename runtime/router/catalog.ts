/**
 * The catalog: what tools, namespaces and toolkits exist, by index and by
 * name, built once from the generated module and grown only by run-time
 * registration (`registerTools` / `registerNamespaces` / `registerToolkits`).
 *
 * It holds no session state (nothing here changes with the blocklist, a
 * loaded toolkit or an announcement), so every other part of the router reads
 * it as a fixed table: tool indices (`tool(t)`, below `toolCount`) and
 * indices into `namespaces` and `toolkits` are stable for the router's life,
 * and arrays are only appended to. A spec tool's entry (entries.ts) is built
 * on its first use, so creating a router allocates nothing per tool beyond
 * the name `Map` and the handler each tool must have.
 * `structureVersion` counts registrations, for the caches that depend on the
 * catalog's shape (the neutral compile, the toolkit suggester).
 *
 * Configuration mistakes (a bad generated folder, a missing handler, a
 * registration that collides) throw here, early, with what to fix; a failed
 * registration changes nothing. Library-owned names (`load_toolkit` and the
 * reserved ones) are refused in registrations. Library tools given to
 * `createRouter` (library.ts) are tool entries with `library: true`, added
 * once, at creation: callable by name, never flat, never grouped.
 */
import {
  LOAD_TOOLKIT_NAME,
  type GeneratedModule,
  type GeneratedSpec,
  type GeneratedTool,
  type RegistryShape,
  type ToolDefinition,
  type ValidateFn,
} from '../contract.js';
import { isPlainObject } from '../call-shape.js';
import { buildPruneMatcher, checkMatcher } from '../matcher.js';
import { neutralNamespaceTool, neutralTool, type NeutralToolInput } from '../neutral.js';
import { renderTool, type JsonSchema } from '../targets/index.js';
import { anthropicKeyPlan } from '../targets/property-keys.js';
import { assertKnownNames } from '../suggest.js';
import type { DynamicGroupDefinition, DynamicToolDefinition } from './types.js';
import { TOOLKIT_DISPATCHER_NAME } from '../toolkit-loading.js';
import { deepFreeze } from '../freeze.js';
import { specColumns, type SpecColumns } from '../packed-spec.js';
import { planLibraryTools } from './library.js';
import { EMPTY_OBJECT_SCHEMA, Entry, Group, type AnyHandler, type GroupEntry, type ToolEntry } from './entries.js';

export type { AnyHandler, GroupEntry, ToolEntry } from './entries.js';

/** A run-time tool definition with its context type erased (the catalog never calls a handler). */
export type AnyDynamicTool = DynamicToolDefinition<never>;
/** A run-time group definition with its context type erased. */
export type AnyDynamicGroup = DynamicGroupDefinition<never>;

/** What a callable name refers to (`Catalog.byName`): a tool or a namespace by index, or `load_toolkit`. */
export type Ref =
  | { readonly kind: 'tool'; readonly index: number }
  | { readonly kind: 'namespace'; readonly index: number }
  | { readonly kind: 'loader' };
/** Tool `t` as a `Ref`. */
export const toolRef = (t: number): Ref => ({ kind: 'tool', index: t });
/** Namespace `k` as a `Ref`. */
export const namespaceRef = (k: number): Ref => ({ kind: 'namespace', index: k });
/** `byName`'s value for `load_toolkit`. */
export const LOADER_REF: Ref = Object.freeze({ kind: 'loader' });

/** Names owned by the library (reserved in specs, refused in registrations). */
const RESERVED_NAMES = new Set(['load_toolkit', TOOLKIT_DISPATCHER_NAME, 'context', 'new_context', 'create_memory', 'modify_memory', 'recall_context']);
/** How run-time tools and groups are rendered (never OpenAI strict: their schemas are not checked for it). */
export const RENDER_OPTIONS = Object.freeze({ openaiStrict: false });

/** Whether `object[key]` is an own accessor (a value computed on first read, which reading would force). */
function isAccessor(object: object, key: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor !== undefined && descriptor.get !== undefined;
}

/** A generated depth bound as the resolver reads it: a positive integer, anything else 0 (walk every call). */
function depthBound(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}


/** `Object.prototype.propertyIsEnumerable`: own and enumerable, in one lookup. */
const isEnumerable = Object.prototype.propertyIsEnumerable;


/** The seed's shorthand (a properties map) or a full schema → a full `type: "object"` schema. */
function expandParameters(parameters: Readonly<Record<string, unknown>> | undefined): JsonSchema {
  if (parameters === undefined) return EMPTY_OBJECT_SCHEMA;
  if (parameters['type'] === 'object') return parameters;
  return { type: 'object', properties: parameters };
}

/**
 * The router's name tables. Internal to the router (not exported from
 * runtime/index.ts); fields are public so the other router modules read them
 * without accessor calls on the hot path.
 *
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
  /**
   * Tool entries by index, built on first use (`tool`): creating a router
   * builds none for the spec's tools (at 10,000 tools, 10,000 objects of 15
   * fields were about 7 ms of start-up with the collections they caused).
   * What start-up must check (each tool's handler) is checked and kept in
   * `#handlers`; everything else comes from the spec's columns. Run-time tools'
   * entries are built when registered. Holey until then: a hole reads undefined.
   */
  readonly #entries: (Entry | undefined)[];
  readonly #columns: SpecColumns;
  readonly #handlers: (AnyHandler | undefined)[];
  readonly namespaces: GroupEntry[] = [];
  readonly toolkits: GroupEntry[] = [];
  /** Every tool, namespace and the loader by exact name. A Map: `__proto__` finds nothing. */
  readonly byName = new Map<string, Ref>();
  /** Toolkits by lowercased name (the seed's case-insensitive lookup). */
  readonly kitByLower = new Map<string, number>();
  /** Flat tool indices, flat order: the spec's, then run-time ones. */
  readonly flat: number[] = [];
  /** Lowercased flat names, for allowOnly. */
  readonly flatLower: string[] = [];
  /**
   * Per flat position: the name (and, in `flatDefinitions`, the neutral
   * definition), so a prune result is filled straight from these (no
   * per-entry lookups). Grown by `#addFlat`, the only place flat positions
   * are created, so they never go stale.
   */
  readonly flatNames: string[] = [];
  readonly #flatDefinitions: ToolDefinition[] = [];
  /** Matcher for run-time flat tools (positions after the spec's). */
  dynamicMatcher: ReturnType<typeof buildPruneMatcher> | undefined;
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
    // Start-up cost grows with the tool count, so the loops below do per tool only what dispatch needs and
    // share what the spec already holds (frozen): the group lists are the spec's own arrays (a
    // registration replaces them, never pushes into them), the depth bounds are read once per validator.
    // A packed spec's tools are read as columns (`spec.tools`, one frozen object per tool, is built on its
    // first read, which creating a router does not make); any other spec object through `spec.tools`.
    const columns = specColumns(spec);
    const count = columns.count;
    const toolNames = columns.names;
    this.#columns = columns;
    this.specCount = this.toolCount = count;
    this.#entries = new Array<Entry | undefined>(count);
    for (let i = 0; i < count; i++) this.byName.set(toolNames[i]!, toolRef(i));
    // Each tool's handler, looked up by its name (a keyed load: the name's hash is cached by the Map above):
    // it must be an own property, enumerable or not (inherited ones never count). Then every handler key must
    // be a tool name: when the table has more enumerable keys than tools with an enumerable handler, the
    // others are refused below. Counting the keys (`Object.keys`) is the one walk of the table; mapping each
    // key to its tool by the Map was a second one of about 1 ms at 10,000 tools.
    const handlerOf = new Array<AnyHandler | undefined>(count);
    let missing: string[] | undefined;
    let enumerable = 0;
    for (let i = 0; i < count; i++) {
      const name = toolNames[i]!;
      const handler = handlerTable[name];
      let own = false;
      if (typeof handler === 'function') {
        if (isEnumerable.call(handlerTable, name)) {
          own = true;
          enumerable++;
        } else own = Object.hasOwn(handlerTable, name);
      }
      if (own) handlerOf[i] = handler as AnyHandler;
      else (missing ??= []).push(name);
    }
    this.#handlers = handlerOf;
    if (missing !== undefined) {
      throw new TypeError(`createRouter: no handler for ${missing.map((n) => JSON.stringify(n)).join(', ')}. Pass one function per tool name.`);
    }
    const keys = Object.keys(handlerTable);
    if (keys.length !== enumerable) this.#assertHandlerNames(keys.filter((key) => this.byName.get(key)?.kind !== 'tool'));
    for (let k = 0; k < spec.namespaces.length; k++) {
      const ns = spec.namespaces[k]!;
      this.namespaces.push(new Group(ns.name, ns.description, ns.tools, k, undefined, this));
      // A namespace shadows a same-named tool that is not flat (the model sees the namespace).
      this.byName.set(ns.name, namespaceRef(k));
    }
    for (let k = 0; k < spec.toolkits.length; k++) {
      const kit = spec.toolkits[k]!;
      this.toolkits.push(new Group(kit.name, kit.description, kit.tools, k, undefined, this));
      this.kitByLower.set(kit.name.toLowerCase(), k);
    }
    this.byName.set(LOAD_TOOLKIT_NAME, LOADER_REF);
    for (const t of spec.flat) this.#addFlat(t);
    // The matcher's format is checked now; its tables are built by the first prune (dispatch never needs them).
    // A packed folder's spec (unpackSpec) checked it at import and freezes it on first read: not read here.
    if (!isAccessor(spec, 'matcher')) checkMatcher(spec.matcher);
    const lower = new Set(spec.toolkits.map((kit) => kit.name.toLowerCase()));
    const planned = planLibraryTools(libraryTools, (name) =>
      name === LOAD_TOOLKIT_NAME || name === TOOLKIT_DISPATCHER_NAME ? 'the router itself'
      : this.byName.get(name)?.kind === 'namespace' ? 'a namespace of the spec'
      : this.byName.has(name) ? 'a tool of the spec'
      : lower.has(name.toLowerCase()) ? 'a toolkit of the spec (names of toolkits are matched ignoring case)'
      : undefined,
    );
    for (const def of planned) {
      const t = this.#addDynamicTool({ ...def, validate: def.validate as ValidateFn, handler: def.handler as AnyDynamicTool['handler'] }, false, true);
      deepFreeze(this.tool(t).definition);
      this.library.push(t);
    }
  }

  /** Throw naming each handler key that is no tool of the spec (with the closest tool names); `names` are such keys. */
  #assertHandlerNames(names: readonly string[]): void {
    assertKnownNames(
      'createRouter: handlers',
      names,
      { has: (name) => this.byName.get(name)?.kind === 'tool' },
      () => this.#columns.names,
      'Handlers are keyed by tool name; remove the entry or fix its name.',
    );
  }

  /**
   * Tool `t`'s entry (`0 <= t < toolCount`), built from the spec's columns on
   * first use and the same object after. The dispatch path reads it per call:
   * one array read, one compare.
   */
  tool(t: number): ToolEntry {
    return this.#entries[t] ?? this.#specEntry(t);
  }

  #specEntry(t: number): Entry {
    if (!(t >= 0 && t < this.specCount)) throw new RangeError(`toolroute: no tool ${t} (internal error)`);
    const spec = this.spec;
    const columns = this.#columns;
    const v = columns.validator[t]!;
    const more = columns.extra?.get(t) as Partial<GeneratedTool> | undefined;
    const entry = new Entry(columns.names[t]!, columns.flat[t] === 1, false, columns.namespacesOf[t]!, columns.toolkitsOf[t]!, spec.validators[v],
      depthBound(spec.validatorDepths?.[v]), more?.nullDecode, more?.keyDecode, more?.fillsDefaults === true, this.#handlers[t], t, spec, columns, undefined);
    this.#entries[t] = entry;
    return entry;
  }

  // What loops over every tool read (the gate's tables, name lists), without building entries. A built
  // entry is read when there is one: a registration may have replaced its group lists.
  /** Tool `t`'s name. */
  toolName(t: number): string { return t < this.specCount ? this.#columns.names[t]! : this.#entries[t]!.name; }
  /** Whether tool `t` is flat (`flatColumn` holds the spec's tools' flags). */
  toolFlat(t: number): boolean { return t < this.specCount ? this.#columns.flat[t] === 1 : this.#entries[t]!.flat; }
  /** Whether tool `t` is a library tool (no spec tool is). */
  toolLibrary(t: number): boolean { return t >= this.specCount && this.#entries[t]!.library; }
  /** Tool `t`'s neutral definition (a spec tool's: `spec.rendered.neutral.tools`, built on its first read). */
  toolDefinition(t: number): ToolDefinition {
    return t < this.specCount ? (this.spec.rendered.neutral.tools[t] as ToolDefinition) : this.#entries[t]!.definition;
  }
  toolNamespaces(t: number): readonly number[] { return this.#entries[t]?.namespaces ?? this.#columns.namespacesOf[t]!; }
  toolToolkits(t: number): readonly number[] { return this.#entries[t]?.toolkits ?? this.#columns.toolkitsOf[t]!; }
  /** 1 where spec tool `i` is flat (the spec's own column: do not modify). */
  get flatColumn(): Uint8Array { return this.#columns.flat; }

  /** Whether `name` is a library tool of this router (`libraryTools`; `load_toolkit` is not one of them). */
  isLibraryTool(name: unknown): boolean {
    const ref = typeof name === 'string' ? this.byName.get(name) : undefined;
    return ref?.kind === 'tool' && this.toolLibrary(ref.index);
  }

  /** A toolkit's index by name, case-insensitively (the seed's lookup); undefined for anything else. */
  findToolkit(name: unknown): number | undefined {
    return typeof name === 'string' ? this.kitByLower.get(name.toLowerCase()) : undefined;
  }

  /** Whether toolkits were registered at run time (then the directory and the loader are rendered, not read from the spec). */
  hasDynamicToolkits(): boolean {
    return this.toolkits.length > this.spec.toolkits.length;
  }

  /**
   * The neutral definition per flat position, filled up to the flat count on
   * read (the first prune reads the spec's definitions, which start-up does
   * not build); the same array every time, only ever appended to.
   */
  get flatDefinitions(): readonly ToolDefinition[] {
    const definitions = this.#flatDefinitions;
    for (let p = definitions.length; p < this.flat.length; p++) definitions.push(this.toolDefinition(this.flat[p]!));
    return definitions;
  }

  #addFlat(index: number): void {
    const name = this.toolName(index);
    this.flat.push(index);
    this.flatLower.push(name.toLowerCase());
    this.flatNames.push(name);
  }

  // ---- Run-time registration ---------------------------------------------------

  /** `registerTools`: new flat tools. Throws before any change on a bad or colliding definition. */
  registerTools(tools: readonly AnyDynamicTool[]): void {
    const plan = this.#planTools(tools.map((t) => t), 'registerTools');
    for (const def of plan.created) {
      const t = this.#addDynamicTool(def, true);
      this.#addFlat(t);
    }
    this.dynamicMatcher = buildPruneMatcher(
      this.flat.slice(this.spec.flat.length).map((t) => ({ name: this.toolName(t), tags: this.tool(t).tags })),
    );
    this.structureVersion++;
  }

  /** `registerNamespaces` / `registerToolkits`. Throws before any change on a bad or colliding group. */
  registerGroups(groups: readonly AnyDynamicGroup[], kind: 'namespace' | 'toolkit'): void {
    const where = kind === 'namespace' ? 'registerNamespaces' : 'registerToolkits';
    if (!Array.isArray(groups)) throw new TypeError(`${where}: expected an array of groups.`);
    const groupNames = new Set<string>();
    for (const g of groups) {
      if (typeof g?.name !== 'string' || g.name === '' || typeof g.description !== 'string' || !Array.isArray(g.tools)) {
        throw new TypeError(`${where}: every group needs a non-empty string \`name\`, a string \`description\` and a \`tools\` array.`);
      }
      if (kind === 'namespace') {
        if (this.byName.has(g.name) || RESERVED_NAMES.has(g.name) || groupNames.has(g.name)) {
          throw new TypeError(`${where}: the name ${JSON.stringify(g.name)} is already taken; pick another.`);
        }
        groupNames.add(g.name);
      } else {
        const lower = g.name.toLowerCase();
        if (this.kitByLower.has(lower) || groupNames.has(lower) || this.library.some((t) => this.toolName(t).toLowerCase() === lower)) {
          throw new TypeError(`${where}: a toolkit named ${JSON.stringify(g.name)} (ignoring case) already exists; pick another.`);
        }
        groupNames.add(lower);
      }
    }
    // Check every inline tool before changing anything, so a bad call leaves no partial state.
    const inline = groups.flatMap((g) => g.tools.filter((m: AnyDynamicTool | string): m is AnyDynamicTool => typeof m !== 'string'));
    const plan = this.#planTools(inline, where, kind === 'namespace' ? groupNames : undefined);
    for (const g of groups) {
      for (const m of g.tools) {
        if (typeof m === 'string' && (this.byName.get(m)?.kind !== 'tool' || this.isLibraryTool(m))) {
          throw new TypeError(`${where}: group ${JSON.stringify(g.name)} refers to ${JSON.stringify(m)}, which is ${this.isLibraryTool(m) ? 'a library tool (library tools are never grouped)' : 'not a tool of this router'}.`);
        }
      }
    }
    const created = new Map<AnyDynamicTool, number>();
    for (const def of plan.created) created.set(def, this.#addDynamicTool(def, false));
    for (const g of groups) {
      const members: number[] = [];
      for (const m of g.tools) {
        const t = typeof m === 'string' ? (this.byName.get(m) as { index: number }).index : created.get(m)!;
        if (!members.includes(t)) members.push(t);
      }
      const list = kind === 'namespace' ? this.namespaces : this.toolkits;
      const index = list.length;
      const inputs: NeutralToolInput[] = members.map((t) => ({
        name: this.tool(t).name,
        description: this.tool(t).description,
        parameters: this.tool(t).schema,
      }));
      list.push(new Group(g.name, g.description, members, -1, kind === 'namespace' ? neutralNamespaceTool(g, inputs, g.encoding ?? 'compact') : undefined, this));
      for (const t of members) {
        const entry = this.tool(t);
        if (kind === 'namespace') entry.namespaces = [...entry.namespaces, index];
        else entry.toolkits = [...entry.toolkits, index];
      }
      if (kind === 'namespace') this.byName.set(g.name, namespaceRef(index));
      else this.kitByLower.set(g.name.toLowerCase(), index);
    }
    this.structureVersion++;
  }

  /** Validate new tool definitions against each other and the router; throws before any change. */
  #planTools(defs: readonly AnyDynamicTool[], where: string, alsoTaken?: ReadonlySet<string>): { created: AnyDynamicTool[] } {
    if (!Array.isArray(defs)) throw new TypeError(`${where}: expected an array of tool definitions.`);
    const names = new Set<string>();
    for (const def of defs) {
      if (typeof def?.name !== 'string' || def.name === '' || typeof def.description !== 'string') {
        throw new TypeError(`${where}: every tool needs a non-empty string \`name\` and a string \`description\`.`);
      }
      if (this.byName.has(def.name) || RESERVED_NAMES.has(def.name) || names.has(def.name) || alsoTaken?.has(def.name)) {
        throw new TypeError(`${where}: the tool name ${JSON.stringify(def.name)} is already taken; pick another.`);
      }
      if (def.parameters !== undefined && !isPlainObject(def.parameters)) {
        throw new TypeError(`${where}: ${JSON.stringify(def.name)}.parameters must be a JSON Schema object or a properties map.`);
      }
      if (def.handler !== undefined && typeof def.handler !== 'function') {
        throw new TypeError(`${where}: ${JSON.stringify(def.name)}.handler must be a function.`);
      }
      if (def.validate !== undefined && typeof def.validate !== 'function') {
        throw new TypeError(`${where}: ${JSON.stringify(def.name)}.validate must be a function.`);
      }
      names.add(def.name);
    }
    return { created: [...defs] };
  }

  #addDynamicTool(def: AnyDynamicTool, flat: boolean, library = false): number {
    const schema = expandParameters(def.parameters);
    const neutral = neutralTool({ name: def.name, description: def.description, parameters: schema, deferLoading: def.deferLoading === true });
    const index = this.toolCount;
    // Run-time tools: wire names for Anthropic rendered here; their own `validate` (one that writes into its
    // argument does so on its own terms, so no `fillsDefaults`); their definition rendered now.
    const definition = renderTool('neutral', neutral, RENDER_OPTIONS) as ToolDefinition;
    this.#entries[index] = new Entry(def.name, flat, library, [], [], def.validate, 0, undefined, anthropicKeyPlan(schema), false, def.handler as AnyHandler | undefined, -1,
      undefined, undefined, { description: def.description, tags: def.tags ? [...def.tags] : [], deferLoading: def.deferLoading === true, neutral, definition, schema });
    this.toolCount = index + 1;
    this.byName.set(def.name, toolRef(index));
    return index;
  }
}
