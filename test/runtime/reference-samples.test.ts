/**
 * The code samples of the reference library's guide to pruning and tool
 * management, transcribed against the router built from examples/tools.spec.yaml.
 * Apart from setup (`chef` is the router) the sample code is the guide's; where the reference
 * library (@context-chef/core) can run the same sample, its result is the
 * expectation.
 */
import { describe, expect, test } from 'vitest';
import { Pruner } from '@context-chef/core';
import { exampleRouter } from './helpers.js';

/** An OpenAI Chat tool call, as `response.tool_calls` holds them. */
function openaiCall(id: string, name: string, args: unknown) {
  return { id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } };
}

describe('flat mode', () => {
  test('pruneByTask keeps matching and untagged tools, as the reference does', () => {
    const { router: chef } = exampleRouter();
    const { tools, removed } = chef.getPruner().pruneByTask('Read the auth.ts file');
    expect(tools.map((t) => t.name)).toEqual(['read_file', 'get_time']);
    expect(removed).toEqual(['run_bash']);

    const reference = new Pruner().registerTools([
      { name: 'read_file', description: 'Read a file', tags: ['file', 'read'] },
      { name: 'run_bash', description: 'Run a command', tags: ['shell'] },
      { name: 'get_time', description: 'Get timestamp' },
    ]);
    for (const task of ['Read the auth.ts file', 'open a SHELL', 'nothing here', 'run_bash and READ']) {
      const want = reference.pruneByTask(task);
      const got = chef.getPruner().pruneByTask(task);
      expect({ ...got, tools: got.tools.map((t) => t.name) }).toEqual({ ...want, tools: want.tools.map((t) => t.name) });
      // Case-insensitive at run time, as in the reference library (the type only admits exact names).
      expect(chef.getPruner().allowOnly(['READ_FILE' as 'read_file']).tools.map((t) => t.name)).toEqual(['read_file']);
      for (const strategy of ['union', 'intersection'] as const) {
        const refWithStrategy = new Pruner({ strategy }).registerTools(reference.getAllTools());
        const w = refWithStrategy.pruneByTaskAndAllowlist(task, ['run_bash']);
        const g = chef.getPruner().pruneByTaskAndAllowlist(task, ['run_bash'], strategy);
        expect(g.tools.map((t) => t.name)).toEqual(w.tools.map((t) => t.name));
        expect(g.removed).toEqual(w.removed);
      }
    }
  });
});

describe('runtime blocklist (permission gate)', () => {
  test('the agent loop gates every call with checkToolCall({ name })', async () => {
    const { router: chef, log } = exampleRouter();
    const compiledBefore = JSON.stringify(chef.compile());

    // Set policy (rare event — startup, on user role change, prod env, etc.)
    chef.getPruner().setBlockedTools(['delete_file', 'tail_logs']);

    const response = {
      tool_calls: [
        openaiCall('c1', 'delete_file', { path: 'a.ts' }),
        openaiCall('c2', 'get_time', {}),
        openaiCall('c3', 'tail_logs', { service: 'api' }),
      ],
    };
    const history: { role: 'tool'; tool_call_id: string; content: string }[] = [];
    const executeTool = async (call: (typeof response.tool_calls)[number]) => {
      const r = await chef.dispatch(call);
      if (r.ok) history.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(r.result) });
    };

    // In your agent loop, gate every tool call before dispatch:
    for (const call of response.tool_calls) {
      const check = chef.checkToolCall({ name: call.function.name });
      if (!check.allowed) {
        history.push({
          role: 'tool',
          tool_call_id: call.id,
          content: check.reason, // e.g. 'Tool "delete_file" is currently blocked.'
        });
        continue;
      }
      await executeTool(call);
    }

    expect(history.map((h) => h.content)).toEqual([
      'Tool "delete_file" is currently blocked.',
      JSON.stringify({ tool: 'get_time', args: {} }),
      'Tool "tail_logs" is currently blocked.',
    ]);
    expect(log.map((c) => c.tool)).toEqual(['get_time']);
    // The blocklist changes no compiled byte: the prompt cache survives.
    expect(JSON.stringify(chef.compile())).toBe(compiledBefore);
    expect(chef.getPruner().getBlockedTools()).toEqual(['delete_file', 'tail_logs']);
    chef.getPruner().setBlockedTools([]);
    expect(chef.checkToolCall({ name: 'delete_file' }).allowed).toBe(false); // namespace action: not callable flat
    expect(chef.checkToolCall({ name: 'tail_logs' })).toMatchObject({ allowed: false, code: 'unknown_tool' });
    expect(chef.checkToolCall({ name: 'terminal' })).toEqual({ allowed: true, name: 'terminal', kind: 'namespace' });
  });

  test('the reference blocks the same names with the same text', () => {
    const { router: chef } = exampleRouter();
    chef.setBlockedTools(['get_time']);
    // ContextChef.checkToolCall text, verbatim.
    expect(chef.checkToolCall({ name: 'get_time' })).toEqual({
      allowed: false,
      code: 'blocked',
      reason: 'Tool "get_time" is currently blocked.',
    });
    expect(chef.checkToolCall({ name: '' })).toMatchObject({ allowed: false, code: 'empty_name' });
    expect((chef.checkToolCall({ name: '' }) as { reason: string }).reason).toMatch(
      /^Tool call rejected: missing or empty tool name\./,
    );
  });
});

