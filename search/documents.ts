/**
 * What a tool is searched by: one document per tool, built from what the spec knows of it. Names are split on case
 * and separators (`getWeatherForecast`, `get_weather.forecast`), so a task that says "weather forecast" finds them;
 * argument names, descriptions and enum values say what a tool takes, which a short description often leaves out.
 */
import { stemmer } from 'stemmer';

/** A tool as the search reads it: the spec's tool, or a tool registered at run time. */
export interface SearchableTool {
  readonly name: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  /** The argument schema (`type: "object"`); its property names, descriptions and enum values are read. */
  readonly parameters?: unknown;
  /** Descriptions of the namespaces and toolkits the tool belongs to (their names too). */
  readonly groups?: readonly string[];
}

/** The text fields of one tool's document, each searched with its own weight. */
export interface ToolDocument {
  /** The tool's name: the document's id, and searched as words. */
  readonly name: string;
  readonly tags: string;
  readonly description: string;
  readonly args: string;
  readonly groups: string;
}

/** The fields of a document and how much a match in each counts: a name or tag says what a tool is for. */
export const FIELD_BOOST = Object.freeze({ name: 3, tags: 2, description: 1, args: 1, groups: 0.5 });
export const FIELDS = Object.keys(FIELD_BOOST) as (keyof typeof FIELD_BOOST)[];

/** How deep argument schemas are read (nested objects and array items). */
const MAX_DEPTH = 4;

/**
 * One tool's document.
 * @example
 * toolDocument({ name: 'get_forecast', description: 'Weather ahead', parameters: { type: 'object', properties: { city: { type: 'string' } } } }).args; // → 'city'
 */
export function toolDocument(tool: SearchableTool): ToolDocument {
  const args: string[] = [];
  readSchema(tool.parameters, args, 0);
  return {
    name: tool.name,
    tags: (tool.tags ?? []).join(' '),
    description: tool.description ?? '',
    args: args.join(' '),
    groups: (tool.groups ?? []).join(' '),
  };
}

/** Property names, descriptions and string enum values of a schema, depth-first. */
function readSchema(schema: unknown, out: string[], depth: number): void {
  if (depth > MAX_DEPTH || typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  const s = schema as Record<string, unknown>;
  if (depth > 0 && typeof s['description'] === 'string') out.push(s['description']);
  if (Array.isArray(s['enum'])) for (const v of s['enum']) if (typeof v === 'string') out.push(v);
  const properties = s['properties'];
  if (typeof properties === 'object' && properties !== null) {
    for (const [key, value] of Object.entries(properties)) {
      out.push(key);
      readSchema(value, out, depth + 1);
    }
  }
  readSchema(s['items'], out, depth + 1);
}

/** Common English function words: they say nothing about which tool a task needs. */
const STOP_WORDS = new Set(
  ('a an and are as at be by can could do does for from have how i if in into is it its me my of on or our please ' +
    'should so that the their then there these this those to us was we were what when where which who will with would you your').split(' '),
);

const PLAIN = /^\p{Lu}?[\p{Ll}\p{N}]+$/u;

/**
 * The words of a text: split on anything that is not a letter or digit and on case changes (`HTTPRequest` → `http`,
 * `request`); a compound (`get_weather`) is kept whole beside its parts, so a task naming a tool exactly matches it best.
 * @example
 * words('getWeather.forecast'); // → ['getweather.forecast', 'get', 'weather', 'forecast']
 */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.split(/[\s,;:()[\]{}"'`!?<>=|/\\]+/u)) {
    // Most words of a description are one plain word: no case or separator to split on.
    if (PLAIN.test(chunk)) {
      out.push(chunk.toLowerCase());
      continue;
    }
    const parts = chunk
      .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((p) => p !== '');
    if (parts.length > 1) out.push(chunk.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
    for (const p of parts) out.push(p.toLowerCase());
  }
  return out;
}

/**
 * One word as it is indexed and searched: stop words dropped, the rest reduced to their stem by the Porter stemmer
 * (`forecasts` → `forecast`, `bookings` and `booking` → `book`), so the forms a task and a description use meet.
 * @example
 * term('Hotels'); // → 'hotel'
 */
export function term(word: string): string | null {
  let t = TERMS.get(word);
  if (t === undefined) {
    if (TERMS.size >= 100_000) TERMS.clear();
    TERMS.set(word, (t = reduce(word.toLowerCase())));
  }
  return t;
}

/** `term`'s answers by word: a catalog repeats its words many times. Only tools' words come here, never a query's. */
const TERMS = new Map<string, string | null>();

/**
 * The terms of a query and how often each occurs. A query comes from a model or a user (a pasted log repeats its words
 * thousands of times): its words are reduced without `term`'s cache, which would keep every word ever asked for.
 * @example
 * queryTerms('book a hotel, two hotels'); // → Map { 'book' => 1, 'hotel' => 2, 'two' => 1 }
 */
export function queryTerms(query: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words(query)) {
    const t = reduce(word.toLowerCase());
    if (t !== null) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return counts;
}

/** A lower-cased word as a term: a stop word is none; any other, its Porter stem (`bookings`, `booking` → `book`). */
function reduce(w: string): string | null {
  return STOP_WORDS.has(w) ? null : stemmer(w);
}
