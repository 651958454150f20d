/**
 * runtime/freeze.ts `deepFreeze`, the one freezer the runtime uses for data it
 * shares (generated spec data, rendered definitions, library tool forms,
 * compile payload parts).
 */
import { describe, expect, test } from 'vitest';
import { deepFreeze } from '../../runtime/freeze.js';

describe('deepFreeze', () => {
  test('freezes every object and array of a JSON value and returns the value itself', () => {
    const value = { name: 'read_file', parameters: { type: 'object', required: ['path'], properties: { path: { type: 'string' } } }, list: [{ a: [1, { b: 2 }] }] };
    expect(deepFreeze(value)).toBe(value);
    for (const part of [value, value.parameters, value.parameters.required, value.parameters.properties, value.parameters.properties.path, value.list, value.list[0]!, value.list[0]!.a, value.list[0]!.a[1]]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
    expect(() => {
      'use strict';
      (value.parameters.properties.path as { type: string }).type = 'number';
    }).toThrow(TypeError);
  });

  test('primitives and null pass through unchanged', () => {
    expect(deepFreeze(1)).toBe(1);
    expect(deepFreeze('x')).toBe('x');
    expect(deepFreeze(null)).toBe(null);
    expect(deepFreeze(undefined)).toBe(undefined);
  });

  test('an already frozen object is not entered: its members stay as they are', () => {
    const inner = { open: true };
    const outer = Object.freeze({ inner });
    deepFreeze({ outer });
    expect(Object.isFrozen(inner)).toBe(false);
  });

  test('shared subtrees are frozen once and a cyclic value terminates', () => {
    const shared = { type: 'string' };
    const value = { a: shared, b: [shared, shared] };
    deepFreeze(value);
    expect(Object.isFrozen(shared)).toBe(true);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    cyclic['list'] = [cyclic];
    expect(deepFreeze(cyclic)).toBe(cyclic);
    expect(Object.isFrozen(cyclic['list'])).toBe(true);
  });
});
