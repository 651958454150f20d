/**
 * Dispatch's short path: the common valid call in as few steps as the
 * contract allows, and the pieces of a rejection it shares with the full
 * path (resolve.ts). A call takes it when it names a flat tool (or a loaded
 * toolkit or library tool) with arguments text, or a namespace with
 * `{ "action": …, "args": {…} }` text and no other key; the tool needs no
 * key or null decoding; nothing is blocked; the text starts with `{` and is
 * within the length and value limits. Everything else, and anything unusual
 * found before the validator ran, returns `undefined`, and the full path
 * decides with the fields already read (pure work done twice at most: the
 * parse). Once a validator has run, the short path decides itself, with the
 * full path's rejection (`invalidRejection`, the limits walk first), so no
 * validator runs twice on one call.
 *
 * What the short path leaves out is what such a call does not need: the
 * call-shape object and its reader, the name-only and kind branches, the
 * decode and copy checks, the argument parser's wrapper, the envelope's
 * `for…in` (`Object.keys` reads the map's enum cache instead) and the
 * `Accepted` object (the tool index is a small-integer field, read at once).
 * test/runtime/dispatch-short-path.test.ts holds it to the full path with
 * `DISPATCH_FAST_PATH.enabled` off, over valid, invalid, blocked and hostile
 * calls in every call shape.
 */
import type { CallVia, RejectionCode, ValidateFn } from '../contract.js';
import { deferredLimitsProblem, parsedLimitsProblem, parsedPartWithinLimits, type CallLimits } from '../call-shape.js';
import { invalidReason, malformedReason, quote } from '../reasons.js';
import { TOOLKIT_DISPATCHER_NAME } from '../toolkit-loading.js';
import { readableErrors } from './library.js';
import type { Catalog, ToolEntry } from './catalog.js';
import type { Gate } from './gate.js';

/** How a compact namespace envelope starts, up to its action name. */
const ACTION_HEAD = '{"action":"';
/** What follows the action name's closing quote in a compact envelope, up to the arguments. */
const ARGS_KEY = '","args":';

/** A rejected call, before the public shape is built. */
export type Rejected = { readonly ok: false; readonly code: RejectionCode; readonly reason: string; readonly callId: string | undefined };

/**
 * Whether `dispatch` takes the short path, and how many calls it has decided
 * (a small-integer store, no write barrier). Always on; tests switch it off
 * to hold the short path to the full one, and read `taken` to know it ran.
 */
export const DISPATCH_FAST_PATH: { enabled: boolean; taken: number } = { enabled: true, taken: 0 };

/** What the short path returns for a call it rejected (`ShortPath.rejected` says why); no parsed value is this object. */
export const FAST_REJECTED: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** A rejection. */
export function reject(code: RejectionCode, reason: string, callId: string | undefined): Rejected {
  return { ok: false, code, reason, callId };
}

/** Whether `validate` accepts `args`; a validator that throws refuses them (model input never makes dispatch throw). */
export function passes(validate: ValidateFn, args: Record<string, unknown>): boolean {
  try {
    return validate(args) === true;
  } catch {
    return false;
  }
}

/**
 * The rejection of `args` that `entry`'s validator has just refused (its
 * `errors` are this call's). The reason's label and retry name are built
 * only here: a valid call pays for no string work.
 */
export function invalidRejection(
  entry: ToolEntry,
  validate: ValidateFn,
  args: Record<string, unknown>,
  prefix: string,
  via: CallVia | 'library',
  group: string | null,
  callId: string | undefined,
  dispatched: boolean,
): Rejected {
  // Through the dispatcher tool, the model retries the dispatcher, as it would a namespace.
  const namespace = via === 'namespace' ? group! : dispatched ? TOOLKIT_DISPATCHER_NAME : undefined;
  const label = namespace === undefined ? quote(entry.name) : `${quote(namespace)} ${dispatched ? 'tool' : 'action'} ${quote(entry.name)}`;
  // A validator the application wrote may report malformed errors: only readable ones reach the reason.
  const errors = entry.specIndex < 0 ? readableErrors(validate) : validate.errors;
  return reject('invalid_arguments', invalidReason(label, errors, entry.schema, args, prefix, namespace ?? entry.name), callId);
}

