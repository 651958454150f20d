/**
 * The integration examples run and do what their comments say; the committed
 * MCP example spec matches the live reference servers and its generated folder
 * is fresh (the CI use of `import mcp --check` and `codegen --check`).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAiSdkAgent } from '../../examples/ai-sdk-agent.js';
import { runMcpClient } from '../../examples/mcp-client.js';
import { REPO } from '../generator/helpers.js';
import { LINES } from './mcp-lines.js';
import { cli, SERVER } from './mcp-servers.js';

describe.each(LINES)('examples/mcp-client.ts, MCP SDK %s', (sdk) => {
  it('routes calls to the real memory and everything servers, with toolroute rejections in between', async () => {
    const steps = await runMcpClient({ sdk });
    expect(steps.map((s) => [s.ok, s.output.split(':')[0]])).toEqual([
      [true, '[{"type"'],
      [false, 'invalid_arguments'],
      [false, 'not_loaded'],
      [true, 'Toolkit "memory" loaded. These tools can be called now'],
      [true, '{"entities"'],
      [true, '{"entities"'],
      [false, 'blocked'],
      [true, '1970-01-01T00'],
    ]);
    expect(steps[0]!.output).toBe('[{"type":"text","text":"The sum of 2 and 40 is 42."}]');
    expect(JSON.parse(steps[5]!.output)).toEqual({ entities: [{ name: 'toolroute', entityType: 'library', observations: ['compiles tool specs'] }], relations: [] });
  });

  it('its spec is in sync with both servers and its generated folder is fresh', async () => {
    const spec = 'examples/mcp/tools.spec.yaml';
    for (const [name, command] of [['memory', SERVER.memory()], ['everything', SERVER.everything()]] as const) {
      const r = await cli(['import', 'mcp', '--out', spec, '--check', '--sdk', sdk, '--name', name, '--', ...command]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    const gen = await cli(['codegen', 'tools.spec.yaml', '--out', 'generated', '--check'], path.join(REPO, 'examples/mcp'));
    expect(gen.stderr).toBe('');
    expect(gen.code).toBe(0);
  });
});

describe('examples/ai-sdk-agent.ts', () => {
  it('gets toolroute reasons back for its mistakes, loads the toolkit and finishes', async () => {
    for (const toolkitLoading of ['dispatcher', 'append'] as const) {
      const { text, steps, toolsIdentical } = await runAiSdkAgent(toolkitLoading);
      expect(text).toBe('Lisbon: sunny for the next two days.');
      // The namespaces, the flat tool in no namespace (get_time), then the loader.
      const base = ['file_ops', 'terminal', 'get_time', 'load_toolkit'];
      if (toolkitLoading === 'append') {
        expect(steps.map((s) => s.tools)).toEqual([base, base, base, [...base, 'get_forecast', 'get_current_weather'], [...base, 'get_forecast', 'get_current_weather']]);
        expect(toolsIdentical).toBe(false);
      } else {
        expect(steps.map((s) => s.tools)).toEqual(Array(5).fill([...base, 'call_toolkit_tool']));
        expect(toolsIdentical).toBe(true);
      }
      expect(steps[1]!.results).toEqual([
        { id: '1', type: 'json', value: '{"path":"plan.md","bytes":17}' },
        { id: '2', type: 'text', value: expect.stringMatching(/^Unknown tool "weather_lookup"\./) },
      ]);
      expect(steps[2]!.results[0]).toMatchObject({ type: 'text', value: expect.stringContaining('Call load_toolkit with {"toolkit_name":"Weather"} first') });
      expect(steps[4]!.results[0]).toEqual({ id: '5', type: 'json', value: '{"city":"Lisbon","days":2,"forecast":"sunny"}' });
    }
  });
});
