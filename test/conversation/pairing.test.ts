/**
 * Compile pairs tool calls with tool results on every target: a result whose call is not in the history (a history
 * trimmed from the front) is left out, a call with no result gets an error result, a reused call id is made unique,
 * each with one `unpaired-tool-calls` warning; a history that pairs is sent as it is, without a warning.
 */
import { describe, expect, it } from 'vitest';
import { exampleRouter } from '../../examples/provider-loop.js';
import type { Target } from '../../runtime/contract.js';
import { fromProvider, type NeutralMessage, type NeutralToolCall } from '../../runtime/index.js';

const TARGETS: readonly Target[] = ['anthropic', 'openai', 'openai-responses', 'gemini'];

/** The payload's bytes for `messages` on `target`, and the warnings heard (a fresh router each, so none is deduped). */
function compile(target: Target, messages: readonly NeutralMessage[]): { bytes: string; warnings: string[] } {
  const warnings: string[] = [];
  const payload = exampleRouter().compile({ target, messages, options: { onWarning: (message: string, code: string) => warnings.push(`${code}: ${message}`) } });
  return { bytes: JSON.stringify(payload), warnings };
}

const call = (id: string, name = 'get_time'): NeutralToolCall => ({ id, type: 'function', function: { name, arguments: '{}' } });
const calling = (...calls: NeutralToolCall[]): NeutralMessage => ({ role: 'assistant', content: null, tool_calls: calls });
const result = (id: string, content = 'noon'): NeutralMessage => ({ role: 'tool', tool_call_id: id, name: 'get_time', content });
const stub = (id: string): NeutralMessage => ({ role: 'tool', tool_call_id: id, name: 'get_time', content: 'No result was recorded for this call.', is_error: true });
const user = (content: string): NeutralMessage => ({ role: 'user', content });

type Event = ['call' | 'result', string] | ['turn'];

/** A payload read back as calls, results and turn boundaries, in order, in the target's own shape. */
function events(target: Target, bytes: string): Event[] {
  const p = JSON.parse(bytes) as Record<string, Array<Record<string, unknown>>>;
  const blocks = (content: unknown) => (Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [{ type: 'text' }]);
  if (target === 'anthropic') {
    return p['messages']!.flatMap((m): Event[] => [...(m['role'] === 'user' ? [] : [['turn'] as Event]), ...blocks(m['content']).map((b): Event => (b['type'] === 'tool_use' ? ['call', b['id'] as string] : b['type'] === 'tool_result' ? ['result', b['tool_use_id'] as string] : ['turn']))]);
  }
  if (target === 'openai') {
    return p['messages']!.flatMap((m): Event[] => (m['role'] === 'tool' ? [['result', m['tool_call_id'] as string]] : [['turn'], ...((m['tool_calls'] ?? []) as Array<{ id: string }>).map((c): Event => ['call', c.id])]));
  }
  if (target === 'openai-responses') {
    return p['input']!.map((i): Event => (i['type'] === 'function_call' ? ['call', i['call_id'] as string] : i['type'] === 'function_call_output' ? ['result', i['call_id'] as string] : ['turn']));
  }
  return p['contents']!.flatMap((c): Event[] => [
    ...(c['role'] === 'user' ? [] : [['turn'] as Event]),
    ...blocks(c['parts']).map((part): Event => {
      const fc = part['functionCall'] as { id?: string; name: string } | undefined;
      const fr = part['functionResponse'] as { id?: string; name: string } | undefined;
      return fc !== undefined ? ['call', fc.id ?? fc.name] : fr !== undefined ? ['result', fr.id ?? fr.name] : ['turn'];
    }),
  ]);
}

/** Every call of a turn has exactly one result right after the turn's calls, and every result has its call. */
function expectPaired(target: Target, bytes: string): void {
  const groups: Array<{ calls: string[]; results: string[] }> = [];
  let open: { calls: string[]; results: string[] } | undefined;
  for (const [kind, id] of events(target, bytes)) {
    if (kind === 'turn') open = undefined;
    else if (kind === 'call' && (open === undefined || open.results.length > 0)) groups.push((open = { calls: [id!], results: [] }));
    else if (kind === 'call') open!.calls.push(id!);
    else if (open === undefined) groups.push({ calls: [], results: [id!] });
    else open.results.push(id!);
  }
  expect(groups.length, target).toBeGreaterThan(0);
  for (const g of groups) expect([...g.results].sort(), `${target}: ${JSON.stringify(g)}`).toEqual([...g.calls].sort());
}

