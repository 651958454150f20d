/**
 * Fixture specs → committed snapshot folders (`test/fixtures/<name>/expected/`).
 * The snapshots are type-checked by `npx tsc -p .` (tsconfig includes test/),
 * and imported and exercised here. `UPDATE_SNAPSHOTS=1 npx vitest run
 * test/generator/fixtures.test.ts` rewrites them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { RENDER_FORMS, type GeneratedModule } from '../../runtime/contract.js';
import { FIXTURES, REPO } from './helpers.js';

const update = process.env['UPDATE_SNAPSHOTS'] === '1';

describe.each(FIXTURES)('fixture %s', (name) => {
  const spec = `test/fixtures/${name}/spec.yaml`;
  const expectedDir = path.join(REPO, 'test/fixtures', name, 'expected');

  it('generates exactly the committed snapshot', async () => {
    const result = await generate(spec, { out: `test/fixtures/${name}/expected`, cwd: REPO, check: !update });
    expect(result.problems).toEqual([]);
    expect(result.files.length).toBeGreaterThan(0);
    // File by file first, so a failure shows a readable diff.
    for (const file of result.files) {
      const committed = path.join(expectedDir, file.path);
      expect(existsSync(committed), `${file.path} is missing from the snapshot`).toBe(true);
      expect(file.content, `${name}/expected/${file.path}`).toBe(readFileSync(committed, 'utf8'));
    }
    expect(readdirSync(expectedDir).sort()).toEqual(result.files.map((f) => f.path).sort());
    if (!update) expect(result.stale).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('imports, and its data agrees with itself', async () => {
    const gen = (await import(pathToFileURL(path.join(expectedDir, 'index.ts')).href)) as GeneratedModule & {
      TOOL_NAMES: readonly string[];
      directoryXml: string;
      manifest: { hash: string; generator: string };
    };
    const { spec: data } = gen;
    expect(data.formatVersion).toBe(1);
    expect(gen.manifest.generator).toBe('toolroute');
    expect(gen.manifest.hash).toBe(data.hash);
    expect(data.tools.map((t) => t.name)).toEqual(gen.TOOL_NAMES);
    expect(data.directoryXml).toBe(gen.directoryXml);
    // Every tool points at a validator; identical schemas share one, distinct schemas never do.
    for (const tool of data.tools) expect(typeof data.validators[tool.validator]).toBe('function');
    expect(new Set(data.tools.map((t) => t.validator)).size).toBe(data.validators.length);
    for (const form of RENDER_FORMS) {
      expect(data.rendered[form].tools).toHaveLength(data.tools.length);
      expect(data.rendered[form].namespaces).toHaveLength(data.namespaces.length);
      expect(data.rendered[form].loader === null).toBe(data.toolkits.length === 0);
    }
    expect(Object.isFrozen(data)).toBe(true);
    expect(Object.isFrozen(data.tools[0])).toBe(true);
    expect(Object.isFrozen(data.rendered.neutral.tools)).toBe(true);
    expect(Object.isFrozen(data.validators)).toBe(true);
  });

  it('writes only ASCII into the files an application loads, when the spec is ASCII', () => {
    // One character above U+00FF makes V8 hold a whole module's source two bytes per character: at 10,000 tools,
    // megabytes more heap and a slower start. The types file is erased by the compiler, so its box drawing is free.
    const specText = readFileSync(path.join(REPO, spec), 'utf8');
    if (/[^\x00-\x7f]/.test(specText)) return;
    for (const file of readdirSync(expectedDir).filter((f) => f !== 'types.gen.ts')) {
      const at = readFileSync(path.join(expectedDir, file), 'utf8').search(/[^\x00-\x7f]/);
      expect(at, `${name}/expected/${file} has a character outside ASCII at offset ${at}`).toBe(-1);
    }
  });
});
