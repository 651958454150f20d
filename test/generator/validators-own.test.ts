/**
 * Which argument schemas get ajv's own-property checks: exactly those that
 * read a property by a name Object.prototype also has (elsewhere a plain
 * lookup on parsed JSON can only find an own property, and is much cheaper).
 * The behaviour of such validators is exercised in escaping.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { needsOwnProperties } from '../../generator/emit/validators.js';

describe('needsOwnProperties', () => {
  it('is true for a prototype name read by properties, required, dependencies or dependentRequired, at any depth', () => {
    expect(needsOwnProperties({ type: 'object', properties: { toString: { type: 'string' } } })).toBe(true);
    expect(needsOwnProperties({ type: 'object', required: ['constructor'] })).toBe(true);
    expect(needsOwnProperties({ type: 'object', properties: { a: { type: 'object', properties: { __proto__x: {}, valueOf: {} } } } })).toBe(true);
    expect(needsOwnProperties({ type: 'object', properties: { list: { type: 'array', items: { type: 'object', required: ['hasOwnProperty'] } } } })).toBe(true);
    expect(needsOwnProperties({ type: 'object', anyOf: [{ required: ['a'] }, { required: ['isPrototypeOf'] }] })).toBe(true);
    expect(needsOwnProperties({ type: 'object', dependencies: { a: ['toLocaleString'] } })).toBe(true);
    expect(needsOwnProperties({ type: 'object', dependentRequired: { propertyIsEnumerable: ['a'] } })).toBe(true);
    expect(needsOwnProperties(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'))).toBe(true);
  });

  it('is false when prototype names appear only as data (enum values, descriptions, defaults) or not at all', () => {
    expect(needsOwnProperties({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] })).toBe(false);
    expect(needsOwnProperties({ type: 'object', properties: { mode: { type: 'string', enum: ['toString', 'constructor'], default: 'valueOf', description: 'toString' } } })).toBe(false);
    expect(needsOwnProperties({ type: 'object', properties: { prototype: { type: 'string' }, toStringX: {} } })).toBe(false);
    expect(needsOwnProperties({ type: 'object', patternProperties: { '^toString$': { type: 'string' } } })).toBe(false);
  });
});
