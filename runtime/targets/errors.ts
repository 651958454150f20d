/** The rules compile (and `fromProvider`, for what it is given) checks: the provider would answer 400, or the request could not work; the cause is configuration, never model output. */
export const CONFIG_RULES = [
  'anthropic-all-tools-deferred', 'anthropic-search-tool-deferred', 'anthropic-deferred-cache-control', 'anthropic-too-many-breakpoints',
  'cache-breakpoint-target', 'native-history-entry', 'openai-too-many-tools', 'response-shape', 'search-tools-toolkit-loading', 'toolkit-loading-changed',
] as const;
export type ConfigRule = (typeof CONFIG_RULES)[number];

/**
 * A request that the provider would reject, caught at compile time. `rule` is stable for programs to branch on;
 * `message` says what, where and how to fix it.
 * @example
 * try { compileForTarget(input); } catch (e) {
 *   if (e instanceof ToolrouteConfigError && e.rule === 'anthropic-all-tools-deferred') { … }
 * }
 */
export class ToolrouteConfigError extends Error {
  override readonly name = 'ToolrouteConfigError';
  readonly rule: ConfigRule;

  constructor(rule: ConfigRule, message: string) { super(`[toolroute] ${rule}: ${message}`); this.rule = rule; }
}