describe.each(TARGETS)('tool calls and results on %s', (target) => {
  it('a result whose call was trimmed from the front is left out with a warning; the rest is sent as it would be alone', () => {
    const paired = [user('and now?'), calling(call('call_2')), result('call_2', '13:00'), { role: 'assistant', content: 'It is 13:00.' } as NeutralMessage];
    const trimmed = [result('call_1'), ...paired];
    const alone = compile(target, paired);
    expect(alone.warnings).toEqual([]);
    expectPaired(target, alone.bytes);
    const out = compile(target, trimmed);
    expect(out.bytes).toBe(alone.bytes);
    expect(out.warnings).toEqual([
      'unpaired-tool-calls: [toolroute] 1 tool result(s) answering no call of the assistant turn before them ("call_1") were left out: providers reject a request whose tool calls and results do not pair.',
    ]);
  });

  it('a call with no result gets an error result after its turn\'s results, with a warning', () => {
    const out = compile(target, [user('hi'), calling(call('call_1'), call('call_2')), result('call_1'), user('never mind')]);
    expectPaired(target, out.bytes);
    expect(out.bytes).toBe(compile(target, [user('hi'), calling(call('call_1'), call('call_2')), result('call_1'), stub('call_2'), user('never mind')]).bytes);
    expect(out.bytes).toContain('No result was recorded for this call.');
    expect(out.warnings).toEqual([
      'unpaired-tool-calls: [toolroute] 1 tool call(s) with no result ("call_2") were answered with an error result: providers reject a request whose tool calls and results do not pair.',
    ]);
  });

  it('a history that ends on calls not answered yet gets the same error results', () => {
    const out = compile(target, [user('hi'), calling(call('call_1'))]);
    expectPaired(target, out.bytes);
    expect(out.bytes).toBe(compile(target, [user('hi'), calling(call('call_1')), stub('call_1')]).bytes);
    expect(out.warnings).toHaveLength(1);
  });

  it('a call id an earlier call used is sent, with its result, as <id>_2', () => {
    const history = [user('hi'), calling(call('x')), result('x'), user('again'), calling(call('x')), result('x', 'one')];
    const out = compile(target, history);
    expectPaired(target, out.bytes);
    expect(out.bytes).toBe(compile(target, [...history.slice(0, 4), calling(call('x_2')), result('x_2', 'one')]).bytes);
    expect(out.warnings).toEqual([
      'unpaired-tool-calls: [toolroute] 1 tool call(s) reusing an earlier call\'s id ("x") were sent as <id>_<n>: providers reject a request whose tool calls and results do not pair.',
    ]);
  });
});

describe('pairing edge cases', () => {
  it('the warning names at most five ids, each at most 64 characters', () => {
    const ids = ['a'.repeat(100), 'b', 'c', 'd', 'e', 'f', 'g'];
    const [warning] = compile('openai', [...ids.map((id) => result(id)), user('hi')]).warnings;
    expect(warning).toContain(`7 tool result(s) answering no call of the assistant turn before them ("${'a'.repeat(64)}", "b", "c", "d", "e" and 2 more) were left out`);
  });

  it('a Gemini result without an id answers the call of its name, on every target', () => {
    const history = [
      user('time?'),
      { role: 'model', parts: [{ functionCall: { name: 'get_time', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_time', response: { result: 'noon' } } }] },
    ] as unknown as NeutralMessage[];
    for (const target of TARGETS) {
      const out = compile(target, history);
      // Another target drops the Gemini state (a provider-state-dropped warning), never the result.
      expect(out.warnings.filter((w) => w.startsWith('unpaired-tool-calls')), target).toEqual([]);
      expectPaired(target, out.bytes);
    }
    expect(compile('anthropic', history).bytes).toMatch(/"tool_use_id":"gemini_call_0_[0-9a-f]{8}"/);
  });

  it('a result for a call kept only in the provider state (a custom tool call) is sent to that target, left out on another', () => {
    const response = { id: 'resp_1', object: 'response', status: 'completed', output: [
      { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_custom', name: 'apply_patch', input: '*** Begin Patch' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_fn', name: 'get_time', arguments: '{}', status: 'completed' },
    ] };
    const [reply] = fromProvider('openai-responses', response as never);
    const history = [user('patch it'), reply!, result('call_fn'), { role: 'tool', tool_call_id: 'call_custom', content: 'patched' } as NeutralMessage];
    const own = compile('openai-responses', history);
    expect(own.warnings).toEqual([]);
    // A custom tool call is answered with its own item type (ResponseCustomToolCallOutput); a function call with function_call_output.
    expect(own.bytes).toContain('{"type":"custom_tool_call_output","call_id":"call_custom","output":"patched"}');
    expect(own.bytes).toContain('{"type":"function_call_output","call_id":"call_fn","output":"noon"}');
    const other = compile('openai', history);
    expect(other.bytes).not.toContain('call_custom');
    expectPaired('openai', other.bytes);
    expect(other.warnings.map((w) => w.split(':')[0])).toEqual(['provider-state-dropped', 'unpaired-tool-calls']);
  });
});