describe('namespace + lazy loading', () => {
  test('compile() is the namespaces plus load_toolkit, shaped like the reference', () => {
    const { router: chef } = exampleRouter();
    // Compile — tools: [file_ops, terminal, load_toolkit] (always stable). toolroute also
    // offers the flat tool that is in no namespace (get_time), after the namespaces.
    const { tools: all, directoryXml } = chef.getPruner().compile();
    expect(all.map((t) => t.name)).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit']);
    const tools = all.filter((t) => t.name !== 'get_time');
    expect(directoryXml).toContain('<toolkit name="Weather" tools="get_forecast, get_current_weather">');

    const reference = new Pruner()
      .registerNamespaces([
        { name: 'file_ops', description: 'File system operations', tools: ['read_file', 'write_file', 'delete_file'].map((name) => ({ name, description: name })) },
        { name: 'terminal', description: 'Shell command execution', tools: ['run_bash', 'tail_logs'].map((name) => ({ name, description: name })) },
      ])
      .registerToolkits([
        { name: 'Weather', description: 'Weather forecast APIs', tools: [] },
        { name: 'Database', description: 'SQL query and schema inspection', tools: [] },
      ])
      .compile();
    expect(tools.map((t) => t.name)).toEqual(reference.tools.map((t) => t.name));
    // Same wire format: `action` enum + `args` object, both required; loader enum of toolkit names.
    expect(tools.map((t) => (t.parameters as { required?: unknown }).required)).toEqual(
      reference.tools.map((t) => (t.parameters as { required?: unknown }).required),
    );
    expect(tools[2]!.parameters).toEqual(reference.tools[2]!.parameters);
    expect(tools[2]!.description).toBe(reference.tools[2]!.description);
  });

  test('the reference agent loop routes namespace calls and expands toolkits', async () => {
    const { router: chef, log } = exampleRouter();
    const executeTool = async (toolName: string, args: Record<string, unknown>) => {
      const r = await chef.dispatch({ name: toolName, arguments: args });
      return r;
    };
    const response = {
      tool_calls: [
        openaiCall('c1', 'file_ops', { action: 'read_file', args: { path: 'auth.ts' } }),
        openaiCall('c2', 'load_toolkit', { toolkit_name: 'weather' }),
      ],
    };
    const nextTools: string[] = [];
    const results: unknown[] = [];
    for (const toolCall of response.tool_calls) {
      if (chef.getPruner().isNamespaceCall(toolCall)) {
        // Route namespace call to real tool
        const { toolName, args } = chef.getPruner().resolveNamespace(toolCall);
        const result = await executeTool(toolName, args);
        results.push(result);
      } else if (chef.getPruner().isToolkitLoader(toolCall)) {
        // LLM requested a toolkit — expand and re-call
        const parsed = JSON.parse(toolCall.function.arguments);
        const newTools = chef.getPruner().extractToolkit(parsed.toolkit_name);
        // Merge newTools into the next LLM request
        nextTools.push(...newTools.map((t) => t.name));
      }
    }
    expect(results).toEqual([{ ok: true, tool: 'read_file', result: { tool: 'read_file', args: { path: 'auth.ts' } }, callId: undefined }]);
    expect(log.map((c) => c.tool)).toEqual(['read_file']);
    expect(nextTools).toEqual(['get_forecast', 'get_current_weather']);
    // Extracting loaded the toolkit: its tools now pass the gate.
    expect(chef.checkToolCall({ name: 'get_forecast' })).toEqual({ allowed: true, name: 'get_forecast', kind: 'tool' });
    expect(chef.checkToolCall({ name: 'run_query' })).toMatchObject({ allowed: false, code: 'not_loaded' });
  });
});

