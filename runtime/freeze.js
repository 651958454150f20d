/**
 * Freezes a JSON value and everything in it, and returns it: the one freezer for shared data. An object already frozen
 * is taken as frozen all the way down, so shared subtrees are frozen once. Pre-order, so a cyclic value terminates;
 * indexed loops, as this runs at import time over all generated data.
 * @example
 * const tools = deepFreeze([{ name: 'read_file', parameters: { type: 'object' } }]);
 * Object.isFrozen(tools[0].parameters); // → true
 */
export function deepFreeze(value) {
    if (typeof value !== 'object' || value === null || Object.isFrozen(value))
        return value;
    Object.freeze(value);
    if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
            const item = value[i];
            if (typeof item === 'object' && item !== null)
                deepFreeze(item);
        }
    }
    else {
        const keys = Object.keys(value);
        for (let i = 0; i < keys.length; i++) {
            const item = value[keys[i]];
            if (typeof item === 'object' && item !== null)
                deepFreeze(item);
        }
    }
    return value;
}