/** A rejection of a call whose limits walk was left out: the walk (on a fresh parse) runs now, and its failure wins, as when it ran first. */
export function limitsFirst<R extends { readonly callId: string | undefined }>(r: R, raw: string, label: string, limits: CallLimits, callId = r.callId): R | Rejected {
  const failure = deferredLimitsProblem(raw, limits);
  return failure === undefined ? r : reject(failure.code, malformedReason(quote(label), failure.problem), callId);
}

/**
 * Whether `entry`'s schema keeps every value its validator accepts within
 * `maxDepth` (`extra` levels below the text's root) with finite numbers
 * (arg-bound.ts): then the limits walk cannot fail for an accepted call.
 */
export function covers(entry: ToolEntry, extra: number, limits: CallLimits): boolean {
  const depth = entry.argsDepth;
  return depth > 0 && depth + extra <= limits.maxDepth;
}

/**
 * The short path for one router. Internal. `tool` and `action` answer with
 * the accepted arguments (`index` is then the tool's), `FAST_REJECTED`
 * (`rejected` is then the rejection), or `undefined`: take the full path.
 * Both fields are read by the caller at once (no user code runs in between).
 *
 * @example
 * const short = new ShortPath(catalog, gate, limits);
 * const args = short.tool(t, 'read_file', '{"path":"a"}', 'call_1');
 * if (args !== undefined && args !== FAST_REJECTED) catalog.tools[short.index].handler(args, ctx);
 */
export class ShortPath {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  readonly #limits: CallLimits;
  /** The tool the short path last accepted. A small integer: no write barrier, unlike the objects an `Accepted` carries. */
  index = 0;
  /** The short path's last rejection. */
  rejected: Rejected | undefined;
  /** Per namespace: whether its action names need no JSON escape (`#plainNames`); unset until its first call. */
  readonly #plain: boolean[] = [];

  constructor(catalog: Catalog, gate: Gate, limits: CallLimits) {
    this.#catalog = catalog;
    this.#gate = gate;
    this.#limits = limits;
  }

