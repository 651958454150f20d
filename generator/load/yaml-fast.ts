/**
 * The YAML fast path: js-yaml's event parser (an order of magnitude faster
 * than building a `yaml` Document with node ranges) turned into the same plain
 * value `yaml` gives, and a position index over the same events for `locate`.
 *
 * It only answers for text it can answer exactly as the `yaml` path does
 * (YAML 1.2, core schema, as the `yaml` package resolves it) and declines
 * everything else, so `loadText` then runs today's `yaml` path with its exact
 * messages and positions:
 * - text js-yaml refuses (syntax error, nesting deeper than 100), zero or
 *   several documents, any `%` directive (a `%YAML 1.1` would change the schema),
 *   a document that is a single scalar, a CR that is not part of a CRLF (a line
 *   break to js-yaml, content to `yaml`), a byte order mark anywhere (loadText
 *   strips the leading one), an explicit key (`? key`), an implicit key longer than 1000
 *   characters (`yaml` limits them to 1024);
 * - any tag (`!!str 1`, `!!binary`, `!!set`, custom `!x`), anchor or alias
 *   (aliases are bounded on the `yaml` path, maxAliasCount 1000);
 * - a key that is not a scalar, a key that resolves to null (`~:`, `:`,
 *   where `yaml` names the key "null" but stores it as ""), a key written twice
 *   (the `yaml` path reports it with both positions).
 * Plain scalars resolve with the regular expressions of `yaml`'s core schema
 * (node_modules/yaml/dist/schema/core/*.js), in its order: null, bool, octal,
 * decimal and hex int, then `.inf`/`.nan`, exponent and plain floats; no
 * timestamps, no merge keys (`<<` is a plain key in YAML 1.2), so `yes`,
 * `1_000`, `0b101` and `2024-01-01` stay strings. test/generator/yaml-fast.test.ts
 * proves value and positions equal to the `yaml` path (or declined) on every
 * YAML file in the repo, the bench specs, random values and mutated texts.
 *
 * Positions: `offset` answers for what it knows exactly (a plain scalar's
 * first character, a quoted scalar's opening quote, a collection's start, a
 * key, the key of an empty value, the deepest existing node) and returns
 * undefined otherwise (a block scalar `|`/`>`, an empty sequence item); the
 * caller then asks a `yaml` Document built on demand.
 */
import { EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE } from 'js-yaml';
import type { Event, ScalarEvent } from 'js-yaml';
import type { SpecPath } from '../load.js';

/** What the fast path knows about a YAML text it accepted. */
export interface FastYaml {
  /** The value, equal to `parseDocument(text).toJS()` with the loader's options. */
  readonly value: unknown;
  /**
   * Source offset of the node at `path` with `locateOffset`'s rules (yaml.ts),
   * or undefined when only the `yaml` Document can say.
   */
  offset(path: SpecPath, mode: 'value' | 'key'): number | undefined;
}

