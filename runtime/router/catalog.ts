/**
 * The catalog: what tools, namespaces and toolkits exist, by index and by
 * name, built once from the generated module and grown only by run-time
 * registration (`registerTools` / `registerNamespaces` / `registerToolkits`).
 *
 * It holds no session state (nothing here changes with the blocklist, a
 * loaded toolkit or an announcement), so every other part of the router reads
 * it as a fixed table: indices into `tools`, `namespaces` and `toolkits` are
 * stable for the router's life, and arrays are only appended to.
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
  type HandlerContext,
  type KeyDecodePlan,
  type NullDecodePlan,
  type RegistryShape,
  type ToolDefinition,
  type ValidateFn,
} from '../contract.js';
import { isPlainObject } from '../call-shape.js';
import { buildPruneMatcher, checkMatcher } from '../matcher.js';
import { neutralNamespaceTool, neutralTool, type NeutralToolInput } from '../neutral.js';
import { renderTool, type JsonSchema, type NeutralTool } from '../targets/index.js';
import { anthropicKeyPlan } from '../targets/property-keys.js';
import type { Suggester } from '../suggest.js';
import { assertKnownNames } from '../suggest.js';
import type { DynamicGroupDefinition, DynamicToolDefinition } from './types.js';
import { TOOLKIT_DISPATCHER_NAME } from '../toolkit-loading.js';
import { deepFreeze } from '../freeze.js';
import { specColumns, type SpecColumns } from '../packed-spec.js';
import { planLibraryTools } from './library.js';
import { ActionIndex } from './lookup.js';

/** A handler as stored: its argument and context types are erased here and restored by the façade's types. */
export type AnyHandler = (args: never, ctx: HandlerContext<never>) => unknown;

/** A run-time tool definition with its context type erased (the catalog never calls a handler). */
export type AnyDynamicTool = DynamicToolDefinition<never>;
/** A run-time group definition with its context type erased. */
export type AnyDynamicGroup = DynamicGroupDefinition<never>;

/** One tool: from the spec (`specIndex >= 0`) or registered at run time. */
export interface ToolEntry {
  readonly name: string;
  readonly flat: boolean;
  /** A library tool (`libraryTools`): callable by name, offered after everything else, never pruned. */
  readonly library: boolean;
  /**
   * Namespace / toolkit indices containing it. Spec tools start with the
   * spec's own (frozen) arrays; a run-time registration replaces the array
   * with a longer copy, so read the field each time rather than keeping it.
   */
  namespaces: readonly number[];
  toolkits: readonly number[];
  readonly validate: ValidateFn | undefined;
  /** `GeneratedSpec.validatorDepths` of its validator: > 0 lets dispatch skip the argument walk (resolve.ts); 0 for run-time tools. */
  readonly argsDepth: number;
  readonly nullDecode: NullDecodePlan | undefined;
  /** Anthropic wire names of top-level properties → spec names (property-keys.ts); undefined for most tools. */
  readonly keyDecode: KeyDecodePlan | undefined;
  /** The validator fills `default`s (spec option `applyDefaults`): validate a copy of the arguments. */
  readonly fillsDefaults: boolean;
  readonly handler: AnyHandler | undefined;
  /** Parameters schema for reasons and signatures. */
  readonly schema: JsonSchema;
  readonly description: string;
  readonly tags: readonly string[];
  readonly deferLoading: boolean;
  /** The seed's neutral definition (prune results, extractToolkit). */
  readonly definition: ToolDefinition;
  /** Rendered forms: spec tools point into `spec.rendered`; run-time tools render lazily. */
  readonly specIndex: number;
  readonly neutral: NeutralTool | undefined;
}

