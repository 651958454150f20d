/**
 * Object.prototype's own property names, for the generator modules that must
 * treat such a property specially: the validators (emit/validators.ts: ajv's
 * `ownProperties`, defaults left out) and the default rules
 * (emit/defaults.ts, and through it the `default_not_applied` warning in
 * validate/defaults.ts). A module of its own, so the rules and the
 * validation step read the list without loading ajv and its standalone
 * code generator.
 */

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