describe('library-owned tools', () => {
  test('ownsTool / handleTool dispatch load_toolkit, the rest goes to your tools', async () => {
    const { router: chef, log } = exampleRouter();
    const response = {
      tool_calls: [
        openaiCall('c1', 'run_query', { sql: 'select 1' }),
        openaiCall('c2', 'load_toolkit', { toolkit_name: 'Database' }),
        openaiCall('c3', 'run_query', { sql: 'select 1' }),
      ],
    };
    const history: { role: 'tool'; tool_call_id: string; content: string }[] = [];
    const executeYourOwnTool = async (call: (typeof response.tool_calls)[number]) => {
      const r = await chef.dispatch(call);
      history.push({ role: 'tool', tool_call_id: call.id, content: r.ok ? 'done' : r.reason });
    };
    for (const call of response.tool_calls) {
      if (chef.ownsTool(call.function.name)) {
        const content = await chef.handleTool({
          name: call.function.name,
          arguments: call.function.arguments,
        });
        history.push({ role: 'tool', tool_call_id: call.id, content });
        continue;
      }
      await executeYourOwnTool(call);
    }
    expect(history[0]!.content).toBe(
      'Tool "run_query" belongs to toolkit "Database", which is not loaded. Call load_toolkit with {"toolkit_name":"Database"} first, then call run_query again.',
    );
    expect(history[1]!.content).toMatch(/^Toolkit "Database" loaded\. These tools can be called now:\n- run_query: Run a read-only SQL query\n  sql: string - One SELECT statement\n/);
    expect(history[1]!.content).toContain('- describe_table: Show the columns of a table\n  table: string\n  schema?: string');
    expect(history[2]!.content).toBe('done');
    expect(log.map((c) => c.tool)).toEqual(['run_query']);
    expect(chef.ownsTool('load_toolkit')).toBe(true);
    expect(chef.ownsTool('run_query')).toBe(false);
  });
});

describe('announcements and delta detection', () => {
  test('announce / getAnnouncements / retractAnnouncement', () => {
    const { router: chef } = exampleRouter();
    chef.announce('tools:added', 'Tools newly available: read_file, grep');
    chef.announce('tools:removed', 'web_search has been withdrawn; calls to it will be rejected');
    expect(chef.getAnnouncements()).toEqual([
      { id: 'tools:added', content: 'Tools newly available: read_file, grep', channel: 'auto' },
      { id: 'tools:removed', content: 'web_search has been withdrawn; calls to it will be rejected', channel: 'auto' },
    ]);
    chef.announce('tools:added', 'Tools newly available: grep', { channel: 'user_tail' });
    expect(chef.getAnnouncements().map((a) => [a.id, a.channel])).toEqual([
      ['tools:added', 'user_tail'],
      ['tools:removed', 'auto'],
    ]);
    expect(chef.retractAnnouncement('tools:added')).toBe(true);
    expect(chef.retractAnnouncement('tools:added')).toBe(false);
  });

  test("the reference library's syncToolAnnouncements and the router's built-in one agree", () => {
    const { router: chef } = exampleRouter();
    const { router: builtIn } = exampleRouter();

    let previousTools = new Set<string>();
    function syncToolAnnouncements(next: string[]) {
      const added = next.filter((name) => !previousTools.has(name));
      const removed = [...previousTools].filter((name) => !next.includes(name));
      if (added.length) {
        chef.announce('tools:added', `Tools newly available: ${added.join(', ')}`);
      } else {
        chef.retractAnnouncement('tools:added');
      }
      if (removed.length) {
        chef.announce('tools:removed', `Withdrawn; calls to these will be rejected: ${removed.join(', ')}`);
      } else {
        chef.retractAnnouncement('tools:removed');
      }
      previousTools = new Set(next);
    }

    const turns = [
      ['read_file', 'get_time'],
      ['read_file', 'get_time', 'run_bash'],
      ['run_bash'],
      ['run_bash'],
      [],
    ];
    for (const next of turns) {
      syncToolAnnouncements(next);
      builtIn.syncToolAnnouncements(next);
      expect(builtIn.getAnnouncements()).toEqual(chef.getAnnouncements());
    }
    // Pairs naturally with the blocklist: the gate rejects, the announcement explains.
    chef.getPruner().setBlockedTools(['delete_file']);
    chef.announce('tools:blocked', 'delete_file is disabled in this environment');
    expect(chef.getAnnouncements().map((a) => a.id)).toContain('tools:blocked');
    // The delta state travels in snapshots.
    builtIn.syncToolAnnouncements(['run_bash']);
    const restored = exampleRouter().router.restore(JSON.parse(JSON.stringify(builtIn.snapshot())));
    expect(restored.syncToolAnnouncements(['run_bash'])).toEqual({ added: [], removed: [] });
  });
});
