/** Object.prototype's own property names, in a module of its own so the rules read them without loading ajv. */

/**
 * Names Object.prototype carries (own names, fixed here so the output never
 * depends on the Node version that ran the generator). A property with one of
 * these names would be "present" through the prototype when the model leaves
 * it out, so schemas naming one are compiled with ajv's `ownProperties`.
 */
export const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'constructor',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
]);