/** One namespace or toolkit. */
export interface GroupEntry {
  readonly name: string;
  readonly description: string;
  /** Member tool indices (spec groups: the spec's own frozen array). */
  readonly tools: readonly number[];
  /** Member tools by action name, found by length and `===` (lookup.ts; built on first read). */
  readonly actions: ActionIndex;
  /** `actions`' keys, listed in rejection reasons (built once, on first read, not per rejected call). */
  readonly actionList: readonly string[];
  readonly specIndex: number;
  readonly neutral: NeutralTool | undefined;
  /** Closest-action suggestions; built by call resolution on the first unknown action. */
  suggester?: Suggester;
}

/** What a callable name refers to. */
export type Ref = { readonly kind: 'tool' | 'namespace'; readonly index: number } | { readonly kind: 'loader' };

/** Names owned by the library (reserved in specs, refused in registrations). */
const RESERVED_NAMES = new Set(['load_toolkit', TOOLKIT_DISPATCHER_NAME, 'context', 'new_context', 'create_memory', 'modify_memory', 'recall_context']);
const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) });
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

/** What a run-time tool's entry holds beyond what dispatch reads (a spec tool's come from the spec). */
interface OwnParts {
  readonly description: string; readonly tags: readonly string[]; readonly deferLoading: boolean;
  readonly neutral: NeutralTool; readonly definition: ToolDefinition; readonly schema: JsonSchema;
}

/**
 * A tool entry as the catalog stores it: one class for spec and run-time
 * tools alike, so the reads on the dispatch path see one shape. Its own
 * fields are what dispatch reads; the rest (description, tags, the neutral
 * definition and its schema) a spec tool reads from the spec's columns and
 * `spec.rendered.neutral.tools` when asked (a prune, a compile, a toolkit
 * listing, a rejection's reason), a run-time tool from its `own` parts (at
 * 10,000 tools, each field less is 80 KB less to allocate at start-up).
 */
class Entry implements ToolEntry {
  // Declared, not defined: with ES2022 class fields every field (parameter properties included) is first
  // defined as `undefined` by the class's field initializer, then assigned by the constructor.
  declare readonly name: string;
  declare readonly flat: boolean;
  declare readonly library: boolean;
  declare namespaces: readonly number[];
  declare toolkits: readonly number[];
  declare readonly validate: ValidateFn | undefined;
  declare readonly argsDepth: number;
  declare readonly nullDecode: NullDecodePlan | undefined;
  declare readonly keyDecode: KeyDecodePlan | undefined;
  declare readonly fillsDefaults: boolean;
  declare readonly handler: AnyHandler | undefined;
  declare readonly specIndex: number;
  /** A spec tool's spec and its columns (undefined for a run-time tool). */
  declare private readonly source: GeneratedSpec<RegistryShape> | undefined;
  declare private readonly columns: SpecColumns | undefined;
  declare private readonly own: OwnParts | undefined;

  constructor(
    name: string, flat: boolean, library: boolean, namespaces: readonly number[], toolkits: readonly number[],
    validate: ValidateFn | undefined, argsDepth: number, nullDecode: NullDecodePlan | undefined, keyDecode: KeyDecodePlan | undefined,
    fillsDefaults: boolean, handler: AnyHandler | undefined, specIndex: number,
    source: GeneratedSpec<RegistryShape> | undefined, columns: SpecColumns | undefined, own: OwnParts | undefined,
  ) {
    this.name = name;
    this.flat = flat;
    this.library = library;
    this.namespaces = namespaces;
    this.toolkits = toolkits;
    this.validate = validate;
    this.argsDepth = argsDepth;
    this.nullDecode = nullDecode;
    this.keyDecode = keyDecode;
    this.fillsDefaults = fillsDefaults;
    this.handler = handler;
    this.specIndex = specIndex;
    this.source = source;
    this.columns = columns;
    this.own = own;
  }

