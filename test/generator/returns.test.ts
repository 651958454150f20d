/**
 * `returns` on a tool: the result's JSON Schema (what `toolroute import mcp`
 * writes from an MCP tool's `outputSchema`). Checked like `parameters`,
 * emitted as a result type under `ToolResults` and `Registry['results']`,
 * absent from the output of specs that do not use it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { formatGenerateProblem } from '../../generator/index.js';
import { removeDir, tempDir } from './helpers.js';

const dir = tempDir('returns-');
afterAll(() => removeDir(dir));

it('emits a result type per tool with returns, ToolResults and Registry.results', async () => {
  writeFileSync(
    path.join(dir, 'spec.yaml'),
    `version: 1
tools:
  - name: read_text
    description: Read a text file
    parameters: { path: { type: string } }
    returns:
      type: object
      properties:
        content: { type: string, description: The text }
        lines: { type: integer }
      required: [content]
  - name: stat
    description: File facts
    returns: { size: { type: integer } }
  - name: ping
    description: Ping
`,
  );
  const r = await generate('spec.yaml', { out: 'out', cwd: dir });
  expect(r.problems).toEqual([]);
  const types = readFileSync(path.join(dir, 'out/types.gen.ts'), 'utf8');
  expect(types).toContain('export interface ReadTextResult {');
  expect(types).toMatch(/export interface ReadTextResult \{[\s\S]*?content: string[\s\S]*?lines\?: number[\s\S]*?\}/);
  // The shorthand means what it means for parameters: a properties map, every field optional.
  expect(types).toMatch(/export interface StatResult \{[\s\S]*?size\?: number[\s\S]*?\}/);
  expect(types).toMatch(/export type ToolResults = \{[\s\S]*readonly read_text: ReadTextResult;[\s\S]*readonly stat: StatResult;\n\};/);
  expect(types).not.toMatch(/readonly ping: \w+Result/);
  expect(types).toContain('  readonly results: ToolResults;\n}');
  // Never sent to a provider.
  expect(readFileSync(path.join(dir, 'out/spec.gen.ts'), 'utf8')).not.toContain('"lines"');
});

it('checks returns like parameters, with the problem under returns', async () => {
  writeFileSync(
    path.join(dir, 'bad.yaml'),
    `version: 1
tools:
  - name: a
    description: A
    returns: { type: string }
  - name: b
    description: B
    returns: { type: object, properties: {}, required: [n] }
  - name: c
    description: C
    returns: [1]
`,
  );
  const r = await generate('bad.yaml', { out: 'bad-out', cwd: dir });
  const text = r.problems.map(formatGenerateProblem).join('\n');
  expect(text).toContain('[parameters_not_object] tools[0].returns.type: returns must be a JSON Schema of type "object", but its type is "string".');
  expect(text).toContain('hint: A result schema is an object schema');
  expect(text).toMatch(/\[required_not_in_properties\] tools\[1\]\.returns/);
  expect(text).toMatch(/\[wrong_type\] tools\[2\]\.returns/);
  expect(r.problems).toHaveLength(3);
});
