/**
 * Call resolution: from whatever the model sent to a tool and its validated arguments, a toolkit to load, or a
 * rejection with a code and a reason the model can act on. The one place that decides whether a call is valid: a new
 * call rule goes here, its wording in reasons.ts. Model input never throws here.
 */
import { LOAD_TOOLKIT_NAME, type CallVia, type RejectionCode, type ValidateFn } from '../contract.js';
import { applyKeyDecode } from '../targets/property-keys.js';
import { cloneJson } from '../targets/schema.js';
import { applyNullDecode } from '../targets/strict.js';
import { callLimits, isPlainObject, jsonKind, parseArguments, readCall, type CallLimits } from '../call-shape.js';
import {
  actionHint, blockedReason, emptyNameReason, envelopeArgsReason, invalidReason, loaderStrayReason, malformedReason,
  notLoadedReason, toolkitCalledReason, notNamespaceReason, notToolkitToolReason, quote, strayKeysReason, toolkitBlockedReason, unknownActionReason,
  unknownToolkitReason, unknownToolReason,
} from '../reasons.js';
import { Suggester } from '../suggest.js';
import { TOOLKIT_DISPATCHER_NAME } from '../toolkit-loading.js';
import type { Catalog, Group, ToolEntry } from './catalog.js';
import type { Gate } from './gate.js';
import { readableErrors } from './library.js';
import { Suggestions } from './lookup.js';
import type { CallableKind, TryNamespaceResolution } from './types.js';

/** A rejected call. */
export type Rejected = { readonly ok: false; readonly code: RejectionCode; readonly reason: string; readonly callId: string | undefined };
/** A call to tool `tool` that passed every check. */
export type ToolCall = {
  readonly ok: true; readonly kind: 'call'; readonly tool: number; readonly args: Record<string, unknown>;
  readonly via: CallVia | 'library'; readonly group: string | null; readonly callId: string | undefined;
};
/** An accepted `load_toolkit` call of toolkit `toolkit`. */
export type LoadCall = { readonly ok: true; readonly kind: 'load'; readonly toolkit: number; readonly callId: string | undefined };
/** A name-only check that passed (`checkToolCall({ name })`): no arguments were checked. */
export type NameCheck = { readonly ok: true; readonly kind: 'name'; readonly name: string; readonly callable: CallableKind; readonly callId: string | undefined };
/** What resolving a call gives. */
export type Resolved = ToolCall | LoadCall | NameCheck | Rejected;
/** `ResolvedCall` with the registry's types erased; the façade restores them. */
export type PublicCall = { readonly tool: string; readonly args: Readonly<Record<string, unknown>>; readonly via: CallVia | 'library'; readonly group: string | null };

const reject = (code: RejectionCode, reason: string, callId: string | undefined): Rejected => ({ ok: false, code, reason, callId });

/** Whether `validate` accepts `args`; a validator that throws refuses them (model input never makes dispatch throw). */
function passes(validate: ValidateFn, args: Record<string, unknown>): boolean {
  try { return validate(args) === true; } catch { return false; }
}

/**
 * Resolves calls for one router. Internal.
 * @example
 * const resolver = new Resolver(catalog, gate, { maxDepth: 32 });
 * const r = resolver.resolve({ name: 'read_file', arguments: '{"path":"a"}' }, true);
 * if (r.ok && r.kind === 'call') catalog.tool(r.tool).name; // → 'read_file'
 */
export class Resolver {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  readonly #limits: CallLimits;
  readonly #suggestions: Suggestions;

  /** `limits`: the router's options (`callLimits` checks them). */
  constructor(catalog: Catalog, gate: Gate, limits: Partial<CallLimits>) {
    this.#catalog = catalog;
    this.#gate = gate;
    this.#suggestions = new Suggestions(catalog, gate);
    this.#limits = callLimits(limits);
  }