  get description(): string { return this.own === undefined ? this.columns!.descriptions[this.specIndex]! : this.own.description; }
  get tags(): readonly string[] { return this.own === undefined ? this.columns!.tagLists[this.columns!.tags[this.specIndex]!]! : this.own.tags; }
  get deferLoading(): boolean { return this.own === undefined ? this.columns!.deferred[this.specIndex] === 1 : this.own.deferLoading; }
  get neutral(): NeutralTool | undefined { return this.own?.neutral; }
  get definition(): ToolDefinition { return this.own === undefined ? (this.source!.rendered.neutral.tools[this.specIndex] as ToolDefinition) : this.own.definition; }
  get schema(): JsonSchema { return this.own === undefined ? ((this.definition.parameters as JsonSchema | undefined) ?? EMPTY_OBJECT_SCHEMA) : this.own.schema; }
}

/**
 * One namespace or toolkit of the catalog. Its lookup by action name and its
 * action list are built on first read: only a call into the group (or a
 * rejection naming its actions) needs them, and at 10,000 tools building
 * them for every group was a Map entry per tool at start-up. Member names
 * are read from the catalog's tool entries, whose names never change.
 */
class Group implements GroupEntry {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly number[];
  readonly specIndex: number;
  readonly neutral: NeutralTool | undefined;
  suggester?: Suggester;
  readonly #entries: readonly { readonly name: string }[];
  #actions: ActionIndex | undefined;
  #actionList: readonly string[] | undefined;

  constructor(name: string, description: string, members: readonly number[], specIndex: number, neutral: NeutralTool | undefined, entries: readonly { readonly name: string }[]) {
    this.name = name;
    this.description = description;
    this.tools = members;
    this.specIndex = specIndex;
    this.neutral = neutral;
    this.#entries = entries;
  }

