/**
 * The catalog's records: one tool (`ToolEntry`) and one namespace or toolkit
 * (`GroupEntry`), as the catalog (catalog.ts) builds them and every other
 * router module reads them.
 *
 * A spec tool's entry is built on its first use (`Catalog.tool`), not when
 * the router is created, and holds only what dispatch reads; the rest
 * (description, tags, definition, schema) it reads from the spec's columns
 * when asked. A group's action lookup is built on its first read. Both keep
 * start-up from allocating per tool: at 10,000 tools every object per tool is
 * 10,000 objects that the collector then copies.
 */
import type { GeneratedSpec, HandlerContext, KeyDecodePlan, NullDecodePlan, RegistryShape, ToolDefinition, ValidateFn } from '../contract.js';
import type { SpecColumns } from '../packed-spec.js';
import type { Suggester } from '../suggest.js';
import type { JsonSchema, NeutralTool } from '../targets/index.js';
import { ActionIndex } from './lookup.js';

/** A handler as stored: its argument and context types are erased here and restored by the façade's types. */
export type AnyHandler = (args: never, ctx: HandlerContext<never>) => unknown;

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

/** A tool's schema when it declares no parameters. */
export const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) });

/** What a run-time tool's entry holds beyond what dispatch reads (a spec tool's come from the spec). */
export interface OwnParts {
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
 * 10,000 tools, each field less was 80 KB less to allocate at start-up,
 * before entries were built on first use; it still is per tool used).
 */
export class Entry implements ToolEntry {
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
 * are read from the catalog (`toolName`, which builds no entry); a tool's
 * name never changes.
 */
export class Group implements GroupEntry {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly number[];
  readonly specIndex: number;
  readonly neutral: NeutralTool | undefined;
  suggester?: Suggester;
  readonly #names: { toolName(t: number): string };
  #actions: ActionIndex | undefined;
  #actionList: readonly string[] | undefined;

  constructor(name: string, description: string, members: readonly number[], specIndex: number, neutral: NeutralTool | undefined, names: { toolName(t: number): string }) {
    this.name = name;
    this.description = description;
    this.tools = members;
    this.specIndex = specIndex;
    this.neutral = neutral;
    this.#names = names;
  }

  get actions(): ActionIndex {
    return (this.#actions ??= new ActionIndex(this.tools.map((t): readonly [string, number] => [this.#names.toolName(t), t])));
  }

  get actionList(): readonly string[] {
    return (this.#actionList ??= this.tools.map((t) => this.#names.toolName(t)));
  }
}
