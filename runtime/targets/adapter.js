/** Announcements as a user message at the tail (before a prefill without one): every target but Anthropic. */
export const TAIL_ANNOUNCEMENTS = Object.freeze({ auto: 'user_tail', withoutTail: 'before-prefill' });
/** The `name` field of a rendered tool (every target but Chat Completions). */
export function namedTool(tool) {
    const name = typeof tool === 'object' && tool !== null ? tool.name : undefined;
    return typeof name === 'string' ? name : undefined;
}
/** Whether a rendered tool is deferred on the wire (`defer_loading: true`: Anthropic and Responses). */
export function isMarkedDeferred(tool) {
    return typeof tool === 'object' && tool !== null && tool.defer_loading === true;
}
/**
 * `derive`, memoized per source object and frozen, so the router's arrays keep their identity turn after turn.
 * @example const deferred = memoFrozen((tool: AnthropicTool) => ({ ...tool, defer_loading: true }));
 */
export function memoFrozen(derive) {
    const memo = new WeakMap();
    return (source) => {
        let hit = memo.get(source);
        if (hit === undefined)
            memo.set(source, (hit = Object.freeze(derive(source))));
        return hit;
    };
}
/** The entries of an array (anything else gives []). */
export function list(value) {
    return Array.isArray(value) ? value : [];
}
/** The leading cache blocks of a payload whose sections are flat fields (both OpenAI targets): one block per tool, `tool_choice`, then the system field. */
export function flatCacheBlocks(p, add, system) {
    list(p['tools']).forEach((t, i) => add('tools', `tools[${i}]`, t));
    if (p['tool_choice'] !== undefined)
        add('tool_choice', 'tool_choice', p['tool_choice']);
    if (system !== undefined && p[system] !== undefined)
        add('system', system, p[system]);
}
/**
 * Adds `tools` (when there are any) and then `tool_choice` (when given) to a payload, the OpenAI targets' last keys.
 * @example withToolsAndChoice({ messages }, tools, undefined); // { messages, tools }
 */
export function withToolsAndChoice(out, tools, toolChoice) {
    if (tools.length > 0)
        out.tools = tools;
    if (toolChoice !== undefined)
        out.tool_choice = toolChoice;
    return out;
}
