/**
 * `import mcp` merging into a spec someone wrote: every line the import does not own keeps its
 * bytes (spacing before comments, flow lists and mappings as written, folded and multi-line values,
 * blank lines), the editor's schema modeline stays on the first line, and the merged spec still
 * means what the import intends.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { McpTool as Tool } from '../../integrations/mcp/types.js';
import { buildMcpImport, readRecords } from '../../generator/import/mcp.js';
import { keepWrittenLines, matchLines } from '../../generator/import/keep-lines.js';
import { loadText } from '../../generator/load.js';
import { validateSpec } from '../../generator/validate.js';

const SERVER = { name: 'geo-server', version: '1.0.0' };
const tool = (name: string, description = `Does ${name}.`): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  annotations: { readOnlyHint: true },
});

const HAND_WRITTEN = `# yaml-language-server: $schema=./node_modules/toolroute/schema/spec.schema.json
version: 1


tools:
  - name: save_note   # a local tool
    description: >
      Save a note under its title,
      replacing an older one.
    tags: [note, read]  # comment
    parameters:
      type: object
      properties:
        title: {type: string, description: "The title"}
        body: { type: string }
      required: [title]
  - name: list_notes
    description: List the notes.
    parameters: {
      type: object,
      properties: {}
    }

policies:
  prod: [save_note]   # no writes in production
`;

function problems(text: string): string[] {
  const loaded = loadText(text, 'spec.yaml', 'yaml');
  return loaded.ok ? validateSpec(loaded.spec).map((p) => p.message) : loaded.problems.map((p) => p.message);
}

/** The saved lines, in order, each found byte for byte in `text` after the one before. */
function inOrder(saved: string, text: string): string[] {
  const lines = text.split('\n');
  const missing: string[] = [];
  let at = 0;
  for (const line of saved.split('\n')) {
    const found = lines.indexOf(line, at);
    if (found < 0) missing.push(line);
    else at = found + 1;
  }
  return missing;
}

describe('import mcp into a hand-written spec', () => {
  it.each(['namespace', 'toolkit'] as const)('keeps every hand-written line byte for byte (as %s)', (as) => {
    const built = buildMcpImport([tool('region'), tool('lookup')], HAND_WRITTEN, { as, name: 'geo' }, SERVER, 'spec.yaml');
    expect(built.problems).toEqual([]);
    const text = built.text!;
    expect(inOrder(HAND_WRITTEN, text)).toEqual([]);
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./node_modules/toolroute/schema/spec.schema.json');
    expect(text).toContain('    tags: [note, read]  # comment\n');
    expect(text).toContain('      required: [title]\n');
    expect(problems(text)).toEqual([]);
    expect(readRecords(parseDocument(text)).map((r) => r.tools)).toEqual([['geo_region', 'geo_lookup']]);
  });

  it('keeps them through a re-import that changes a tool, and an unchanged re-import changes no byte', () => {
    const first = buildMcpImport([tool('region')], HAND_WRITTEN, { name: 'geo' }, SERVER, 'spec.yaml').text!;
    const changed = buildMcpImport([tool('region', 'Finds a region.')], first, {}, SERVER, 'spec.yaml').text!;
    expect(inOrder(HAND_WRITTEN, changed)).toEqual([]);
    expect(changed).toContain('description: Finds a region.');
    expect(buildMcpImport([tool('region', 'Finds a region.')], changed, {}, SERVER, 'spec.yaml').text).toBe(changed);
  });

  it("writes hand-written lines at yaml's indentation, with their own spacing, when their indentation cannot hold the imported entries", () => {
    const saved = 'version: 1\ntools:\n- name: save_note   # a local tool\n  description: Save a note.\n  tags: [note, read]  # comment\n';
    const built = buildMcpImport([tool('region')], saved, { as: 'flat', name: 'geo' }, SERVER, 'spec.yaml');
    expect(built.problems).toEqual([]);
    expect(built.text).toContain('\n  - name: save_note   # a local tool\n    description: Save a note.\n    tags: [note, read]  # comment\n  - name: geo_region\n');
    expect(problems(built.text!)).toEqual([]);
  });
});

describe('keepWrittenLines', () => {
  it('puts back nothing that would change what the spec says', () => {
    // The saved list is indented less than the entry the import adds to it: written as saved, it would not parse.
    const rendered = 'tools:\n  - a # x\n  - b\n';
    expect(keepWrittenLines('tools:\n- a   # x\n', 'tools:\n  - a # x\n', rendered)).toBe('tools:\n  - a   # x\n  - b\n');
    expect(parseDocument(keepWrittenLines('k: [1,2]\n', 'k: [1, 2]\n', 'k: [1, 2]\nj: 3\n')).toJS()).toEqual({ k: [1, 2], j: 3 });
  });

  it('matches long stretches through their unique lines', () => {
    const common = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
    const b = common.flatMap((line, i) => (i % 30 === 0 ? ['inserted', line] : [line]));
    const pairs = matchLines(['first', ...common, 'last'], ['start', ...b, 'end']);
    expect(pairs).toHaveLength(3000);
    expect(pairs.every(([i, j]) => ['first', ...common, 'last'][i] === ['start', ...b, 'end'][j])).toBe(true);
  });
});
