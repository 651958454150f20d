/**
 * The namespace action index (runtime/router/lookup.ts, each group's
 * `actions`) answers exactly as a `Map` of the same entries: for names of
 * equal length, missing names, prefixes, `Object.prototype` names, a name
 * given twice (the last entry wins) and strings made at run time (as
 * `JSON.parse` makes them).
 */
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { ActionIndex } from '../../runtime/router/lookup.js';

test('ActionIndex.get equals Map.prototype.get on the same actions', () => {
  const nameArb = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'b', '_', 'é', '😀'), maxLength: 6 }), fc.constantFrom('constructor', '__proto__', 'length', 'toString', ''));
  fc.assert(
    fc.property(fc.array(nameArb, { maxLength: 20 }), fc.array(nameArb, { maxLength: 20 }), (names, probes) => {
      const entries = names.map((n, i): [string, number] => [n, i * 3]);
      const actions = new Map(entries);
      const index = new ActionIndex(entries);
      for (const probe of [...names, ...probes]) {
        // A fresh string with the same characters, as JSON.parse returns it.
        const fresh = JSON.parse(JSON.stringify(probe)) as string;
        expect(index.get(fresh)).toBe(actions.get(probe));
      }
    }),
    { numRuns: 1000 },
  );
});