  get actions(): ActionIndex {
    return (this.#actions ??= new ActionIndex(this.tools.map((t): readonly [string, number] => [this.#entries[t]!.name, t])));
  }

  get actionList(): readonly string[] {
    return (this.#actionList ??= this.tools.map((t) => this.#entries[t]!.name));
  }
}

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
 */
export class Catalog {
  readonly spec: GeneratedSpec<RegistryShape>;
  readonly tools: ToolEntry[] = [];
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
    for (let i = 0; i < count; i++) this.byName.set(toolNames[i]!, { kind: 'tool', index: i });
    // The handler table's keys, walked once: each is a tool's handler or a name that is no tool (a typo, or a
    // handler for another spec), refused below with the closest tool names. One pass over the keys finds both
    // (a per-tool own-property test plus a second pass for the leftovers would read the table twice).
    const handlerOf = new Array<unknown>(count);
    let unknownNames: string[] | undefined;
    const keys = Object.keys(handlerTable);
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j]!;
      const ref = this.byName.get(key);
      if (ref === undefined) (unknownNames ??= []).push(key);
      else handlerOf[(ref as { index: number }).index] = handlerTable[key];
    }
    const missing: string[] = [];
    const validators = spec.validators;
    const depths = spec.validatorDepths;
    const depthOf: number[] = [];
    for (let v = 0; v < validators.length; v++) depthOf.push(depthBound(depths?.[v]));
    const { validator, flat, namespacesOf, toolkitsOf, extra } = columns;
    for (let i = 0; i < count; i++) {
      const name = toolNames[i]!;
      let handler = handlerOf[i];
      // Not among the enumerable keys: a non-enumerable own property still counts (inherited ones never do).
      if (handler === undefined && Object.hasOwn(handlerTable, name)) handler = handlerTable[name];
      if (typeof handler !== 'function') missing.push(name);
      const v = validator[i]!;
      const more = extra?.get(i) as Partial<GeneratedTool> | undefined;
      this.tools.push(
        new Entry(name, flat[i] === 1, false, namespacesOf[i]!, toolkitsOf[i]!, validators[v], depthOf[v] ?? 0, more?.nullDecode, more?.keyDecode,
          more?.fillsDefaults === true, handler as AnyHandler | undefined, i, spec, columns, undefined),
      );
    }
    if (missing.length > 0) {
      throw new TypeError(`createRouter: no handler for ${missing.map((n) => JSON.stringify(n)).join(', ')}. Pass one function per tool name.`);
    }
    if (unknownNames !== undefined) this.#assertHandlerNames(unknownNames);
    for (let k = 0; k < spec.namespaces.length; k++) {
      const ns = spec.namespaces[k]!;
      this.namespaces.push(new Group(ns.name, ns.description, ns.tools, k, undefined, this.tools));
      // A namespace shadows a same-named tool that is not flat (the model sees the namespace).
      this.byName.set(ns.name, { kind: 'namespace', index: k });
    }
    for (let k = 0; k < spec.toolkits.length; k++) {
      const kit = spec.toolkits[k]!;
      this.toolkits.push(new Group(kit.name, kit.description, kit.tools, k, undefined, this.tools));
      this.kitByLower.set(kit.name.toLowerCase(), k);
    }
    this.byName.set(LOAD_TOOLKIT_NAME, { kind: 'loader' });
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
      deepFreeze(this.tools[t]!.definition);
      this.library.push(t);
    }
  }

  /** Throw naming each handler key that is no tool of the spec (with the closest tool names); `names` are such keys. */
  #assertHandlerNames(names: readonly string[]): void {
    assertKnownNames(
      'createRouter: handlers',
      names,
      { has: (name) => this.byName.get(name)?.kind === 'tool' },
      () => this.spec.tools.map((t) => t.name),
      'Handlers are keyed by tool name; remove the entry or fix its name.',
    );
  }

  /** Whether `name` is a library tool of this router (`libraryTools`; `load_toolkit` is not one of them). */
  isLibraryTool(name: unknown): boolean {
    const ref = typeof name === 'string' ? this.byName.get(name) : undefined;
    return ref?.kind === 'tool' && this.tools[ref.index]!.library;
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
    for (let p = definitions.length; p < this.flat.length; p++) definitions.push(this.tools[this.flat[p]!]!.definition);
    return definitions;
  }

  #addFlat(index: number): void {
    const name = this.tools[index]!.name;
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
      this.flat.slice(this.spec.flat.length).map((t) => ({ name: this.tools[t]!.name, tags: this.tools[t]!.tags })),
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
        if (this.kitByLower.has(lower) || groupNames.has(lower) || this.library.some((t) => this.tools[t]!.name.toLowerCase() === lower)) {
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
        if (typeof m === 'string' && (!(this.byName.get(m)?.kind === 'tool') || this.isLibraryTool(m))) {
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
        name: this.tools[t]!.name,
        description: this.tools[t]!.description,
        parameters: this.tools[t]!.schema,
      }));
      list.push(new Group(g.name, g.description, members, -1, kind === 'namespace' ? neutralNamespaceTool(g, inputs, g.encoding ?? 'compact') : undefined, this.tools));
      for (const t of members) {
        const entry = this.tools[t]!;
        if (kind === 'namespace') entry.namespaces = [...entry.namespaces, index];
        else entry.toolkits = [...entry.toolkits, index];
      }
      if (kind === 'namespace') this.byName.set(g.name, { kind: 'namespace', index });
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
    const index = this.tools.length;
    // Run-time tools: wire names for Anthropic rendered here; their own `validate` (one that writes into its
    // argument does so on its own terms, so no `fillsDefaults`); their definition rendered now.
    const definition = renderTool('neutral', neutral, RENDER_OPTIONS) as ToolDefinition;
    this.tools.push(
      new Entry(def.name, flat, library, [], [], def.validate, 0, undefined, anthropicKeyPlan(schema), false, def.handler as AnyHandler | undefined, -1,
        undefined, undefined, { description: def.description, tags: def.tags ? [...def.tags] : [], deferLoading: def.deferLoading === true, neutral, definition, schema }),
    );
    this.byName.set(def.name, { kind: 'tool', index });
    return index;
  }
}
