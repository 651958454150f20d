/**
 * The namespace action index (runtime/router/lookup.ts) answers exactly as
 * the group's `actions` Map it replaces on the dispatch hot path: for names
 * of equal length, missing names, prefixes, `Object.prototype` names and
 * strings made at run time (as `JSON.parse` makes them).
 */
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { ActionIndex } from '../../runtime/router/lookup.js';

test('ActionIndex.get equals Map.prototype.get on the same actions', () => {
  const nameArb = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'b', '_', 'é', '😀'), maxLength: 6 }), fc.constantFrom('constructor', '__proto__', 'length', 'toString', ''));
  fc.assert(
    fc.property(fc.uniqueArray(nameArb, { maxLength: 20 }), fc.array(nameArb, { maxLength: 20 }), (names, probes) => {
      const actions = new Map(names.map((n, i) => [n, i * 3]));
      const index = new ActionIndex(actions);
      for (const probe of [...names, ...probes]) {
        // A fresh string with the same characters, as JSON.parse returns it.
        const fresh = JSON.parse(JSON.stringify(probe)) as string;
        expect(index.get(fresh)).toBe(actions.get(probe));
      }
    }),
    { numRuns: 1000 },
  );
});
