/**
 * Shared inputs for the per-target tests: a few neutral tools rendered for
 * every target, and a history with tool calls and tool results.
 */
import type { Announcement } from '../../runtime/announcements.js';
import type { Target } from '../../runtime/contract.js';
import type { NeutralMessage } from '../../runtime/targets/history.js';
import { renderTool, type NeutralTool } from '../../runtime/targets/index.js';
import { deepFreeze } from '../../runtime/freeze.js';

export const TARGET_LIST = ['anthropic', 'openai', 'openai-responses', 'gemini'] as const satisfies readonly Target[];

export const readFile: NeutralTool = {
  kind: 'tool',
  name: 'read_file',
  description: 'Read a file',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path of the file' },
      encoding: { type: 'string', enum: ['utf8', 'base64'], default: 'utf8' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  deferLoading: false,
};

export const getTime: NeutralTool = {
  kind: 'tool',
  name: 'get_time',
  description: 'Get timestamp',
  parameters: { type: 'object', properties: {} },
  deferLoading: false,
};

export const getForecast: NeutralTool = {
  kind: 'tool',
  name: 'get_forecast',
  description: 'Forecast for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  deferLoading: true,
};

export const runQuery: NeutralTool = {
  kind: 'tool',
  name: 'run_query',
  description: 'Run a read-only SQL query',
  parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] },
  deferLoading: false,
};

/** Render tools for a target, deep-frozen like the generated `spec.rendered` arrays. */
export function rendered(target: Target, tools: readonly NeutralTool[], openaiStrict = false): readonly unknown[] {
  return deepFreeze(tools.map((t) => renderTool(target, t, { openaiStrict })));
}

/** The runtime's own freezer: fixtures are frozen the way generated data is. */
export { deepFreeze };

/** user → assistant (two parallel calls, one with bad JSON) → two tool results. */
export const toolHistory: readonly NeutralMessage[] = [
  { role: 'system', content: 'Lead system.' },
  { role: 'user', content: 'Read a.ts and tell me the time.' },
  {
    role: 'assistant',
    content: 'Reading.',
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
      { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{not json' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'export {}' },
  { role: 'tool', tool_call_id: 'call_2', content: '{"now":"2026-01-01T00:00:00Z"}' },
];

export const ann = (id: string, content: string, channel: Announcement['channel'] = 'auto'): Announcement => ({ id, content, channel });
