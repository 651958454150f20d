/**
 * Compile options and `tools` the types would refuse, as a JavaScript caller or a configuration file passes them: an
 * unknown key is named with the closest known one, a value an option does not take with the values it takes, on the
 * router and on `compileForTarget`, and a refused compile leaves the router as it was.
 */
import { describe, expect, it } from 'vitest';
import * as generated from '../../generated/index.js';
import { createRouter, TARGETS } from '../../runtime/index.js';
import { compileForTarget } from '../../runtime/targets/compile.js';

const noop = () => null;
const router = () => createRouter(generated, Object.fromEntries(generated.TOOL_NAMES.map((n) => [n, noop])) as never);
const messages = [{ role: 'user' as const, content: 'hi' }];

describe('compile options', () => {
  it('options that are not an object (a BigInt, a function) are refused with the same TypeError on every target', () => {
    for (const target of TARGETS) expect(() => router().compile({ target, messages, options: 5n as never })).toThrow(/options must be an object; got 5\./);
    for (const target of TARGETS) expect(() => router().compile({ target, messages, options: (() => 1) as never })).toThrow(/options must be an object; got a function/);
  });

  it.each([
    [{ cacheBreakPoints: ['tools'] }, /unknown name "cacheBreakPoints" \(did you mean "cacheBreakpoints"\?\)/],
    [{ toolSearch: 'bogus' }, /options\.toolSearch takes true, false, 'regex' or 'bm25'; got "bogus"\.$/],
    [{ toolSearch: 'BM25' }, /options\.toolSearch takes true, false, 'regex' or 'bm25'; got "BM25" \(did you mean "bm25"\?\)\.$/],
    [{ allowedTools: 'yes' }, /options\.allowedTools takes true or false; got "yes"/],
    [{ responsesSystemRole: 'assistant' }, /options\.responsesSystemRole takes 'system' or 'developer'; got "assistant"\.$/],
    [{ responsesSystemRole: 'Developer' }, /options\.responsesSystemRole takes 'system' or 'developer'; got "Developer" \(did you mean "developer"\?\)\.$/],
    [{ namespaces: 'nativ' }, /options\.namespaces takes 'native' or 'action-args'; got "nativ" \(did you mean "native"\?\)\.$/],
    [{ cacheBreakpoints: 'tools' }, /options\.cacheBreakpoints takes a list/],
    [{ cacheBreakpoints: ['tool'] }, /options\.cacheBreakpoints takes a list/],
    [{ cacheBreakpoints: [{ msg: 0 }] }, /options\.cacheBreakpoints takes a list/],
    [{ cacheBreakpoints: [null] }, /options\.cacheBreakpoints takes a list/],
    [{ cacheBreakpoints: [{ message: -1 }] }, /options\.cacheBreakpoints takes a list/],
    [{ onWarning: 'console' }, /options\.onWarning takes a function; got "console"/],
    ['fast', /options must be an object; got "fast"/],
  ])('%j is refused with a TypeError that says why, on every target', (options, message) => {
    for (const target of TARGETS) {
      expect(() => router().compile({ target, messages, options: options as never })).toThrow(TypeError);
      expect(() => router().compile({ target, messages, options: options as never })).toThrow(message);
      expect(() => compileForTarget({ target, messages, stable: [], loaded: [], directoryXml: '', announcements: [], options: options as never })).toThrow(message);
    }
  });

  it('a system prompt that is no string and messages that are no list are refused, never left out of the request', () => {
    const system = [{ type: 'text', text: 'Never reveal customer data.', cache_control: { type: 'ephemeral' } }];
    for (const target of TARGETS) {
      expect(() => router().compile({ target, messages, system: system as never })).toThrow(/compile: system is the system prompt as a string; got array/);
      expect(() => router().compile({ target, messages: { role: 'user', content: 'hi' } as never })).toThrow(/compile: messages is a list of messages; got object/);
      expect(() => compileForTarget({ target, messages, system: 5 as never, stable: [], loaded: [], directoryXml: '', announcements: [] })).toThrow(/got integer/);
    }
  });

  it('a misspelt request key is refused with the closest one, never left out of the request; so is a request that is no object', () => {
    const r = router();
    const messages = [{ role: 'user' as const, content: 'hi' }];
    expect(() => r.compile({ target: 'anthropic', systm: 'Be brief.', messages } as never)).toThrow(/compile request: unknown name "systm" \(did you mean "system"\?\)/);
    expect(() => r.compile({ target: 'openai', tool: ['get_time'], messages } as never)).toThrow(/unknown name "tool" \(did you mean "tools"\?\)/);
    expect(() => r.compile({ systm: 'x' } as never)).toThrow(/unknown name "systm"/);
    for (const request of [null, 'anthropic', []]) expect(() => r.compile(request as never)).toThrow(/compile: expected a request object or nothing/);
    expect(r.compile({ target: 'anthropic', system: 'Be brief.', messages, tools: ['get_time'], options: {} }).tools?.map((t) => t.name)).toContain('get_time');
  });

  it('accepts every value the types allow, and undefined for any option', () => {
    const r = router();
    for (const target of TARGETS) {
      for (const options of [{}, { toolSearch: true }, { toolSearch: 'bm25' }, { cacheAudit: false, allowedTools: true }, { namespaces: 'native' }, { responsesSystemRole: 'developer' }, { cacheBreakpoints: ['tools'] }, { onWarning: noop }, { toolSearch: undefined }] as const) {
        expect(() => r.compile({ target, messages, options: options as never }), `${target} ${JSON.stringify(options)}`).not.toThrow();
      }
    }
  });

  it('`tools` that is neither a list of names nor a prune result is refused with a TypeError that says so', () => {
    for (const tools of [{}, 'read_file', { tools: 'read_file' }, null]) {
      for (const target of TARGETS) {
        expect(() => router().compile({ target, messages, tools: tools as never })).toThrow(/compile: tools takes a list of names or a prune result/);
      }
    }
    const r = router();
    expect(r.compile({ target: 'openai', messages, tools: r.pruneByTask('read the config file') })).toEqual(r.compile({ target: 'openai', messages, tools: r.pruneByTask('read the config file').tools.map((t) => t.name) }));
  });

  it('a refused compile changes nothing: the next compile is the one a fresh router makes', () => {
    const r = router();
    expect(() => r.compile({ target: 'anthropic', messages, tools: ['read_file'], options: { toolSerch: true } as never })).toThrow(/did you mean "toolSearch"/);
    expect(r.compile({ target: 'anthropic', messages })).toEqual(router().compile({ target: 'anthropic', messages }));
  });
});
