/**
 * runtime/neutral.ts: the reference library's provider-neutral definitions (namespace tool
 * in both encodings, loader, directory XML), checked against the reference
 * library where the reference library's behaviour is the contract.
 */
import { Pruner } from '@context-chef/core';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.js';
import { normalizeSpec } from '../../generator/normalize.js';
import { REPO } from './helpers.js';
import {
  compactActionDoc,
  compactActionDocs,
  compactType,
  directoryXml,
  LOADER_DESCRIPTION,
  neutralLoaderTool,
  neutralNamespaceTool,
  neutralTool,
  type NeutralToolInput,
} from '../../runtime/neutral.js';

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

describe('compactType', () => {
  const cases: { name: string; given: unknown; want: string }[] = [
    { name: 'primitive', given: { type: 'string' }, want: 'string' },
    { name: 'integer stays integer', given: { type: 'integer' }, want: 'integer' },
    { name: 'enum as literals', given: { type: 'string', enum: ['a', 'b"c'] }, want: "'a'|'b\"c'" },
    { name: 'const', given: { const: 3 }, want: '3' },
    { name: 'type list', given: { type: ['string', 'null'] }, want: 'string|null' },
    { name: 'array of union', given: { type: 'array', items: { type: ['string', 'number'] } }, want: '(string|number)[]' },
    { name: 'array without items', given: { type: 'array' }, want: 'any[]' },
    { name: 'tuple', given: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] }, want: '[string, integer]' },
    { name: 'object', given: obj({ a: { type: 'string' }, 'b-c': { type: 'boolean' } }, ['a']), want: "{a: string, 'b-c'?: boolean}" },
    { name: 'object without properties', given: { type: 'object' }, want: 'object' },
    { name: 'anyOf of objects is parenthesised in an array', given: { type: 'array', items: { anyOf: [obj({ a: { type: 'string' } }), obj({ b: { type: 'string' } })] } }, want: '({a?: string}|{b?: string})[]' },
    { name: 'union inside an object member needs no parentheses', given: { type: 'array', items: obj({ a: { type: ['string', 'null'] } }) }, want: '{a?: string|null}[]' },
    { name: 'a | inside an enum literal is not syntax', given: { type: 'array', items: { enum: ['a|b'] } }, want: "'a|b'[]" },
    { name: "a value with a quote or backslash falls back to JSON", given: { enum: ["it's", 'a\\b', 'x\ny'] }, want: '"it\'s"|"a\\\\b"|"x\\ny"' },
    { name: 'allOf', given: { allOf: [obj({ a: { type: 'string' } }), obj({ b: { type: 'string' } })] }, want: '{a?: string}&{b?: string}' },
    { name: 'no type', given: {}, want: 'any' },
    { name: 'false schema', given: false, want: 'never' },
  ];
  it.each(cases)('$name', ({ given, want }) => expect(compactType(given)).toBe(want));
});

describe('compactActionDoc', () => {
  it('states every argument once with type, requiredness and enum, and its description when it has one', () => {
    const doc = compactActionDoc({
      name: 'write_file',
      description: 'Write to a file',
      parameters: obj(
        { path: { type: 'string', description: 'Where' }, content: { type: 'string' }, mode: { type: 'string', enum: ['overwrite', 'append'] } },
        ['path', 'content'],
      ),
    });
    expect(doc).toBe("- write_file: Write to a file\n  path: string - Where\n  content: string\n  mode?: 'overwrite'|'append'");
  });
  it('writes a tool without arguments as one line', () => {
    expect(compactActionDoc({ name: 'get_time', description: 'Now', parameters: { type: 'object', properties: {} } })).toBe('- get_time: Now');
  });
});

const fileOps: NeutralToolInput[] = [
  { name: 'read_file', description: 'Read a file', parameters: obj({ path: { type: 'string', description: 'Path to read' } }, ['path']) },
  {
    name: 'write_file',
    description: 'Write to a file',
    parameters: obj({ path: { type: 'string' }, content: { type: 'string' }, mode: { type: 'string', enum: ['overwrite', 'append'] } }, ['path', 'content']),
  },
];

