/**
 * Call resolution: from whatever the model sent (any supported call shape) to
 * either the tool index and validated arguments, or a rejection with a code
 * from `REJECTION_CODES` and a reason the model can act on. This is the
 * dispatch hot path: reason strings and suggestions are built only on
 * failure, and a valid call writes no object into the router's long-lived
 * objects (the short path stores a small integer, short-path.ts, which
 * `dispatch` takes for the common valid call). The full path's call shape
 * and the `Accepted` it returns are fresh
 * per call, short-lived young objects (the shape often optimized away):
 * refilling one object per router instead made every call store its fresh
 * values into an old object, which costs V8's old-to-young write barrier,
 * and, while the collector marks a large heap (10,000 tools), its marking
 * barrier on each store: about 250 instructions per call in a window where
 * marking ran (callgrind), 1-3 % of a call's wall time in paired runs.
 *
 * Order of checks, per call: the name (empty, unknown, joined namespace
 * names), the gate (blocked, not loaded), the arguments (size, depth,
 * parse), the action of a namespace, then the tool's validator after decoding
 * OpenAI strict-mode nulls. Model input never throws here.
 *
 * Rules about which keys a namespace call may carry, or how a near-miss name
 * is told apart from an unknown one, belong here; the wording of each reason
 * lives in reasons.ts.
 */
import { LOAD_TOOLKIT_NAME, type CallVia } from '../contract.js';
import { applyKeyDecode } from '../targets/property-keys.js';
import {
  ArgumentsFailure, cloneArguments, decodeNulls, DEFAULT_LIMITS, deferredLimitsProblem, isPlainObject, jsonKind, parseArguments,
  parsedLimitsProblem, readArguments, readCall, readCallInto, type CallFields, type CallLimits, type MutableCallShape, walkDeferred,
} from '../call-shape.js';
import {
  actionHint, blockedReason, emptyNameReason, listNames, malformedReason, namespaceArgsReason,
  notLoadedReason, quote, strayKeysReason, loaderStrayReason, unknownActionReason, unknownToolkitReason, unknownToolReason,
} from '../reasons.js';
import { Suggester } from '../suggest.js';
import { Suggestions } from './lookup.js';
import { TOOLKIT_DISPATCHER_NAME } from '../toolkit-loading.js';
import { LOADER_REF, isNamespaceRef, isToolRef, refNamespace, type Catalog } from './catalog.js';
import type { Gate } from './gate.js';
import { covers, DISPATCH_FAST_PATH, FAST_REJECTED, invalidRejection, limitsFirst, passes, reject, ShortPath, type Rejected } from './short-path.js';
import type { AnyDispatchResult, Invoker } from './invoke.js';
import type { CallableKind, TryNamespaceResolution } from './types.js';

export type { Rejected };

/** Internal outcome of resolving a call. */
export type Resolved = Accepted | Rejected;

/** A call that passed every check. */
export type Accepted = {
  readonly ok: true;
  /** Tool index, or -1 for load_toolkit (then `toolkit` is set), -2 for a name-only check. */
  readonly tool: number;
  readonly toolkit: number;
  readonly args: Record<string, unknown>;
  readonly via: CallVia | 'library';
  readonly group: string | null;
  readonly kind: CallableKind;
  readonly callId: string | undefined;
};

/** `ResolvedCall` with the registry's types erased; the façade restores them. */
export interface PublicCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly via: CallVia | 'library';
  readonly group: string | null;
}

/** Marker for a name-level check result (no arguments were checked): `args === NAME_ONLY`, `group` is the name. */
export const NAME_ONLY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

function nameOk(name: string, kind: CallableKind, callId: string | undefined): Resolved {
  return { ok: true, tool: -2, toolkit: -1, args: NAME_ONLY, via: 'flat', group: name, kind, callId };
}


