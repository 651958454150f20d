/**
 * The per-target payloads are rendered lazily from the neutral definitions a
 * generated folder ships (runtime/rendered.ts). These are the bytes the
 * generator shipped eagerly before: each fixture's `rendered.snapshot.json`
 * was recorded from the eagerly rendered `spec.rendered` of that fixture's
 * generated output, and every form must still serialize to exactly it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RENDER_FORMS, type GeneratedSpec } from '../../runtime/contract.js';

const FIXTURES = ['example', 'escaping', 'flat-only', 'schema-encoding'];
const root = path.resolve(import.meta.dirname, '..', 'fixtures');

describe('lazily rendered target forms', () => {
  for (const name of FIXTURES) {
    it(`${name}: every form has the recorded bytes, is frozen, and is rendered once`, async () => {
      const { spec } = (await import(pathToFileURL(path.join(root, name, 'expected', 'index.ts')).href)) as { spec: GeneratedSpec };
      const recorded = JSON.parse(readFileSync(path.join(root, name, 'rendered.snapshot.json'), 'utf8')) as Record<string, unknown>;
      expect(Object.keys(spec.rendered)).toEqual([...RENDER_FORMS]);
      for (const form of RENDER_FORMS) {
        const first = spec.rendered[form];
        expect(JSON.stringify(first), `${name} ${form}`).toBe(JSON.stringify(recorded[form]));
        // Rendered once, then the same frozen arrays on every read.
        expect(spec.rendered[form]).toBe(first);
        expect(Object.isFrozen(first)).toBe(true);
        expect(Object.isFrozen(first.tools)).toBe(true);
        for (const t of first.tools) expect(Object.isFrozen(t)).toBe(true);
      }
      expect(Object.isFrozen(spec.rendered)).toBe(true);
      expect(() => {
        (spec.rendered as unknown as Record<string, unknown>)['anthropic'] = null;
      }).toThrow();
    });
  }
});
