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

/** The text a compact envelope of one action starts with, up to its arguments, and the action's tool. */
type CompactPrefix = { readonly prefix: string; readonly tool: number; readonly last: number };

/** A rejected call, before the public shape is built. */
export type Rejected = { readonly ok: false; readonly code: RejectionCode; readonly reason: string; readonly callId: string | undefined };

/**
 * Whether `dispatch` takes the short path, how many calls it has decided,
 * and how many namespace calls it read in the compact envelope form (small
 * integer stores, no write barrier). Always on; tests switch it off to hold
 * the short path to the full one, and read the counts to know it ran.
 */
export const DISPATCH_FAST_PATH: { enabled: boolean; taken: number; compact: number } = { enabled: true, taken: 0, compact: 0 };

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
 * if (args !== undefined && args !== FAST_REJECTED) catalog.tool(short.index).handler(args, ctx);
 */
export class ShortPath {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  readonly #limits: CallLimits;
  /** The tool the short path last accepted. A small integer: no write barrier, unlike the objects an `Accepted` carries. */
  index = 0;
  /** The short path's last rejection. */
  rejected: Rejected | undefined;
  /** Per namespace: its compact envelope prefixes by action name length (`#compactAction`); unset until its first call. */
  readonly #prefixes: ((readonly CompactPrefix[] | undefined)[] | undefined)[] = [];
  /** The tool of the prefix `#compactAction` last matched (a small integer, read at once). */
  #compactTool = 0;

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
    const entry = this.#catalog.tool(t);
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
      const r = invalidRejection(entry, validate, args, '', entry.flat ? 'flat' : entry.library ? 'library' : 'toolkit', gate.directGroup(t), callId, false);
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
    // action string, no key check. The text up to ARGS must be one of the namespace's compact prefixes
    // (`#compactAction`); anything else takes the general read below.
    const close = raw.length - 1;
    const at = raw.charCodeAt(close) === 0x7d ? this.#compactAction(k, raw) : -1;
    if (at >= 0) {
      // Wraps below 2^30, as `taken` does.
      DISPATCH_FAST_PATH.compact = (DISPATCH_FAST_PATH.compact + 1) & 0x3fffffff;
      t = this.#compactTool;
      try {
        args = JSON.parse(raw.slice(at, close));
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
    const entry = this.#catalog.tool(t);
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
   * Where ARGS starts when `raw` begins with a compact prefix of namespace
   * `k` (`{"action":"NAME","args":` for one of its actions; the tool is left
   * in `#compactTool`), or -1. The prefixes are looked up by the length of
   * NAME, the text up to the first quote after `{"action":"`, and compared
   * by `indexOf(prefix) === 0` (V8's string search; `startsWith` is inlined
   * by TurboFan into a per-character loop about four times as long). With
   * several names of one length, NAME's last character picks the candidates
   * first, so a miss rarely costs a search. A prefix is made for an action
   * name that needs no escape in a JSON string (no `\`, no character below
   * U+0020), so a match means the parsed name is exactly that action's; any
   * other name is found by the general read.
   */
  #compactAction(k: number, raw: string): number {
    const table = this.#prefixes[k] ?? this.#prefixTable(k);
    const quote = raw.indexOf('"', ACTION_HEAD.length);
    const list = quote > ACTION_HEAD.length ? table[quote - ACTION_HEAD.length] : undefined;
    if (list === undefined) return -1;
    const last = list.length > 1 ? raw.charCodeAt(quote - 1) : -1;
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      if ((last < 0 || p.last === last) && raw.indexOf(p.prefix) === 0) {
        this.#compactTool = p.tool;
        return p.prefix.length;
      }
    }
    return -1;
  }

  /** Namespace `k`'s compact prefixes by action name length (its actions never change once it exists). */
  #prefixTable(k: number): (readonly CompactPrefix[] | undefined)[] {
    const ns = this.#catalog.namespaces[k]!;
    const table: CompactPrefix[][] = [];
    for (const action of ns.actionList) {
      if (action === '' || /[\\\u0000-\u001f]/.test(action)) continue;
      (table[action.length] ??= []).push({ prefix: `${ACTION_HEAD}${action}${ARGS_KEY}`, tool: ns.actions.get(action)!, last: action.charCodeAt(action.length - 1) });
    }
    this.#prefixes[k] = table;
    return table;
  }

  #reject(r: Rejected): Record<string, unknown> {
    this.rejected = r;
    return FAST_REJECTED;
  }
}