/** A `?` indicator: at a line's start or after indentation, `-`, `[`, `{` or `,`, followed by a space, tab or line end. */
const EXPLICIT_KEY = /(?:^|[\s[{,-])\?(?:[ \t\r\n]|$)/m;

/** Marks "no key read yet" on a mapping frame (a key may be any string, even ""). */
const NO_KEY = Symbol('no key');
/** Thrown inside the walk to decline the text; never escapes `parseYamlFast`. */
const DECLINE = Symbol('decline');

/**
 * Parses `text` (no BOM) the fast way, or returns undefined when the `yaml`
 * path must judge it.
 *
 * @example
 * parseYamlFast('a: [1, 0x1F, yes]\n')?.value; // { a: [1, 31, 'yes'] }
 * parseYamlFast('a: !!str 1\n');              // undefined (a tag: the yaml path reads it)
 */
export function parseYamlFast(text: string): FastYaml | undefined {
  // A CR not followed by LF is content to `yaml` and a line break to js-yaml.
  if (text.includes('\r') && /\r(?!\n)/.test(text)) return undefined;
  // A byte order mark in the text (loadText strips a leading one) shifts `yaml`'s idea of the first line's indentation.
  if (text.includes('\ufeff')) return undefined;
  // Explicit keys (`? key`): the two parsers disagree on tabs around them, and specs do not need them.
  if (text.includes('?') && EXPLICIT_KEY.test(text)) return undefined;
  let events: Event[];
  try {
    events = parseEvents(text, {});
  } catch {
    return undefined; // a syntax error, too deep, or a js-yaml limit: the yaml path words it
  }
  try {
    const built = build(text, events);
    return { value: built.value, offset: positions(text, events, built.ends) };
  } catch (err) {
    if (err === DECLINE) return undefined;
    throw err;
  }
}

/**
 * The value of the one document in `events`, and for each collection event
 * the index of the event that closes it (`ends`, for skipping a subtree).
 */
function build(text: string, events: readonly Event[]): { value: unknown; ends: Int32Array } {
  const ends = new Int32Array(events.length);
  // One frame per open collection: parallel stacks (cheaper than an object per frame).
  const containers: (Record<string, unknown> | unknown[])[] = [];
  const keys: (string | typeof NO_KEY)[] = [];
  const mapping: boolean[] = [];
  const opened: number[] = [];
  let documents = 0;
  let root: unknown;
  let rootSet = false;

  const add = (value: unknown): void => {
    const depth = containers.length;
    if (depth === 0) {
      if (rootSet) throw DECLINE;
      root = value;
      rootSet = true;
      return;
    }
    const container = containers[depth - 1]!;
    if (!mapping[depth - 1]) {
      (container as unknown[]).push(value);
      return;
    }
    const key = keys[depth - 1]!;
    if (key === NO_KEY) throw DECLINE; // a collection as a key
    keys[depth - 1] = NO_KEY;
    const map = container as Record<string, unknown>;
    // As yaml's addPairToJSMap: a name the object already answers (`__proto__`, `toString`) becomes an own property.
    if (key in map) Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
    else map[key] = value;
  };

  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    switch (e.type) {
      case EVENT_ID.DOCUMENT:
        if (++documents > 1 || e.directives.length > 0) throw DECLINE;
        break;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        if (e.anchorStart !== -1 || e.tagStart !== -1) throw DECLINE;
        const depth = containers.length;
        if (depth > 0 && mapping[depth - 1] && keys[depth - 1] === NO_KEY) throw DECLINE; // a collection as a key
        containers.push(e.type === EVENT_ID.MAPPING ? {} : []);
        mapping.push(e.type === EVENT_ID.MAPPING);
        keys.push(NO_KEY);
        opened.push(i);
        break;
      }
      case EVENT_ID.SCALAR: {
        if (e.anchorStart !== -1 || e.tagStart !== -1) throw DECLINE;
        const source = getScalarValue(text, e);
        const value = e.style === SCALAR_STYLE.PLAIN ? resolvePlain(source) : source;
        const depth = containers.length;
        if (depth === 0) throw DECLINE; // a document that is one scalar is no spec; the two parsers differ on a root block scalar's indentation
        if (mapping[depth - 1] && keys[depth - 1] === NO_KEY) {
          if (value === null) throw DECLINE;
          // `yaml` refuses an implicit key whose ":" is more than 1024 characters after its start; js-yaml has no such limit.
          if (e.valueEnd - e.valueStart > 1000 || text.indexOf(':', e.valueEnd) - e.valueStart > 1000) throw DECLINE;
          const key = String(value);
          if (Object.hasOwn(containers[depth - 1]!, key)) throw DECLINE; // written twice
          keys[depth - 1] = key;
        } else add(value);
        break;
      }
      case EVENT_ID.POP: {
        if (containers.length === 0) break; // the document's end
        const value = containers.pop();
        mapping.pop();
        const open = opened.pop()!;
        if (keys.pop() !== NO_KEY) throw DECLINE; // a key without a value: not something js-yaml emits
        ends[open] = i;
        add(value);
        break;
      }
      default:
        throw DECLINE; // an alias (or an event this code does not know)
    }
  }
  if (documents !== 1 || !rootSet || containers.length > 0) throw DECLINE;
  return { value: root, ends };
}

// yaml's core schema (node_modules/yaml/dist/schema/core/*.js), in its order.
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/**
 * A plain scalar's value, as `yaml`'s core schema resolves it.
 *
 * @example
 * resolvePlain('0o17'); // 15
 * resolvePlain('yes');  // 'yes'
 */
