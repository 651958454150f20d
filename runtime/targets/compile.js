/**
 * `compileForTarget`: one request-compile pipeline for every target (normalize, system text, announcements, tools,
 * cache key, the adapter's payload), returning what is spread into the SDK call. Pure apart from `onWarning`.
 */
import { placeAnnouncements } from '../announcements.js';
import { registerPayloadPrefix, stablePrefix } from '../cache-key.js';
import { normalizeMessages } from './history.js';
import { adapterFor } from './index.js';
import { readNativeEntry } from './native.js';
export { ToolrouteConfigError } from './errors.js';
export { ANNOUNCEMENT_ANCHOR, placeAnnouncements } from '../announcements.js';
/** Codes of the warnings compile can emit, so a sink can dedupe or filter them. */
export const TARGET_WARNING_CODES = [
    'anthropic-announcement-hoist', 'anthropic-deferred-without-search', 'tool-search-unsupported', 'duplicate-tool-name', 'cache-audit',
    'provider-state-dropped', 'allowed-tools-unsupported', 'tool-changes-unplaced'
];
/**
 * Compile one request for one target. Throws {@link ToolrouteConfigError} only for configuration the provider would
 * reject with a 400; model output in the history never throws.
 * @example
 * const payload = compileForTarget({ target: 'anthropic', system: 'Be brief.',
 *   messages: [{ role: 'user', content: 'hi' }], stable: spec.rendered.anthropic.namespaces,
 *   loaded: [], directoryXml: spec.directoryXml, announcements: [] });
 * await client.messages.create({ model: 'claude-…', max_tokens: 1024, ...payload });
 */
export function compileForTarget(input) {
    const adapter = adapterFor(input.target);
    const options = input.options ?? {};
    const warn = (code, message) => options.onWarning?.(`[toolroute] ${message}`, code);
    const { systemText, conversation } = splitSystem(input, adapter.systemMessages);
    const placed = placeAnnouncements(dropForeignState(conversation, adapter.target, warn), input.announcements, adapter.announcements);
    if (placed.hoisted !== '') {
        warn('anthropic-announcement-hoist', 'system-channel announcements need a user or tool message to follow, and the history has none; ' +
            'the Anthropic API rejects a leading mid-conversation system message, so they were hoisted into a ' +
            'separate top-level system block after the stable system text (the cache key is unchanged; a cache ' +
            'breakpoint on a message now covers the announcement text).');
    }
    let search;
    if (options.toolSearch !== undefined && options.toolSearch !== false) {
        if (adapter.searchTool !== undefined)
            search = adapter.searchTool(options.toolSearch);
        else
            warn('tool-search-unsupported', `target '${adapter.target}' has no tool-search tool; options.toolSearch was ignored (deferred tools are sent in full there).`);
    }
    const tools = assembleTools(adapter, search, input, warn);
    const prefix = stablePrefix(adapter, tools, placed.hoisted === '' ? systemText : `${systemText}\u0000${placed.hoisted}`, input.toolChoice);
    const payload = adapter.buildPayload({ input, options, systemText, placed, searchTool: search, tools, warn });
    registerPayloadPrefix(payload, prefix);
    return payload;
}
/**
 * Wrap a warning sink so each code is reported once (audit findings once per message); share `seen` to dedupe across
 * wrappers.
 * @example
 * const onWarning = warnOnce((message) => logger.warn(message));
 * compileForTarget({ …, options: { onWarning } });
 */
export function warnOnce(sink, seen = new Set()) {
    return (message, code) => {
        const key = code === 'cache-audit' ? `${code}\u0000${message}` : code;
        if (seen.has(key))
            return;
        seen.add(key);
        sink(message, code);
    };
}
/** Caller's `system`, the system messages that join it (leading ones, or all), then the directory. */
function splitSystem(input, joining) {
    const parts = typeof input.system === 'string' && input.system !== '' ? [input.system] : [];
    const conversation = [];
    let leading = true;
    for (const m of normalizeMessages(input.messages, readNativeEntry)) {
        leading &&= m.role === 'system';
        if (m.role !== 'system' || (!leading && joining === 'leading'))
            conversation.push(m);
        else if (m.text !== '')
            parts.push(m.text);
    }
    if (typeof input.directoryXml === 'string' && input.directoryXml !== '')
        parts.push(input.directoryXml);
    return { systemText: parts.join('\n\n'), conversation };
}
/** The messages without provider state `target` cannot use (their text and calls kept), with one warning. */
function dropForeignState(messages, target, warn) {
    const foreign = messages.filter((m) => m.state !== undefined && m.state?.target !== target);
    const first = foreign[0];
    if (first === undefined)
        return messages;
    const what = first.state === null ? 'a `provider` field toolroute cannot read' : `${first.state.target} provider state`;
    const more = foreign.length - 1;
    warn('provider-state-dropped', `messages[${first.src}] carries ${what}, which '${target}' cannot use` +
        (more > 0 ? ` (and ${more} more message${more > 1 ? 's' : ''} like it)` : '') +
        "; it was left out and those turns' text and tool calls were sent (their reasoning state, such as thinking blocks or signatures, does not carry across providers).");
    return messages.map((m) => (foreign.includes(m) ? { ...m, state: undefined } : m));
}
const NONE = Object.freeze([]);
// The last assembly per frozen stable array: the router passes the same arrays turn after turn, so the cache key
// memoized on the result stays a lookup.
const assembled = new WeakMap();
/** Search tool, stable, then deferred and loaded ones whose name is not already sent; just the stable array when that is all. */
function assembleTools(adapter, search, input, warn) {
    const { stable, deferred = NONE, loaded } = input;
    const frozen = Object.isFrozen(stable);
    if (search === undefined && deferred.length === 0 && loaded.length === 0)
        return (frozen ? stable : [...stable]);
    const parts = [search, deferred, loaded];
    const hit = assembled.get(stable);
    if (hit?.target === adapter.target && hit.parts.every((p, i) => p === parts[i]))
        return hit.tools;
    const seen = new Set();
    const tools = [];
    let clean = true;
    const add = (tool, mayDrop) => {
        const name = adapter.toolName(tool);
        if (name !== undefined && mayDrop && seen.has(name)) {
            clean = false;
            warn('duplicate-tool-name', `tool '${name}' is already in the request; the later copy (deferred or loaded) was left out, as providers reject duplicate names.`);
            return;
        }
        if (name !== undefined)
            seen.add(name);
        tools.push(tool);
    };
    if (search !== undefined)
        add(search, false);
    for (const t of stable)
        add(t, false);
    for (const t of deferred)
        add(t, true);
    for (const t of loaded)
        add(t, true);
    // Only a clean assembly is kept: one with warnings is rebuilt, so they are emitted on every compile.
    if (clean && frozen && Object.isFrozen(deferred) && Object.isFrozen(loaded))
        assembled.set(stable, { target: adapter.target, parts, tools: Object.freeze(tools) });
    return tools;
}
