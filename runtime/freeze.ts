/**
 * `deepFreeze`, the one freezer every runtime module uses for data it shares (generated spec data, rendered tool
 * definitions, library tool forms, compile payload parts): whoever holds a reference can read it, nobody can change it
 * for the next caller.
 */

/**
 * Freezes a JSON value and everything in it, and returns it. An object that is already frozen is taken as frozen all
 * the way down and not entered, so shared subtrees are frozen once and a second call costs one check. Pre-order (the
 * object is frozen before its members are visited), so even a cyclic value terminates. Indexed loops: this runs at
 * import time, in the interpreter, over every value of the generated data, where a `for … of` would allocate an
 * iterator result per element. Arrays are walked by index (JSON arrays carry no other properties), objects by
 * `Object.keys`.
 *
 * @example
 * const tools = deepFreeze([{ name: 'read_file', parameters: { type: 'object' } }]);
 * Object.isFrozen(tools[0].parameters); // → true
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null) deepFreeze(item);
    }
  } else {
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const item = (value as Record<string, unknown>)[keys[i]!];
      if (typeof item === 'object' && item !== null) deepFreeze(item);
    }
  }
  return value;
}