/** `dispatch`'s result for a rejected call. */
function rejection(r: Rejected): Promise<AnyDispatchResult> {
  return Promise.resolve<AnyDispatchResult>({ ok: false, code: r.code, reason: r.reason, callId: r.callId });
}


/** The per-call options `dispatch` passes on to the invoker. */
export interface DispatchCallOptions {
  readonly context?: unknown;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * Resolves calls for one router. Internal.
 *
 * @example
 * const resolver = new Resolver(catalog, gate, { maxDepth: 32 });
 * const r = resolver.resolve({ name: 'read_file', arguments: '{"path":"a"}' }, true);
 * if (r.ok) catalog.tool(r.tool).name; // → 'read_file'
 */
export class Resolver {
  readonly #catalog: Catalog;
  readonly #gate: Gate;
  readonly #limits: CallLimits;
  readonly #suggestions: Suggestions;
  readonly #short: ShortPath;

  /** `limits`: the router's options; each limit not given is `DEFAULT_LIMITS`'. */
  constructor(catalog: Catalog, gate: Gate, limits: Partial<CallLimits>) {
    this.#catalog = catalog;
    this.#gate = gate;
    this.#suggestions = new Suggestions(catalog, gate);
    this.#limits = {
      maxArgumentsLength: limits.maxArgumentsLength ?? DEFAULT_LIMITS.maxArgumentsLength,
      maxDepth: limits.maxDepth ?? DEFAULT_LIMITS.maxDepth,
      maxNodes: limits.maxNodes ?? DEFAULT_LIMITS.maxNodes,
    };
    this.#short = new ShortPath(catalog, gate, this.#limits);
  }

  /**
   * Resolve a call. `fullCheck` forces the argument checks even when the call
   * carries no arguments (dispatch); otherwise a name-only call gets the
   * name-level gate and `args === NAME_ONLY`, `group` = the name.
   */
  resolve(call: unknown, fullCheck: boolean): Resolved {
    // A fresh shape per call (see the module comment): V8 keeps it in registers when it inlines readCallInto.
    const shape: MutableCallShape = { name: undefined, callId: undefined, namespace: undefined, hasArguments: false, rawArguments: undefined };
    readCallInto(call, shape);
    return this.#resolveRead(shape.name, shape.callId, shape.namespace, shape.hasArguments, shape.rawArguments, fullCheck);
  }