describe('neutralNamespaceTool', () => {
  it('compact: keeps the reference wire format { action, args } and its exact parameters', () => {
    const ref = new Pruner()
      .registerNamespaces([{ name: 'file_ops', description: 'File system operations', tools: fileOps.map((t) => ({ ...t, parameters: t.parameters['properties'] as Record<string, unknown> })) }])
      .compile().tools[0]!;
    const mine = neutralNamespaceTool({ name: 'file_ops', description: 'File system operations' }, fileOps, 'compact');
    expect(mine.kind).toBe('namespace');
    expect(mine.parameters).toEqual(ref.parameters);
    expect(mine.description).toBe(
      "File system operations\n\nAvailable actions:\n- read_file: Read a file\n  path: string - Path to read\n- write_file: Write to a file\n  path: string\n  content: string\n  mode?: 'overwrite'|'append'",
    );
  });

  it('compact: is no larger than the reference, which drops requiredness and enums', () => {
    const ref = new Pruner()
      .registerNamespaces([{ name: 'file_ops', description: 'File system operations', tools: fileOps.map((t) => ({ ...t, parameters: t.parameters['properties'] as Record<string, unknown> })) }])
      .compile().tools[0]!;
    const mine = neutralNamespaceTool({ name: 'file_ops', description: 'File system operations' }, fileOps, 'compact');
    const size = (t: { name: string; description: string; parameters?: unknown }) => JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }).length;
    expect(size(mine)).toBeLessThanOrEqual(size(ref));
    expect(ref.description).not.toContain('overwrite');
    expect(mine.description).toContain("'overwrite'|'append'");
  });

  it('compact: the example spec\'s namespaces are no larger than the reference renders them', async () => {
    const loaded = await loadSpec('examples/tools.spec.yaml', { cwd: REPO });
    if (!loaded.ok) throw new Error('example spec does not load');
    const ir = normalizeSpec(loaded.spec);
    expect(ir.namespaces.length).toBeGreaterThan(0);
    for (const ns of ir.namespaces) {
      const tools = ns.tools.map((i) => ir.tools[i]!);
      const ref = new Pruner()
        .registerNamespaces([{ name: ns.name, description: ns.description, tools: tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters['properties'] as Record<string, unknown> })) }])
        .compile().tools[0]!;
      const mine = neutralNamespaceTool(ns, tools, 'compact');
      const bytes = (t: { name: string; description: string; parameters?: unknown }) => Buffer.byteLength(JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }));
      expect(bytes(mine), ns.name).toBeLessThanOrEqual(bytes(ref));
    }
  });

  it('schema: args is an anyOf of the real schemas, each naming its action; the root stays an object', () => {
    const mine = neutralNamespaceTool({ name: 'file_ops', description: 'File system operations' }, fileOps, 'schema');
    const params = mine.parameters as { type: string; anyOf?: unknown; properties: { action: { enum: string[] }; args: { anyOf: { description: string; properties: unknown }[] } }; required: string[] };
    expect(params.type).toBe('object');
    expect(params.anyOf).toBeUndefined();
    expect(params.required).toEqual(['action', 'args']);
    expect(params.properties.action.enum).toEqual(['read_file', 'write_file']);
    expect(params.properties.args.anyOf.map((s) => s.description)).toEqual(['Arguments of read_file', 'Arguments of write_file']);
    expect(params.properties.args.anyOf[1]!.properties).toEqual(fileOps[1]!.parameters['properties']);
    expect(mine.description).toBe('File system operations\n\nAvailable actions:\n- read_file: Read a file\n- write_file: Write to a file');
  });
});

describe('neutralLoaderTool and neutralTool', () => {
  it('matches the reference load_toolkit definition', () => {
    const ref = new Pruner().registerToolkits([{ name: 'Weather', description: 'w', tools: [] }, { name: 'Database', description: 'd', tools: [] }]).compile().tools[0]!;
    const mine = neutralLoaderTool(['Weather', 'Database']);
    expect({ name: mine.name, description: mine.description, parameters: mine.parameters }).toEqual(ref);
    expect(mine.description).toBe(LOADER_DESCRIPTION);
  });
  it('passes a tool through, deferLoading defaulting to false', () => {
    const t = neutralTool({ name: 'a', description: 'b', parameters: { type: 'object' } });
    expect(t).toEqual({ kind: 'tool', name: 'a', description: 'b', parameters: { type: 'object' }, deferLoading: false });
  });
});

