/**
 * How a loaded toolkit reaches the model without changing what the provider has cached. `append` (the reference
 * library's behaviour) adds its tools to `tools`, rewriting the cached conversation; `native` (the default) is the
 * target's own way, named by its adapter: Anthropic `deferred` (`defer_loading` tools, `tool_reference` results),
 * Responses `tool-search` (a client-executed `tool_search`), OpenAI Chat and Gemini `dispatcher` (one stable tool,
 * {@link TOOLKIT_DISPATCHER_NAME}). Compile renders it as a pure function of the history and the catalog.
 */
import { LOAD_TOOLKIT_NAME, TARGETS, TOOLKIT_DISPATCHER_NAME } from './contract.js';
import { quote } from './reasons.js';
import { argumentsObject, parseOr } from './targets/history.js';
/** The strategies an application chooses from. */
export const TOOLKIT_LOADING_STRATEGIES = ['native', 'dispatcher', 'append', 'tool-changes'];
export { TOOLKIT_DISPATCHER_NAME } from './contract.js';
/** How the model reaches a toolkit's tools in each mode: what error texts say, so they match the active strategy. */
export const TOOLKIT_MODE_TEXT = {
    deferred: 'every toolkit tool is sent with defer_loading, and load_toolkit makes its toolkit\'s tools callable',
    'tool-search': 'load_toolkit\'s result brings its toolkit\'s tools through tool search',
    dispatcher: `a loaded toolkit's tools are called through ${TOOLKIT_DISPATCHER_NAME}`,
    append: 'a loaded toolkit\'s tools are appended after the stable tools',
    'tool-changes': 'every toolkit tool is sent with defer_loading, and a load adds its tools to the conversation with tool_addition blocks',
};
/** Check a `toolkitLoading` option's shape once, up front (router creation); each target's strategy is then checked by `toolkitMode` (targets/index.ts). */
export function assertToolkitLoadingOption(option) {
    if (option === undefined || typeof option === 'string')
        return;
    if (typeof option !== 'object' || option === null || Array.isArray(option)) {
        throw new TypeError('toolkitLoading: expected a strategy name or an object of strategies per target.');
    }
    const stray = Object.keys(option).find((key) => !TARGETS.includes(key));
    if (stray !== undefined)
        throw new TypeError(`toolkitLoading: ${JSON.stringify(stray)} is not a target; targets are ${TARGETS.join(', ')}.`);
}
/** The first line of a successful `load_toolkit` result, by which compile recognizes a successful load in the history: the router writes it with this. */
export function loadResultHead(toolkit, fresh) {
    return fresh ? `Toolkit ${quote(toolkit)} loaded.` : `Toolkit ${quote(toolkit)} is already loaded.`;
}
/**
 * The `load_toolkit` calls of a history by call id, each with the toolkit its result reports as loaded (undefined when
 * the result is not a successful load).
 * @example loadCalls(normalized, catalog).get('call_1')?.name; // → 'Weather'
 */
export function loadCalls(messages, catalog) {
    const requested = new Map();
    for (const m of messages) {
        if (m.role !== 'assistant')
            continue;
        for (const c of m.calls) {
            if (c.name !== LOAD_TOOLKIT_NAME || c.id === '')
                continue;
            const name = argumentsObject(c.arguments)['toolkit_name'];
            requested.set(c.id, typeof name === 'string' ? catalog.get(name.toLowerCase()) : undefined);
        }
    }
    const out = new Map([...requested.keys()].map((id) => [id, undefined]));
    for (const m of messages) {
        if (m.role !== 'tool' || !requested.has(m.callId))
            continue;
        const kit = requested.get(m.callId);
        // A result may be its text as a JSON string (`JSON.stringify(text)`).
        const unwrapped = m.text.startsWith('"') ? parseOr(m.text, m.text) : m.text;
        const text = typeof unwrapped === 'string' ? unwrapped : m.text;
        const ok = kit !== undefined && (text.startsWith(loadResultHead(kit.name, true)) || text.startsWith(loadResultHead(kit.name, false)));
        out.set(m.callId, ok ? kit : undefined);
    }
    return out;
}
/**
 * The announcement listing tools registered after the first turn in the dispatcher modes, so `tools` stays as cached.
 * @example registeredToolsText([{ name: 'ping', description: 'Ping', parameters: { type: 'object', properties: {} } }]);
 * // → 'Tools registered during this conversation: call each through call_toolkit_tool …\n- ping: Ping Arguments: {"type":"object","properties":{}}'
 */
export function registeredToolsText(tools) {
    const lines = tools.map((t) => `- ${t.name}: ${t.description} Arguments: ${JSON.stringify(t.parameters)}`);
    return `Tools registered during this conversation: call each through ${TOOLKIT_DISPATCHER_NAME} with { "tool": its name, "args": its arguments }.\n${lines.join('\n')}`;
}
/** The dispatcher tool, provider-neutral: `{ tool, args }`; its text never changes with the catalog. */
export const DISPATCHER_TOOL = Object.freeze({
    kind: 'loader',
    name: TOOLKIT_DISPATCHER_NAME,
    description: 'Call a tool of a loaded toolkit. Load the toolkit first with load_toolkit: its result lists the toolkit\'s tools and their arguments. ' +
        'Pass the tool\'s name as `tool` and its arguments as `args`.',
    parameters: Object.freeze({
        type: 'object',
        properties: Object.freeze({
            tool: Object.freeze({ type: 'string', description: 'The name of a tool of a loaded toolkit.' }),
            args: Object.freeze({ type: 'object', description: 'Arguments for that tool, as its load_toolkit listing states them.' }),
        }),
        required: Object.freeze(['tool', 'args']),
    }),
    deferLoading: false,
});
