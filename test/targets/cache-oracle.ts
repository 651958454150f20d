/**
 * An independent reading of what a provider caches before the conversation,
 * taken from a compiled payload's own bytes (not from the runtime's key code):
 * the oracle the cache-key tests hold `cacheKey` to. Tools as sent, minus what
 * the provider strips (Anthropic: `defer_loading: true`), without breakpoint
 * markers; tool_choice / toolConfig; the system text as sent.
 */
import type { Target } from '../../runtime/contract.js';

export function cachedPrefixOracle(target: Target, payload: unknown): string {
  const p = payload as Record<string, unknown> & {
    tools?: unknown[];
    messages?: Array<{ role?: string; content?: unknown }>;
    config?: { tools?: Array<{ functionDeclarations?: unknown[] }>; toolConfig?: unknown; systemInstruction?: unknown };
  };
  const strip = (tool: unknown): unknown => {
    if (typeof tool !== 'object' || tool === null) return tool;
    const { cache_control: _c, ...rest } = tool as Record<string, unknown>;
    return rest;
  };
  let tools: unknown[];
  let choice: unknown;
  let system: unknown;
  switch (target) {
    case 'anthropic':
      tools = (p.tools ?? []).filter((t) => (t as { defer_loading?: unknown }).defer_loading !== true).map(strip);
      choice = p['tool_choice'];
      system = typeof p['system'] === 'string' ? [p['system']] : ((p['system'] as Array<{ text: string }> | undefined) ?? []).map((b) => b.text);
      break;
    case 'openai':
      tools = p.tools ?? [];
      choice = p['tool_choice'];
      // The system prompt is the leading system message.
      system = p.messages?.[0]?.role === 'system' ? [p.messages[0].content] : [];
      break;
    case 'openai-responses':
      tools = p.tools ?? [];
      choice = p['tool_choice'];
      system = p['instructions'] === undefined ? [] : [p['instructions']];
      break;
    case 'gemini':
      tools = p.config?.tools?.[0]?.functionDeclarations ?? [];
      choice = p.config?.toolConfig;
      system = p.config?.systemInstruction === undefined ? [] : [p.config.systemInstruction];
      break;
  }
  return JSON.stringify({ tools, choice: choice ?? null, system });
}