export function resolvePlain(s: string): unknown {
  // Every non-string form starts with one of these; most plain scalars (names, words) start elsewhere.
  const c = s.charCodeAt(0);
  if (!(s === '' || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 126 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70)) return s;
  if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (BOOL.test(s)) return s[0] === 't' || s[0] === 'T';
  if (INT_OCT.test(s)) return parseInt(s.substring(2), 8);
  if (INT.test(s)) return parseInt(s, 10);
  if (INT_HEX.test(s)) return parseInt(s.substring(2), 16);
  if (FLOAT_NAN.test(s)) return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (FLOAT_EXP.test(s) || FLOAT.test(s)) return parseFloat(s);
  return s;
}

/** The members of one collection: a mapping's keys to event indices, a sequence's items. */
type Children = { mapping: true; members: Map<string, { key: number; value: number }> } | { mapping: false; items: number[] };

/**
 * `locateOffset` (yaml.ts) over the events. A collection's members are listed
 * the first time a path goes through it and kept.
 */
function positions(text: string, events: readonly Event[], ends: Int32Array): FastYaml['offset'] {
  const cache = new Map<number, Children>();
  /** Index of the event after the node starting at event `i`. */
  const next = (i: number): number => {
    const t = events[i]!.type;
    return t === EVENT_ID.MAPPING || t === EVENT_ID.SEQUENCE ? ends[i]! + 1 : i + 1;
  };
  const children = (i: number): Children | undefined => {
    const cached = cache.get(i);
    if (cached) return cached;
    const e = events[i]!;
    let found: Children;
    if (e.type === EVENT_ID.MAPPING) {
      const members = new Map<string, { key: number; value: number }>();
      for (let j = i + 1; j < ends[i]!; ) {
        const key = events[j] as ScalarEvent; // keys are scalars (build declined the rest)
        const value = j + 1;
        members.set(String(plainOrString(text, key)), { key: j, value });
        j = next(value);
      }
      found = { mapping: true, members };
    } else if (e.type === EVENT_ID.SEQUENCE) {
      const items: number[] = [];
      for (let j = i + 1; j < ends[i]!; j = next(j)) items.push(j);
      found = { mapping: false, items };
    } else return undefined;
    cache.set(i, found);
    return found;
  };
  /** Where the node of event `i` starts as `yaml` records it (`range[0]`), when known. */
  const start = (i: number): number | undefined => {
    const e = events[i]!;
    if (e.type === EVENT_ID.MAPPING || e.type === EVENT_ID.SEQUENCE) return e.start;
    if (e.type !== EVENT_ID.SCALAR || e.valueStart === -1) return undefined;
    if (e.style === SCALAR_STYLE.PLAIN) return e.valueStart;
    const quote = e.style === SCALAR_STYLE.DOUBLE_QUOTED ? '"' : e.style === SCALAR_STYLE.SINGLE_QUOTED ? "'" : undefined;
    return quote !== undefined && text[e.valueStart - 1] === quote ? e.valueStart - 1 : undefined;
  };
  /** An empty plain value (`description:`): yaml points at its key instead. */
  const empty = (i: number): boolean => {
    const e = events[i]!;
    return e.type === EVENT_ID.SCALAR && e.style === SCALAR_STYLE.PLAIN && e.valueStart === -1;
  };
  const root = events.findIndex((e) => e.type !== EVENT_ID.DOCUMENT);

  return (p, mode) => {
    let node = root;
    let best = start(node);
    if (best === undefined) return undefined;
    for (let k = 0; k < p.length; k++) {
      const seg = p[k]!;
      const here = children(node);
      if (here?.mapping) {
        const member = here.members.get(String(seg));
        if (!member) return best;
        const keyStart = start(member.key);
        if (keyStart === undefined) return undefined;
        if (k === p.length - 1 && mode === 'key') return keyStart;
        if (empty(member.value)) best = keyStart;
        else {
          const valueStart = start(member.value);
          if (valueStart === undefined) return undefined;
          best = valueStart;
        }
        node = member.value;
      } else if (here && !here.mapping && typeof seg === 'number') {
        const item = here.items[seg];
        if (item === undefined) return best;
        const itemStart = start(item);
        if (itemStart === undefined) return undefined;
        best = itemStart;
        node = item;
      } else return best;
    }
    return best;
  };
}

/** A scalar's value as `build` resolved it (plain: core schema; quoted and block: the text). */
function plainOrString(text: string, e: ScalarEvent): unknown {
  const source = getScalarValue(text, e);
  return e.style === SCALAR_STYLE.PLAIN ? resolvePlain(source) : source;
}