  /**
   * Whether `raw` may be parsed here: text of an object (first character
   * `{`, so a successful parse is a plain object) within the length limit
   * and within `maxNodes` characters (so the parse holds at most `maxNodes`
   * values, see call-shape.ts).
   */
  #text(raw: string): boolean {
    const limits = this.#limits;
    return raw.length <= limits.maxArgumentsLength && raw.length <= limits.maxNodes && raw.charCodeAt(0) === 0x7b;
  }

  /** A flat (or loaded toolkit, or library) tool `t` called by `name` with arguments text `raw`. */
  tool(t: number, name: string, raw: string, callId: string | undefined): Record<string, unknown> | undefined {
    const gate = this.#gate;
    const entry = this.#catalog.tools[t]!;
    if (gate.toolBlocked[t] || !gate.direct[t] || entry.keyDecode !== undefined || entry.nullDecode !== undefined || !this.#text(raw)) return undefined;
    let args: Record<string, unknown>;
    try {
      args = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    const limits = this.#limits;
    // The schema bounds depth and numbers (then a valid call needs no walk, and a rejected one walks below), or the cheap walk must pass.
    const covered = covers(entry, 0, limits);
    if (!covered && parsedLimitsProblem(raw, args, limits) !== undefined) return undefined;
    const validate = entry.validate;
    if (validate !== undefined && !passes(validate, args)) {
      const r = invalidRejection(entry, validate, args, '', entry.flat ? 'flat' : entry.library ? 'library' : 'toolkit', gate.directGroup[t]!, callId, false);
      return this.#reject(covered ? limitsFirst(r, raw, name, limits) : r);
    }
    this.index = t;
    return args;
  }

  /** Namespace `k` called by `name` with `{ "action": …, "args": {…} }` text `raw` and no other key. */
  action(k: number, name: string, raw: string, callId: string | undefined): Record<string, unknown> | undefined {
    const gate = this.#gate;
    if (gate.nsBlocked[k] || !this.#text(raw)) return undefined;
    const ns = this.#catalog.namespaces[k]!;
    let t: number | undefined;
    let args: unknown;
    // The compact envelope, as `JSON.stringify({ action, args })` writes it: `{"action":"NAME","args":ARGS}`.
    // Such text is an object of exactly these two keys if and only if ARGS alone is JSON text (another key
    // after it, or a truncated value, makes ARGS invalid), so only ARGS is parsed: no envelope object, no
    // action string, no key check. NAME is the text between the quotes as it stands, which is the parsed
    // string unless it holds a `\` escape or a control character: a namespace whose action names hold
    // neither (`#plainNames`) cannot match such a NAME, and any other namespace takes the general read.
    const quote = raw.startsWith(ACTION_HEAD) ? raw.indexOf('"', ACTION_HEAD.length) : -1;
    const close = raw.length - 1;
    if (quote > 0 && raw.startsWith(ARGS_KEY, quote) && raw.charCodeAt(close) === 0x7d && this.#plainNames(k)) {
      t = ns.actions.get(raw.slice(ACTION_HEAD.length, quote));
      if (t === undefined) return undefined;
      try {
        args = JSON.parse(raw.slice(quote + ARGS_KEY.length, close));
      } catch {
        return undefined;
      }
    } else {
      let envelope: Record<string, unknown>;
      try {
        envelope = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return undefined;
      }
      // Exactly the keys `action` and `args`, own (a parse makes only own data keys), in either order:
      // `Object.keys` reads the map's enum cache, where `for…in` and `Object.hasOwn` also walked the prototype.
      const keys = Object.keys(envelope);
      if (keys.length !== 2) return undefined;
      const first = keys[0];
      if (first === 'action' ? keys[1] !== 'args' : first !== 'args' || keys[1] !== 'action') return undefined;
      const action = envelope['action'];
      if (typeof action !== 'string') return undefined;
      t = ns.actions.get(action);
      args = envelope['args'];
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
    if (t === undefined || gate.toolBlocked[t]) return undefined;
    const entry = this.#catalog.tools[t]!;
    if (entry.keyDecode !== undefined || entry.nullDecode !== undefined) return undefined;
    const limits = this.#limits;
    // The envelope nests the arguments one level below its root; where the cheap walk is unsure, the full path decides.
    if (!covers(entry, 1, limits) && !parsedPartWithinLimits(raw, args, 2, limits)) return undefined;
    const validate = entry.validate;
    const record = args as Record<string, unknown>;
    if (validate !== undefined && !passes(validate, record)) {
      return this.#reject(limitsFirst(invalidRejection(entry, validate, record, '/args', 'namespace', ns.name, callId, false), raw, name, limits));
    }
    this.index = t;
    return record;
  }

  /**
   * Whether no action name of namespace `k` holds a `\` or a character below
   * U+0020 (what a JSON string must escape): then a compact envelope's NAME,
   * read between its quotes, matches an action exactly when the parsed
   * string would. Worked out on the namespace's first call (its actions
   * never change once it exists).
   */
  #plainNames(k: number): boolean {
    const known = this.#plain[k];
    if (known !== undefined) return known;
    const plain = this.#catalog.namespaces[k]!.actionList.every((action) => !/[\\\u0000-\u001f]/.test(action));
    this.#plain[k] = plain;
    return plain;
  }

  #reject(r: Rejected): Record<string, unknown> {
    this.rejected = r;
    return FAST_REJECTED;
  }
}