  /**
   * `dispatch`'s whole path: resolve the call as `resolve(call, true)` does
   * and hand an accepted one to `invoker`. The common valid call goes the
   * short path (short-path.ts), straight to the invoker; anything else goes
   * the full way (`#resolveRead`) with the fields already read, so a call's
   * fields are read once either way. Never throws for model input.
   */
  dispatch(call: unknown, invoker: Invoker, options: DispatchCallOptions | undefined): Promise<AnyDispatchResult> {
    let name: unknown;
    let idValue: unknown;
    let namespace: unknown;
    let raw: unknown;
    // The same reads as readCallInto (call-shape.ts), in the same order; kept inline here so the
    // fields stay in registers (readCallInto and its shape object were about 120 instructions a call).
    if (typeof call === 'object' && call !== null) {
      try {
        const c = call as CallFields;
        const fn = c.function;
        const source = typeof fn === 'object' && fn !== null ? (fn as CallFields) : c;
        name = source.name;
        idValue = c.call_id ?? c.id ?? c.tool_call_id;
        namespace = c.namespace;
        raw = source.arguments;
        if (raw === undefined) raw = source.input;
        if (raw === undefined) raw = source.args;
        if (name === undefined && (c as { type?: unknown }).type === 'tool_search_call') name = LOAD_TOOLKIT_NAME;
      } catch {
        name = idValue = namespace = raw = undefined;
      }
    }
    const callId = typeof idValue === 'string' ? idValue : undefined;
    if (DISPATCH_FAST_PATH.enabled && typeof name === 'string' && namespace === undefined && typeof raw === 'string') {
      const ref = this.#catalog.byName.get(name);
      if (ref !== undefined && ref !== LOADER_REF) {
        const short = this.#short;
        const args = ref >= 0 ? short.tool(ref, name, raw, callId) : short.action(refNamespace(ref), name, raw, callId);
        if (args !== undefined) {
          // Wraps below 2^30, so the count stays a small integer however long a process runs.
          DISPATCH_FAST_PATH.taken = (DISPATCH_FAST_PATH.taken + 1) & 0x3fffffff;
          if (args === FAST_REJECTED) return rejection(short.rejected!);
          return invoker.invoke(this.#catalog.tool(short.index), args, callId, options?.context, options);
        }
      }
    }
    const r = this.#resolveRead(
      typeof name === 'string' ? name : undefined,
      callId,
      typeof namespace === 'string' && namespace !== '' ? namespace : undefined,
      raw !== undefined,
      raw,
      true,
    );
    if (!r.ok) return rejection(r);
    if (r.tool < 0) return invoker.dispatchLoader(r.toolkit, r.callId);
    return invoker.invoke(this.#catalog.tool(r.tool), r.args, r.callId, options?.context, options);
  }

  /** `resolve` on a call's fields as readCallInto reads them. */
  #resolveRead(name: string | undefined, callId: string | undefined, namespace: string | undefined, hasArguments: boolean, rawArguments: unknown, fullCheck: boolean): Resolved {
    const catalog = this.#catalog;
    const gate = this.#gate;
    if (namespace !== undefined) {
      // OpenAI Responses native namespace: `name` is the action, `arguments` its args.
      const ref = catalog.byName.get(namespace);
      if (ref === undefined || ref > -2) return this.#unknownName(namespace, callId);
      const k = refNamespace(ref);
      if (gate.nsBlocked[k]) return reject('blocked', blockedReason(namespace), callId);
      return this.#resolveAction(k, name, rawArguments, '', callId);
    }
    if (name === undefined || name === '') {
      return reject('empty_name', emptyNameReason(this.#suggestions.callable().names), callId);
    }
    const ref = catalog.byName.get(name);
    const nameOnly = !fullCheck && !hasArguments;
    if (ref === undefined) {
      if (name === TOOLKIT_DISPATCHER_NAME && catalog.toolkits.length > 0) {
        return nameOnly ? nameOk(name, 'library', callId) : this.#resolveDispatched(rawArguments, callId);
      }
      return this.#unknownName(name, callId);
    }

    if (ref === LOADER_REF) {
      if (gate.loaderBlocked()) return reject('blocked', blockedReason(name), callId);
      if (nameOnly) return nameOk(name, 'library', callId);
      return this.#resolveLoader(rawArguments, callId);
    }
    if (ref < 0) {
      const k = refNamespace(ref);
      if (gate.nsBlocked[k]) return reject('blocked', blockedReason(name), callId);
      if (nameOnly) return nameOk(name, 'namespace', callId);
      // The action (and so its schema's bound) is known only once the text is parsed: the limits
      // walk waits for it (#resolveAction), and any rejection walks first, so its verdict wins as before.
      const deferred = walkDeferred(rawArguments, this.#limits) ? rawArguments : undefined;
      const parsed = readArguments(rawArguments, this.#limits, deferred !== undefined);
      if (parsed instanceof ArgumentsFailure) return reject(parsed.code, malformedReason(quote(name), parsed.problem), callId);
      const r = this.#resolveNamespaceObject(k, parsed, callId, deferred, typeof rawArguments === 'string');
      return deferred !== undefined && !r.ok ? limitsFirst(r, deferred, name, this.#limits) : r;
    }

    const t = ref;
    const entry = catalog.tool(t);
    if (gate.toolBlocked[t]) return reject('blocked', blockedReason(name), callId);
    if (!gate.direct[t]) {
      if (entry.toolkits.length > 0) {
        const kit = entry.toolkits.find((k) => !gate.kitBlocked[k]) ?? entry.toolkits[0]!;
        return reject('not_loaded', notLoadedReason(name, catalog.toolkits[kit]!.name), callId);
      }
      const ns = entry.namespaces[0];
      const hint = ns !== undefined ? actionHint(name, catalog.namespaces[ns]!.name) : undefined;
      return reject('unknown_tool', unknownToolReason(name, [], [], hint), callId);
    }
    if (nameOnly) return nameOk(name, entry.library ? 'library' : 'tool', callId);
    // Where the schema bounds depth and numbers, a valid call needs no limits walk; a rejected one walks first.
    const deferred = covers(this.#catalog.tool(t), 0, this.#limits) && walkDeferred(rawArguments, this.#limits);
    const parsed = readArguments(rawArguments, this.#limits, deferred);
    if (parsed instanceof ArgumentsFailure) return reject(parsed.code, malformedReason(quote(name), parsed.problem), callId);
    const fresh = typeof rawArguments === 'string';
    const r = this.#validate(t, parsed, '', entry.flat ? 'flat' : entry.library ? 'library' : 'toolkit', gate.directGroup(t), callId, false, fresh);
    return deferred && !r.ok ? limitsFirst(r, rawArguments as string, name, this.#limits) : r;
  }



  /** The public form of an accepted call (`checkToolCall`'s `call`): a fresh object, safe to keep. */
  publicCall(r: Accepted): PublicCall {
    if (r.tool < 0) {
      return { tool: LOAD_TOOLKIT_NAME, args: { toolkit_name: this.#catalog.toolkits[r.toolkit]!.name }, via: 'library', group: null };
    }
    return { tool: this.#catalog.toolName(r.tool), args: r.args, via: r.via, group: r.group };
  }

  /**
   * A namespace call's parsed object. The wire format is `{ action, args }`;
   * models often flatten it, so the rule is: with no `args` key, every key
   * beside `action` is an argument (`{"action":"git_log","limit":3}` is
   * `git_log` with `{ limit: 3 }`); with an `args` key, any other key beside
   * `action` is a mistake, rejected by name, because dropping it would run
   * the action without it (a commit of everything instead of `paths`).
   */
  #resolveNamespaceObject(k: number, parsed: Record<string, unknown>, callId: string | undefined, deferred: string | undefined, fromText: boolean): Resolved {
    const action = parsed['action'];
    const form = fromText ? 2 : 1;
    if (Object.hasOwn(parsed, 'args')) {
      let stray: string[] | undefined;
      for (const key in parsed) if (key !== 'action' && key !== 'args' && Object.hasOwn(parsed, key)) (stray ??= []).push(key);
      if (stray !== undefined) {
        const t = typeof action === 'string' ? this.#action(k, action) : undefined;
        // An unknown or blocked action says so first: that is what the model must fix.
        if (t === undefined || this.#gate.toolBlocked[t]) return this.#resolveAction(k, action, parsed['args'], '/args', callId, form, deferred, parsed);
        return reject('malformed_arguments', strayKeysReason(this.#catalog.namespaces[k]!.name, action as string, stray), callId);
      }
      return this.#resolveAction(k, action, parsed['args'], '/args', callId, form, deferred, parsed);
    }
    // Flattened: the siblings are the arguments. Object.fromEntries defines
    // keys (a `__proto__` key stays an own property) and copies only here.
    let flattened: Record<string, unknown> | undefined;
    for (const key in parsed) {
      if (key !== 'action' && Object.hasOwn(parsed, key)) {
        flattened = Object.fromEntries(Object.entries(parsed).filter(([key]) => key !== 'action'));
        break;
      }
    }
    return this.#resolveAction(k, action, flattened, '', callId, form, deferred, parsed);
  }

  /** Action `name` of namespace `k` (a group's actions never change once it exists). */
  #action(k: number, name: string): number | undefined {
    return this.#catalog.namespaces[k]!.actions.get(name);
  }

  /**
   * A namespace action with its args: `form` 0 unparsed, 1 parsed from an object, 2 parsed from text (plain JSON data).
   * `deferred`: the text of an envelope (`envelope`, unchanged so far) not yet walked for limits; walked here unless `covers` says needless.
   */
  #resolveAction(
    k: number,
    action: unknown,
    rawArgs: unknown,
    prefix: string,
    callId: string | undefined,
    form: 0 | 1 | 2 = 0,
    deferred?: string,
    envelope?: object,
  ): Resolved {
    const ns = this.#catalog.namespaces[k]!;
    const t = typeof action === 'string' ? this.#action(k, action) : undefined;
    if (t === undefined) {
      ns.suggester ??= new Suggester(ns.actionList);
      const closest = typeof action === 'string' ? ns.suggester.closest(action) : [];
      return reject('unknown_action', unknownActionReason(ns.name, action, ns.actionList, closest), callId);
    }
    const toolName = action as string;
    if (this.#gate.toolBlocked[t]) return reject('blocked', blockedReason(toolName), callId);
    let args: Record<string, unknown>;
    if (form !== 0) {
      if (rawArgs === undefined || rawArgs === null) args = {};
      // Parsed text holds only JSON data: a non-array object is plain (no prototype read).
      else if (form === 2 ? typeof rawArgs === 'object' && !Array.isArray(rawArgs) : isPlainObject(rawArgs)) args = rawArgs as Record<string, unknown>;
      else return reject('malformed_arguments', namespaceArgsReason(ns.name, toolName, jsonKind(rawArgs)), callId);
      // The envelope nests the arguments one level below its root (`{ action, args }`).
      if (deferred !== undefined && !covers(this.#catalog.tool(t), 1, this.#limits)) {
        const failure = parsedLimitsProblem(deferred, envelope!, this.#limits);
        if (failure !== undefined) return reject(failure.code, malformedReason(quote(ns.name), failure.problem), callId);
      }
    } else {
      // The OpenAI Responses form: the action is known before its arguments text is parsed.
      const defer = covers(this.#catalog.tool(t), 0, this.#limits) && walkDeferred(rawArgs, this.#limits);
      const parsed = readArguments(rawArgs, this.#limits, defer);
      if (parsed instanceof ArgumentsFailure) {
        return reject(parsed.code, malformedReason(`${quote(ns.name)} action ${quote(toolName)}`, parsed.problem), callId);
      }
      const r = this.#validate(t, parsed, prefix, 'namespace', ns.name, callId, false, typeof rawArgs === 'string');
      if (!defer || r.ok) return r;
      const failure = deferredLimitsProblem(rawArgs as string, this.#limits);
      return failure === undefined ? r : reject(failure.code, malformedReason(`${quote(ns.name)} action ${quote(toolName)}`, failure.problem), callId);
    }
    // Parsed from text (form 2), the arguments are part of a value nothing but this call holds.
    return this.#validate(t, args, prefix, 'namespace', ns.name, callId, false, form === 2);
  }

  /**
   * A call through the dispatcher tool (`{ tool, args }`, toolkit-loading.ts):
   * checked exactly like a namespace action — the tool must be a toolkit tool
   * (`unknown_action` with the closest names otherwise), pass the gate, be
   * loaded, and its args are validated with pointers under `/args`; keys
   * besides `tool` and `args` are named in a rejection. Routed as the toolkit
   * tool itself (`via: 'toolkit'`, `group`: its loaded toolkit).
   */
  #resolveDispatched(rawArgs: unknown, callId: string | undefined): Resolved {
    const catalog = this.#catalog;
    const gate = this.#gate;
    const parsed = readArguments(rawArgs, this.#limits);
    if (parsed instanceof ArgumentsFailure) return reject(parsed.code, malformedReason(quote(TOOLKIT_DISPATCHER_NAME), parsed.problem), callId);
    const tool = parsed['tool'];
    const ref = typeof tool === 'string' ? catalog.byName.get(tool) : undefined;
    const t = isToolRef(ref) && catalog.toolToolkits(ref).length > 0 ? ref : -1;
    if (t === -1) {
      const names = catalog.toolkits.flatMap((kit) => kit.tools.map((i) => catalog.toolName(i)));
      const closest = typeof tool === 'string' ? new Suggester(names).closest(tool) : [];
      const what =
        typeof tool === 'string'
          ? `${quote(tool)} is not a tool of any toolkit.`
          : `A call to ${quote(TOOLKIT_DISPATCHER_NAME)} needs "tool" (a string) and "args" (an object).`;
      const mean = closest.length > 0 ? ` Did you mean: ${closest.join(', ')}?` : '';
      return reject('unknown_action', `${what}${mean} Toolkit tools: ${listNames(names)}.`, callId);
    }
    const entry = catalog.tool(t);
    if (gate.toolBlocked[t]) return reject('blocked', blockedReason(entry.name), callId);
    if (!gate.direct[t]) {
      const kit = entry.toolkits.find((k) => !gate.kitBlocked[k]) ?? entry.toolkits[0]!;
      return reject('not_loaded', notLoadedReason(entry.name, catalog.toolkits[kit]!.name), callId);
    }
    const extra = Object.keys(parsed).filter((key) => key !== 'tool' && key !== 'args');
    if (extra.length > 0) {
      return reject(
        'invalid_arguments',
        `A call to ${quote(TOOLKIT_DISPATCHER_NAME)} takes only "tool" and "args"; put ${listNames(extra.map((k) => quote(k)))} inside "args".`,
        callId,
      );
    }
    const args = Object.hasOwn(parsed, 'args') ? parsed['args'] : {};
    if (!isPlainObject(args)) {
      return reject(
        'malformed_arguments',
        `Arguments for ${quote(TOOLKIT_DISPATCHER_NAME)} must be {"tool":${JSON.stringify(entry.name)},"args":{…}} with "args" a JSON object; got ${jsonKind(args)}.`,
        callId,
      );
    }
    return this.#validate(t, args, '/args', entry.flat ? 'flat' : 'toolkit', gate.directGroup(t), callId, true, typeof rawArgs === 'string');
  }

  #resolveLoader(rawArgs: unknown, callId: string | undefined): Resolved {
    const parsed = parseArguments(rawArgs, this.#limits);
    if (!parsed.ok) return reject(parsed.code, malformedReason(quote(LOAD_TOOLKIT_NAME), parsed.problem), callId);
    const requested = parsed.value['toolkit_name'];
    let stray: string[] | undefined;
    for (const key in parsed.value) if (key !== 'toolkit_name' && Object.hasOwn(parsed.value, key)) (stray ??= []).push(key);
    if (stray !== undefined) return reject('malformed_arguments', loaderStrayReason(stray), callId);
    const k = this.#catalog.findToolkit(requested);
    if (k === undefined) {
      const suggester = this.#suggestions.toolkits();
      const closest = typeof requested === 'string' ? suggester.closest(requested) : [];
      return reject('invalid_arguments', unknownToolkitReason(requested, suggester.names, closest), callId);
    }
    const kit = this.#catalog.toolkits[k]!;
    if (this.#gate.kitBlocked[k]) return reject('blocked', `Toolkit ${quote(kit.name)} is currently blocked.`, callId);
    return { ok: true, tool: -1, toolkit: k, args: { toolkit_name: kit.name }, via: 'library', group: null, kind: 'library', callId };
  }

  /**
   * Decode strict-mode nulls and validate. The reason's label and retry name are
   * built only on failure: a valid call pays for no string work.
   *
   * `fresh`: `input` was parsed from the call's arguments text just now, so
   * nothing outside this call holds it or anything in it (the OpenAI Chat and
   * Responses path). A validator that fills defaults may then fill them in
   * place; any other input (an object an SDK or the caller handed over) is
   * copied first, because nothing the caller passed may change.
   */
  #validate(
    t: number,
    input: Record<string, unknown>,
    prefix: string,
    via: CallVia | 'library',
    group: string | null,
    callId: string | undefined,
    dispatched = false,
    fresh = false,
  ): Resolved {
    const entry = this.#catalog.tool(t);
    // Anthropic wire names back to spec names first (most tools have no plan), then strict-mode nulls.
    const named = entry.keyDecode ? (applyKeyDecode(input, entry.keyDecode) as Record<string, unknown>) : input;
    const decoded = entry.nullDecode ? (decodeNulls(named, entry.nullDecode) as Record<string, unknown>) : named;
    // ajv's defaults must not land in the caller's object; a fresh parse is nobody else's.
    const args = entry.fillsDefaults && !fresh ? cloneArguments(decoded, this.#limits.maxDepth) : decoded;
    const validate = entry.validate;
    if (validate !== undefined && !passes(validate, args)) return invalidRejection(entry, validate, args, prefix, via, group, callId, dispatched);
    return { ok: true, tool: t, toolkit: -1, args, via, group, kind: 'tool', callId };
  }


  #unknownName(name: string, callId: string | undefined): Resolved {
    // The seed blocks any listed name, known or not.
    if (this.#gate.isListed(name)) return reject('blocked', blockedReason(name), callId);
    // `file_ops.read_file`, `file_ops__read_file`, `file_ops/read_file`: a namespace action called by a joined name.
    const split = /^(.+?)(?:\.|__|\/|:)(.+)$/.exec(name);
    if (split) {
      const ref = this.#catalog.byName.get(split[1]!);
      if (isNamespaceRef(ref) && this.#action(refNamespace(ref), split[2]!) !== undefined) {
        return reject('unknown_tool', unknownToolReason(name, [], [], actionHint(split[2]!, split[1]!)), callId);
      }
    }
    const suggester = this.#suggestions.callable();
    return reject('unknown_tool', unknownToolReason(name, suggester.closest(name), suggester.names), callId);
  }

  // ---- The seed's namespace helpers (no gate, no validation) -------------------

  /** Whether a call targets a namespace tool (any call shape). Never throws. */
  isNamespaceCall(call: unknown): boolean {
    const shape = readCall(call);
    const name = shape.namespace ?? shape.name;
    return name !== undefined && isNamespaceRef(this.#catalog.byName.get(name));
  }

  /**
   * The seed's `resolveNamespace` without exceptions: the concrete tool and
   * its arguments, or a rejection. Unlike the seed's, it goes through the same
   * path as `dispatch` (gate, the namespace key rule, strict-mode null decode,
   * the validator), so no public method hands a blocked action's arguments,
   * or arguments with a key silently dropped, to application code.
   */
  tryResolveNamespace(call: unknown): TryNamespaceResolution {
    const catalog = this.#catalog;
    const shape = readCall(call);
    const nsName = shape.namespace ?? shape.name;
    const ref = nsName === undefined ? undefined : catalog.byName.get(nsName);
    if (nsName === undefined || ref === undefined || ref > -2) {
      const available = catalog.namespaces.map((n) => n.name).join(', ') || '(none)';
      return {
        ok: false,
        code: nsName ? 'unknown_tool' : 'empty_name',
        reason: `${nsName ? quote(nsName) : 'The call'} is not a registered namespace. Available: ${available}`,
      };
    }
    const r = this.resolve(call, true);
    if (!r.ok) return { ok: false, code: r.code, reason: r.reason };
    // A copy: the caller may keep or change the args, and checkToolCall hands out the same object.
    return { ok: true, group: catalog.namespaces[refNamespace(ref)]!.name, toolName: catalog.toolName(r.tool), args: { ...r.args } };
  }
}
