/**
 * The catalog's records: one tool (`ToolEntry`) and one namespace or toolkit (`Group`), as the catalog
 * (catalog.ts) builds them and every other router module reads them. Named fields, no positional encodings;
 * `Group` adds the lookups by member name that resolution needs.
 */
import type { GeneratedTool, HandlerContext, KeyDecodePlan, NullDecodePlan, ToolDefinition, ValidateFn } from '../contract.js';
import type { Suggester } from '../suggest.js';
import type { NeutralToolInput } from '../neutral.js';
import type { JsonSchema, NeutralTool } from '../targets/index.js';

/** A handler as stored: its argument and context types are erased here and restored by the façade's types. */
export type AnyHandler = (args: never, ctx: HandlerContext<never>) => unknown;

/** One tool: from the spec (`specIndex >= 0`) or registered at run time. */
export interface ToolEntry extends Pick<GeneratedTool, 'name' | 'flat' | 'description' | 'tags' | 'deferLoading'> {
  /** A library tool (`libraryTools`): callable by name, offered after everything else, never pruned. */
  readonly library: boolean;
  /**
   * Namespace / toolkit indices containing it. Spec tools start with the spec's own (frozen) arrays; a run-time
   * registration replaces the array with a longer copy, so read the field each time rather than keeping it.
   */
  namespaces: readonly number[];
  toolkits: readonly number[];
  readonly validate: ValidateFn | undefined;
  readonly nullDecode: NullDecodePlan | undefined;
  /** Anthropic wire names of top-level properties → spec names (property-keys.ts); undefined for most tools. */
  readonly keyDecode: KeyDecodePlan | undefined;
  /** The validator fills `default`s (spec option `applyDefaults`): validate a copy of the arguments. */
  readonly fillsDefaults: boolean;
  readonly handler: AnyHandler | undefined;
  /** Parameters schema for reasons and signatures. */
  readonly schema: JsonSchema;
  /** A run-time tool's neutral definition; a spec tool's is the spec's (`Catalog.definition` reads either). */
  readonly definition: ToolDefinition | undefined;
  /** Rendered forms: spec tools point into `spec.rendered`; run-time tools render lazily. */
  readonly specIndex: number;
  readonly neutral: NeutralTool | undefined;
}

/** A tool as the neutral builders read it (signatures in namespace descriptions and load results). */
export const toolInput = (entry: ToolEntry): NeutralToolInput => ({ name: entry.name, description: entry.description, parameters: entry.schema });

/** A tool's schema when it declares no parameters. */
export const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) });

/**
 * One namespace or toolkit of the catalog. Its lookup by action name and its action list are built on first read: only
 * a call into the group (or a rejection naming its actions) needs them. Member names are read from the catalog; a
 * tool's name never changes.
 * @example
 * const ns = new Group({ kind: 'namespace', name: 'git', description: 'Git', tools: [4, 7], specIndex: 0, neutral: undefined }, catalog);
 * ns.actions.get('git_push'); // → 7
 */
export class Group {
  readonly kind: 'namespace' | 'toolkit';
  readonly name: string;
  readonly description: string;
  /** Member tool indices (spec groups: the spec's own frozen array). */
  readonly tools: readonly number[];
  readonly specIndex: number;
  readonly neutral: NeutralTool | undefined;
  /** Closest-action suggestions; built by call resolution on the first unknown action. */
  suggester?: Suggester;
  readonly #names: { toolName(t: number): string };
  #actions: Map<string, number> | undefined;
  #actionList: readonly string[] | undefined;

  constructor(fields: Pick<Group, 'kind' | 'name' | 'description' | 'tools' | 'specIndex' | 'neutral'>, names: { toolName(t: number): string }) {
    ({ kind: this.kind, name: this.name, description: this.description, tools: this.tools, specIndex: this.specIndex, neutral: this.neutral } = fields);
    this.#names = names;
  }

  /** Member tools by action name (built on first read). */
  get actions(): ReadonlyMap<string, number> {
    return (this.#actions ??= new Map(this.tools.map((t): readonly [string, number] => [this.#names.toolName(t), t])));
  }

  /** `actions`' keys, listed in rejection reasons (built once, on first read, not per rejected call). */
  get actionList(): readonly string[] { return (this.#actionList ??= this.tools.map((t) => this.#names.toolName(t))); }
}