describe('directoryXml', () => {
  it('is empty without toolkits', () => expect(directoryXml([])).toBe(''));

  it('matches the reference form for plain text', () => {
    const kits = [{ name: 'Weather', description: 'Weather forecast APIs', tools: [{ name: 'get_forecast', description: '' }, { name: 'get_alerts', description: '' }] }];
    const ref = new Pruner().registerToolkits(kits).getDirectoryXml();
    expect(directoryXml(kits.map((k) => ({ ...k, tools: k.tools.map((t) => t.name) })))).toBe(ref);
  });

  it('escapes every attribute and text, and unescapes back to the exact text', () => {
    const name = `A "kit" & 'co' </toolkit><script>`;
    const description = `desc <b>&amp;</b> "q" 'a' 中文 😀\n</available_toolkits>`;
    const xml = directoryXml([{ name, description, tools: ['t<1>', 't&2'] }]);
    const match = /^<available_toolkits>\n {2}<toolkit name="([^"<>]*)" tools="([^"<>]*)">([^<>]*)<\/toolkit>\n<\/available_toolkits>$/.exec(xml);
    expect(match).not.toBeNull();
    const unescape = (s: string) => s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
    expect(unescape(match![1]!)).toBe(name);
    expect(unescape(match![2]!)).toBe('t<1>, t&2');
    expect(unescape(match![3]!)).toBe(description);
  });
});

describe('compactActionDocs: aliases and repeated argument blocks lose nothing', () => {
  const patch = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      status: { type: 'string', enum: ['active', 'suspended', 'closed'] },
      address: { type: 'object', properties: { city: { type: 'string' }, country: { type: 'string', enum: ['PT', 'FR'] } }, required: ['city'] },
    },
  };
  const byId = { type: 'object', properties: { id: { type: 'string', description: 'Identifier' } }, required: ['id'] };
  const actions = [
    { name: 'update_user', description: 'Update a user', parameters: { type: 'object', properties: { user_id: { type: 'string' }, patch }, required: ['user_id', 'patch'] } },
    { name: 'get_user', description: 'Get a user', parameters: byId },
    { name: 'update_team', description: 'Update a team', parameters: { type: 'object', properties: { team_id: { type: 'string' }, patch }, required: ['team_id'] } },
    { name: 'get_team', description: 'Get a team', parameters: byId },
    { name: 'ping', description: 'Ping', parameters: { type: 'object', properties: {} } },
  ];

  /** Decode a compact namespace description back into each action's own compactActionDoc. */
  function decode(lines: readonly string[]): string[] {
    const all = lines.join('\n');
    const [body, types = ''] = all.split('\n\nTypes:');
    const alias = new Map([...types.matchAll(/\n {2}(T\d+) = (.*)/g)].map((m) => [m[1]!, m[2]!] as const));
    const docs = body!.split(/\n(?=- )/);
    const own = new Map<string, string>();
    return docs.map((doc) => {
      const [head, ...args] = doc.split('\n');
      const as = / \(args as ([^)]+)\)$/.exec(head!);
      const name = /^- ([^:]+):/.exec(head!)![1]!;
      const argLines = as ? own.get(as[1]!)! : args.map((l) => l.replace(/: (T\d+)( - |$)/, (_, t: string, rest: string) => `: ${alias.get(t)}${rest}`)).join('\n');
      own.set(name, argLines);
      return (as ? head!.slice(0, -as[0].length) : head!) + (argLines ? `\n${argLines}` : '');
    });
  }

  it('uses the savings on a namespace that repeats shapes', () => {
    const lines = compactActionDocs(actions);
    expect(lines.join('\n')).toContain('(args as get_user)');
    expect(lines.join('\n')).toMatch(/\n\nTypes:\n {2}T1 = \{name\?: string, status\?: 'active'\|'suspended'\|'closed', address\?: \{city: string, country\?: 'PT'\|'FR'\}\}$/);
  });

  it('decodes back to exactly the per-action docs, every type, requiredness and enum included', () => {
    expect(decode(compactActionDocs(actions))).toEqual(actions.map(compactActionDoc));
  });

  it('leaves a namespace with nothing repeated exactly as the per-action docs', () => {
    const distinct = [actions[0]!, actions[1]!, actions[4]!];
    expect(compactActionDocs(distinct)).toEqual(distinct.map(compactActionDoc));
  });
});
