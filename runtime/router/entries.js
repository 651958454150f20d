/** A tool as the neutral builders read it (signatures in namespace descriptions and load results). */
export const toolInput = (entry) => ({ name: entry.name, description: entry.description, parameters: entry.schema });
/** A tool's schema when it declares no parameters. */
export const EMPTY_OBJECT_SCHEMA = Object.freeze({ type: 'object', properties: Object.freeze({}) });
/**
 * One namespace or toolkit of the catalog. Its lookup by action name and its action list are built on first read: only
 * a call into the group (or a rejection naming its actions) needs them. Member names are read from the catalog; a
 * tool's name never changes.
 * @example
 * const ns = new Group({ name: 'git', description: 'Git', tools: [4, 7], specIndex: 0, neutral: undefined }, catalog);
 * ns.actions.get('git_push'); // → 7
 */
export class Group {
    name;
    description;
    /** Member tool indices (spec groups: the spec's own frozen array). */
    tools;
    specIndex;
    neutral;
    /** Closest-action suggestions; built by call resolution on the first unknown action. */
    suggester;
    #names;
    #actions;
    #actionList;
    constructor(fields, names) {
        this.name = fields.name;
        this.description = fields.description;
        this.tools = fields.tools;
        this.specIndex = fields.specIndex;
        this.neutral = fields.neutral;
        this.#names = names;
    }
    /** Member tools by action name (built on first read). */
    get actions() {
        return (this.#actions ??= new Map(this.tools.map((t) => [this.#names.toolName(t), t])));
    }
    /** `actions`' keys, listed in rejection reasons (built once, on first read, not per rejected call). */
    get actionList() {
        return (this.#actionList ??= this.tools.map((t) => this.#names.toolName(t)));
    }
}