  /**
   * Resolve a call. `fullCheck` checks the arguments even when the call carries none (dispatch); otherwise a call with
   * only a name gets the name-level gate and a `NameCheck`.
   */
  resolve(call: unknown, fullCheck: true): Exclude<Resolved, NameCheck>;
  resolve(call: unknown, fullCheck: boolean): Resolved;
  resolve(call: unknown, fullCheck: boolean): Resolved {
    const { name, callId, namespace, hasArguments, rawArguments: raw } = readCall(call);
    const catalog = this.#catalog;
    const gate = this.#gate;
    const nameOnly = !fullCheck && !hasArguments;
    if (namespace !== undefined) {
      // OpenAI Responses native namespace: `name` is the member (a namespace's action, a toolkit's tool), the arguments its own.
      const ref = catalog.byName.get(namespace);
      const kit = ref === undefined ? catalog.findToolkit(namespace) : undefined;
      // A toolkit's member is then exactly the call of that tool by its own name.
      const member = kit === undefined ? undefined : this.#action(catalog.toolkits[kit]!, name, callId);
      if (member !== undefined) return typeof member === 'number' ? this.#tool(member, raw, nameOnly, callId) : member;
      if (ref !== undefined && ref.kind !== 'namespace') return reject('unknown_tool', notNamespaceReason(namespace), callId);
      if (ref === undefined) return this.#unknownName(namespace, callId);
      if (gate.nsBlocked[ref.index]) return reject('blocked', blockedReason(namespace), callId);
      const t = this.#action(catalog.namespaces[ref.index]!, name, callId);
      if (typeof t !== 'number') return t;
      if (nameOnly) return nameCheck(namespace, 'namespace', callId);
      const parsed = parseArguments(raw, this.#limits);
      if (!parsed.ok) return reject(parsed.code, malformedReason(`${quote(namespace)} action ${quote(name!)}`, parsed.problem), callId);
      return this.#validate(t, parsed.value, '', 'namespace', namespace, callId, false, typeof raw === 'string');
    }
    if (name === undefined || name === '') return reject('empty_name', emptyNameReason(this.#suggestions.callable().names), callId);
    const ref = catalog.byName.get(name);
    if (ref === undefined && name === TOOLKIT_DISPATCHER_NAME && catalog.toolkits.length > 0) {
      if (gate.isListed(name)) return reject('blocked', blockedReason(name), callId);
      return nameOnly ? nameCheck(name, 'library', callId) : this.#dispatched(raw, callId);
    }
    if (ref?.kind === 'loader') {
      if (catalog.toolkits.length === 0) return this.#unknownName(name, callId); // no toolkits: a tool never offered
      if (gate.loaderBlocked()) return reject('blocked', blockedReason(name), callId);
      return nameOnly ? nameCheck(name, 'library', callId) : this.#loader(raw, callId);
    }
    if (ref?.kind === 'tool') return this.#tool(ref.index, raw, nameOnly, callId);
    // A namespace's `{ action, args }` call, or the same under a toolkit's name (its native namespace call as `fromProvider` reads it).
    const kit = ref === undefined ? catalog.findToolkit(name) : undefined;
    const group = ref !== undefined ? catalog.namespaces[ref.index]! : kit !== undefined ? catalog.toolkits[kit]! : undefined;
    if (group === undefined) return this.#unknownName(name, callId);
    if (ref !== undefined && gate.nsBlocked[ref.index]) return reject('blocked', blockedReason(name), callId);
    // A toolkit's native namespace call always names its tool (`action`); without one, the toolkit was called as a tool.
    if (nameOnly) return kit === undefined ? nameCheck(name, 'namespace', callId) : reject('unknown_tool', toolkitCalledReason(group.name, gate.kitLoaded[kit] === true, group.actionList), callId);
    const parsed = parseArguments(raw, this.#limits);
    if (!parsed.ok) return reject(parsed.code, malformedReason(quote(name), parsed.problem), callId);
    if (kit !== undefined && typeof parsed.value['action'] !== 'string') return reject('unknown_tool', toolkitCalledReason(group.name, gate.kitLoaded[kit] === true, group.actionList), callId);
    return this.#envelope(group, parsed.value, callId, typeof raw === 'string');
  }

  /** A call to tool `t` by its name: the gate (blocked, not loaded, not callable by name), then its arguments. */
  #tool(t: number, raw: unknown, nameOnly: boolean, callId: string | undefined): Resolved {
    const catalog = this.#catalog;
    const gate = this.#gate;
    const entry = catalog.tool(t);
    const name = entry.name;
    if (gate.toolBlocked[t]) return reject('blocked', blockedReason(name), callId);
    if (!gate.direct[t]) {
      if (entry.toolkits.length > 0) return this.#notLoaded(entry, callId);
      const ns = entry.namespaces[0];
      const hint = ns !== undefined ? actionHint(name, catalog.namespaces[ns]!.name) : undefined;
      return reject('unknown_tool', unknownToolReason(name, [], [], hint), callId);
    }
    if (nameOnly) return nameCheck(name, entry.library ? 'library' : 'tool', callId);
    const parsed = parseArguments(raw, this.#limits);
    if (!parsed.ok) return reject(parsed.code, malformedReason(quote(name), parsed.problem), callId);
    const via = entry.flat ? 'flat' : entry.library ? 'library' : 'toolkit';
    return this.#validate(t, parsed.value, '', via, gate.directGroup(t), callId, false, typeof raw === 'string');
  }

  /** The public form of an accepted call (`checkToolCall`'s `call`): a fresh object, safe to keep. */
  publicCall(r: ToolCall | LoadCall): PublicCall {
    if (r.kind === 'load') return { tool: LOAD_TOOLKIT_NAME, args: { toolkit_name: this.#catalog.toolkits[r.toolkit]!.name }, via: 'library', group: null };
    return { tool: this.#catalog.toolName(r.tool), args: r.args, via: r.via, group: r.group };
  }

  /**
   * A namespace call's parsed object (or a toolkit's, as `fromProvider` reads its native namespace call). `fresh`: parsed
   * from text just now (see `#validate`).
   */
  #envelope(group: Group, parsed: Record<string, unknown>, callId: string | undefined, fresh: boolean): Resolved {
    // An unknown or blocked action is reported first: that is what the model must fix.
    const t = this.#action(group, parsed['action'], callId);
    if (typeof t !== 'number') return t;
    // A toolkit's tool is then checked exactly as the call by its own name, on the arguments the wire call carried.
    const args = envelopeArgs(group.name, 'action', parsed, group.kind !== 'toolkit');
    if (args instanceof Refusal) return reject('malformed_arguments', args.reason, callId);
    if (group.kind === 'toolkit') return this.#tool(t, args, false, callId);
    return this.#validate(t, args as Record<string, unknown>, Object.hasOwn(parsed, 'args') ? '/args' : '', 'namespace', group.name, callId, false, fresh);
  }

  /** The tool of action `action` of a namespace (or toolkit), or the rejection: unknown action (with the closest ones) or blocked. */
  #action(group: Group, action: unknown, callId: string | undefined): number | Rejected {
    const t = typeof action === 'string' ? group.actions.get(action) : undefined;
    if (t === undefined) {
      group.suggester ??= new Suggester(group.actionList);
      const closest = typeof action === 'string' ? group.suggester.closest(action) : [];
      return reject('unknown_action', unknownActionReason(group.name, action, group.actionList, closest), callId);
    }
    if (this.#gate.toolBlocked[t]) return reject('blocked', blockedReason(action as string), callId);
    return t;
  }

  /**
   * A call through the dispatcher tool (`{ tool, args }`), checked as a namespace action is (`envelopeArgs`): a toolkit tool that passes
   * the gate and is loaded; stray keys are named in a rejection. Routed as the toolkit tool itself (`via: 'toolkit'`).
   */
  #dispatched(raw: unknown, callId: string | undefined): Resolved {
    const catalog = this.#catalog;
    const gate = this.#gate;
    const parsed = parseArguments(raw, this.#limits);
    if (!parsed.ok) return reject(parsed.code, malformedReason(quote(TOOLKIT_DISPATCHER_NAME), parsed.problem), callId);
    const tool = parsed.value['tool'];
    const ref = typeof tool === 'string' ? catalog.byName.get(tool) : undefined;
    const t = ref?.kind === 'tool' ? ref.index : -1;
    const entry = t >= 0 ? catalog.tool(t) : undefined;
    // A toolkit tool, or a flat tool registered at run time (one registered after the first turn is offered only here).
    if (entry === undefined || (entry.toolkits.length === 0 && !(t >= catalog.specCount && entry.flat && !entry.library))) {
      const names = catalog.toolkits.flatMap((kit) => kit.tools.map((i) => catalog.toolName(i)));
      const closest = typeof tool === 'string' ? new Suggester(names).closest(tool) : [];
      return reject('unknown_action', notToolkitToolReason(TOOLKIT_DISPATCHER_NAME, tool, names, closest), callId);
    }
    if (gate.toolBlocked[t]) return reject('blocked', blockedReason(entry.name), callId);
    if (!gate.direct[t]) return this.#notLoaded(entry, callId);
    const args = envelopeArgs(TOOLKIT_DISPATCHER_NAME, 'tool', parsed.value, true);
    if (args instanceof Refusal) return reject('malformed_arguments', args.reason, callId);
    return this.#validate(t, args as Record<string, unknown>, Object.hasOwn(parsed.value, 'args') ? '/args' : '', entry.flat ? 'flat' : 'toolkit', gate.directGroup(t), callId, true, typeof raw === 'string');
  }

  /** `load_toolkit`'s arguments: exactly `toolkit_name`, naming a toolkit (any case) that is not blocked. */
  #loader(raw: unknown, callId: string | undefined): Resolved {
    const parsed = parseArguments(raw, this.#limits);
    if (!parsed.ok) return reject(parsed.code, malformedReason(quote(LOAD_TOOLKIT_NAME), parsed.problem), callId);
    const requested = parsed.value['toolkit_name'];
    const stray = Object.keys(parsed.value).filter((key) => key !== 'toolkit_name');
    if (stray.length > 0) return reject('malformed_arguments', loaderStrayReason(stray), callId);
    const k = this.#catalog.findToolkit(requested);
    if (k === undefined) {
      const suggester = this.#suggestions.toolkits();
      const closest = typeof requested === 'string' ? suggester.closest(requested) : [];
      return reject('invalid_arguments', unknownToolkitReason(requested, suggester.names, closest), callId);
    }
    if (this.#gate.kitBlocked[k]) return reject('blocked', toolkitBlockedReason(this.#catalog.toolkits[k]!.name), callId);
    return { ok: true, kind: 'load', toolkit: k, callId };
  }

  /**
   * Decode Anthropic wire names and strict-mode nulls, then validate. `fresh`: `input` was parsed from text just now, so
   * a validator that fills defaults may fill it in place; any other input is copied first (the caller's stays unchanged).
   */
  #validate(
    t: number,
    input: Record<string, unknown>,
    prefix: string,
    via: CallVia | 'library',
    group: string | null,
    callId: string | undefined,
    dispatched: boolean,
    fresh: boolean,
  ): Resolved {
    const entry = this.#catalog.tool(t);
    const named = entry.keyDecode ? (applyKeyDecode(input, entry.keyDecode) as Record<string, unknown>) : input;
    const decoded = entry.nullDecode ? (applyNullDecode(named, entry.nullDecode) as Record<string, unknown>) : named;
    const args = entry.fillsDefaults && !fresh ? (cloneJson(decoded) as Record<string, unknown>) : decoded;
    const validate = entry.validate;
    if (validate !== undefined && !passes(validate, args)) {
      return reject('invalid_arguments', invalid(entry, validate, args, prefix, via === 'namespace' ? group! : undefined, dispatched), callId);
    }
    return { ok: true, kind: 'call', tool: t, args, via, group, callId };
  }

  /** A toolkit tool whose toolkits are not loaded: the load to make (an unblocked toolkit), or `blocked` when no load can be made. */
  #notLoaded(entry: ToolEntry, callId: string | undefined): Rejected {
    const kit = entry.toolkits.find((k) => !this.#gate.kitBlocked[k]);
    const loadable = kit !== undefined && !this.#gate.loaderBlocked();
    return reject(loadable ? 'not_loaded' : 'blocked', notLoadedReason(entry.name, this.#catalog.toolkits[kit ?? entry.toolkits[0]!]!.name, loadable), callId);
  }

  #unknownName(name: string, callId: string | undefined): Rejected {
    // The reference library blocks any listed name, known or not.
    if (this.#gate.isListed(name)) return reject('blocked', blockedReason(name), callId);
    // `file_ops.read_file`, `file_ops__read_file`, `file_ops/read_file`: a namespace action called by a joined name.
    const split = /^(.+?)(?:\.|__|\/|:)(.+)$/.exec(name);
    if (split) {
      const ref = this.#catalog.byName.get(split[1]!);
      if (ref?.kind === 'namespace' && this.#catalog.namespaces[ref.index]!.actions.get(split[2]!) !== undefined) {
        return reject('unknown_tool', unknownToolReason(name, [], [], actionHint(split[2]!, split[1]!)), callId);
      }
    }
    const suggester = this.#suggestions.callable();
    return reject('unknown_tool', unknownToolReason(name, suggester.closest(name), suggester.names), callId);
  }

  // ---- The reference library's namespace helpers -------------------------------------------

  /** Whether a call targets a namespace tool (any call shape). Never throws. */
  isNamespaceCall(call: unknown): boolean {
    const shape = readCall(call);
    const name = shape.namespace ?? shape.name;
    return name !== undefined && this.#catalog.byName.get(name)?.kind === 'namespace';
  }

  /** The reference library's `resolveNamespace` without exceptions, through the same checks as `dispatch` (gate, key rule, validator). */
  tryResolveNamespace(call: unknown): TryNamespaceResolution {
    const catalog = this.#catalog;
    const shape = readCall(call);
    const nsName = shape.namespace ?? shape.name;
    const ref = nsName === undefined ? undefined : catalog.byName.get(nsName);
    const r = ref?.kind === 'namespace' ? this.resolve(call, true) : undefined;
    if (r?.ok === false) return { ok: false, code: r.code, reason: r.reason };
    if (r?.kind !== 'call' || ref?.kind !== 'namespace') {
      const available = catalog.namespaces.map((n) => n.name).join(', ') || '(none)';
      return { ok: false, code: nsName ? 'unknown_tool' : 'empty_name', reason: `${nsName ? quote(nsName) : 'The call'} is not a registered namespace. Available: ${available}` };
    }
    // A copy: the caller may keep or change the args, and checkToolCall hands out the same object.
    return { ok: true, group: catalog.namespaces[ref.index]!.name, toolName: catalog.toolName(r.tool), args: { ...r.args } };
  }
}

const nameCheck = (name: string, callable: CallableKind, callId: string | undefined): NameCheck => ({ ok: true, kind: 'name', name, callable, callId });

/** Why an envelope call is refused (`envelopeArgs`): a class, so a refusal is never mistaken for arguments. */
class Refusal { constructor(readonly reason: string) {} }

/**
 * The arguments of an envelope call (a namespace's `{ action, args }`, the dispatcher's `{ tool, args }`), or why the
 * call is refused. Models often flatten the envelope: with no `args` key every key beside the selector is an argument;
 * with one, any other key is refused by name, since dropping it would run the call without it. `"args": null` is no
 * arguments. `object`: arguments that are not an object are refused too (a toolkit's are checked as its tool's are).
 */
function envelopeArgs(tool: string, key: 'action' | 'tool', parsed: Record<string, unknown>, object: boolean): unknown {
  const flat = !Object.hasOwn(parsed, 'args');
  const beside = Object.keys(parsed).filter((k) => k !== key && (flat || k !== 'args'));
  if (!flat && beside.length > 0) return new Refusal(strayKeysReason(tool, key, String(parsed[key]), beside));
  // fromEntries defines keys, so a `__proto__` key stays an own property.
  const raw = flat ? Object.fromEntries(beside.map((k) => [k, parsed[k]])) : (parsed['args'] ?? {});
  return !object || isPlainObject(raw) ? raw : new Refusal(envelopeArgsReason(tool, key, String(parsed[key]), jsonKind(raw)));
}

/** The reason for `args` that `entry`'s validator has just refused. The model retries the namespace (or the dispatcher tool) it called through. */
function invalid(entry: ToolEntry, validate: ValidateFn, args: Record<string, unknown>, prefix: string, namespace: string | undefined, dispatched: boolean): string {
  const through = namespace ?? (dispatched ? TOOLKIT_DISPATCHER_NAME : undefined);
  const label = through === undefined ? quote(entry.name) : `${quote(through)} ${dispatched ? 'tool' : 'action'} ${quote(entry.name)}`;
  // A validator the application wrote may report malformed errors: only readable ones reach the reason.
  const errors = entry.specIndex < 0 ? readableErrors(validate) : validate.errors;
  return invalidReason(label, errors, entry.schema, args, prefix, through ?? entry.name);
}
