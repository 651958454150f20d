/** The spec's structure checked against the zod schema in `schema/spec-schema.ts`, as problems a user can act on. */
import type { z } from 'zod';
import { KNOWN_KEYS, SpecSchema, SUPPORTED_SPEC_VERSIONS } from '../../schema/spec-schema.js';
import type { ObjectKind } from '../../schema/spec-schema.js';
import type { SpecPath } from '../load.js';
import { didYouMean } from '../problems.js';
import { TARGETS } from '../../runtime/contract.js';
import { TOOLKIT_LOADING_STRATEGIES } from '../../runtime/toolkit-loading.js';
import { COMMA_HINT, describe } from './context.js';
import type { Context } from './context.js';

type Issue = z.core.$ZodIssue;

/**
 * Pass 1: checks the spec's shape against the zod schema and reports each
 * issue in the user's words (unknown keys with "did you mean", missing keys,
 * wrong types, values outside an enum, an unsupported version).
 *
 * @example
 * checkShape(ctx); // ctx.problems gains e.g. unknown_key for `namespace:` in a namespace
 */
export function checkShape(ctx: Context): void {
  const result = SpecSchema.safeParse(ctx.spec.value);
  if (result.success) return;
  for (const issue of result.error.issues) reportIssue(ctx, issue, []);
}

/** The value at `path` inside `root` (undefined when absent). */
function valueAt(root: unknown, path: SpecPath): unknown {
  let v = root;
  for (const seg of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/** Whether a path is `options.toolkitLoading` (a strategy, or a mapping whose keys are targets). */
function isToolkitLoading(path: readonly (string | number)[]): boolean {
  return path.length === 2 && path[0] === 'options' && path[1] === 'toolkitLoading';
}

/** Which kind of spec object lives at a path (for key lists and messages). */
function kindAt(path: SpecPath): ObjectKind | undefined {
  const p = path.map((s) => (typeof s === 'number' ? '#' : s)).join('/');
  switch (p) {
    case '':
      return 'spec';
    case 'options':
      return 'options';
    case 'namespaces/#':
      return 'namespace';
    case 'toolkits/#':
      return 'toolkit';
    case 'tools/#':
    case 'namespaces/#/tools/#':
    case 'toolkits/#/tools/#':
      return 'tool';
    default:
      return undefined;
  }
}

const KIND_LABEL: Record<ObjectKind, string> = {
  spec: 'the spec (top level)',
  options: '`options`',
  tool: 'a tool',
  namespace: 'a namespace',
  toolkit: 'a toolkit',
};

const EXPECTED_LABEL: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
};

/** Field-specific advice for a missing or mistyped key, keyed by the last path segment. */
const FIELD_HINTS: Record<string, { missing: string; wrong: string }> = {
  version: { missing: 'Add `version: 1` at the top of the spec.', wrong: 'Write `version: 1`.' },
  name: {
    missing: 'Add a `name`: it is how the model calls it and how your code refers to it.',
    wrong: 'Write the name as a string; quote it if YAML reads it as a number or boolean.',
  },
  description: {
    missing: 'Add a `description`: the model reads it to decide when to call it.',
    wrong: 'Write the description as text; quote it if YAML reads it as another type, e.g. `description: "42"`.',
  },
  tools: {
    missing: 'Add `tools:` with at least one tool definition or the name of a tool defined elsewhere.',
    wrong: 'Write `tools:` as a list: each item a tool definition (with name and description) or a tool name.',
  },
  tags: { missing: '', wrong: 'Write tags as a list of strings, e.g. `tags: [file, read]`.' },
  parameters: { missing: '', wrong: 'Write parameters as a mapping: a JSON Schema with `type: object`, or a map from property name to property schema.' },
  returns: { missing: '', wrong: 'Write returns as a mapping: a JSON Schema with `type: object` (or a properties map), like parameters.' },
  deferLoading: { missing: '', wrong: 'Write `deferLoading: true` or `deferLoading: false` (no quotes).' },
  openaiStrict: { missing: '', wrong: 'Write `openaiStrict: true` or `openaiStrict: false` (no quotes).' },
  offerUngroupedTools: { missing: '', wrong: 'Write `offerUngroupedTools: true` or `offerUngroupedTools: false` (no quotes).' },
  toolkitLoading: {
    missing: '',
    wrong: `Write \`toolkitLoading:\` as one of ${TOOLKIT_LOADING_STRATEGIES.join(', ')}, or a mapping from target to strategy, e.g. \`toolkitLoading: { openai: dispatcher, gemini: append }\`.`,
  },
  applyDefaults: { missing: '', wrong: 'Write `applyDefaults: true` or `applyDefaults: false` (no quotes).' },
  namespaces: { missing: '', wrong: 'Write `namespaces:` as a list of namespaces, each with name, description and tools.' },
  toolkits: { missing: '', wrong: 'Write `toolkits:` as a list of toolkits, each with name, description and tools.' },
  policies: { missing: '', wrong: 'Write `policies:` as a mapping from policy name to a list of names, e.g. `prod: [delete_file]`.' },
  options: { missing: '', wrong: 'Write `options:` as a mapping, e.g. `options: { namespaceEncoding: compact }`.' },
};

function reportIssue(ctx: Context, issue: Issue, prefix: (string | number)[]): void {
  const path: (string | number)[] = [...prefix, ...(issue.path as (string | number)[])];
  const value = valueAt(ctx.spec.value, path);
  const last = path[path.length - 1];
  const field = typeof last === 'string' ? last : undefined;
  // Policy lists: `policies.<name>` — the field hints are for spec keys, not policy names.
  const inPolicies = path[0] === 'policies' && path.length >= 2;

  switch (issue.code) {
    case 'unrecognized_keys': {
      const kind = kindAt(path);
      const perTarget = isToolkitLoading(path);
      const known: readonly string[] = perTarget ? TARGETS : kind ? KNOWN_KEYS[kind] : [];
      for (const key of issue.keys) {
        if (valueAt(ctx.spec.value, [...path, key]) === null && /\s/.test(key)) {
          ctx.add('unknown_key', [...path, key], `unknown key ${JSON.stringify(key)} (with no value) in ${kind ? KIND_LABEL[kind] : 'this mapping'}.`, COMMA_HINT, 'key');
          continue;
        }
        const suggestion = didYouMean(key, known);
        const elsewhere = suggestion === '' ? misplacedKeyHint(key, kind) : '';
        if (perTarget) {
          ctx.add('unknown_key', [...path, key], `${JSON.stringify(key)} in \`options.toolkitLoading\` is not a target.`,
            [suggestion, `Targets: ${TARGETS.join(', ')}.`].filter((s) => s !== '').join(' '), 'key');
          continue;
        }
        ctx.add('unknown_key', [...path, key], `unknown key ${JSON.stringify(key)} in ${kind ? KIND_LABEL[kind] : 'this mapping'}.`,
          [suggestion, elsewhere, suggestion || elsewhere ? '' : `Keys allowed here: ${known.join(', ')}.`, 'Remove the key or fix its spelling.'].filter((s) => s !== '').join(' '), 'key');
      }
      return;
    }
    case 'invalid_union': {
      if (isToolkitLoading(path)) {
        // A strategy name, or a mapping from target to strategy: report the form the user wrote.
        const mapping = typeof value === 'object' && value !== null && !Array.isArray(value);
        const branch = issue.errors[mapping ? 1 : 0] ?? [];
        if (mapping || typeof value === 'string') {
          for (const inner of branch) reportIssue(ctx, inner, path);
          return;
        }
        ctx.add('wrong_type', path, `expected a strategy name or a mapping from target to strategy, but found ${describe(value)}.`, FIELD_HINTS['toolkitLoading']!.wrong);
        return;
      }
      // A tool list entry: a name (string) or a definition (mapping). Report the branch the user meant.
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        const objectBranch = issue.errors.find((branch) => !branch.some((i) => i.code === 'invalid_type' && i.path.length === 0));
        if (objectBranch) {
          for (const inner of objectBranch) reportIssue(ctx, inner, path);
          return;
        }
      }
      ctx.add('wrong_type', path, `expected a tool definition (a mapping) or a tool name (a string), but found ${describe(value)}.`,
        'Write either `- name_of_a_tool_defined_elsewhere` or a definition `- { name: ..., description: ... }`.');
      return;
    }
    case 'invalid_value': {
      if (path.length === 1 && path[0] === 'version' && value === undefined) {
        ctx.add('missing_key', path, 'the spec has no "version"; it is required.', 'Add `version: 1` at the top of the spec.');
        return;
      }
      if (path.length === 1 && path[0] === 'version') {
        ctx.add('unsupported_version', path, `spec version ${JSON.stringify(value)} is not supported.`,
          `This toolroute reads spec version${SUPPORTED_SPEC_VERSIONS.length > 1 ? 's' : ''} ${SUPPORTED_SPEC_VERSIONS.join(', ')}: write \`version: 1\` (a number, not a string).`);
        return;
      }
      const allowed = issue.values.map((v) => JSON.stringify(v));
      const suggestion = typeof value === 'string' ? didYouMean(value, issue.values.map(String)) : '';
      const label = isToolkitLoading(path.slice(0, -1)) ? `strategy for ${field ?? 'this target'}` : isToolkitLoading(path) ? 'toolkitLoading strategy' : (field ?? 'value');
      ctx.add('invalid_value', path, `${JSON.stringify(value)} is not a valid ${label}.`,
        `${suggestion ? `${suggestion} ` : ''}Use one of: ${allowed.join(', ')}.`);
      return;
    }
    case 'invalid_type': {
      const parent = path.slice(0, -1);
      const parentValue = valueAt(ctx.spec.value, parent);
      const absent = value === undefined && typeof last === 'string' && typeof parentValue === 'object' && parentValue !== null && !(last in parentValue);
      if (path.length === 0) {
        if (value === null || value === undefined) {
          ctx.add('wrong_type', path, 'the spec is empty.', 'Start with `version: 1` and add `tools:`, `namespaces:` or `toolkits:`.');
        } else {
          ctx.add('wrong_type', path, `the spec must be a mapping, but found ${describe(value)}.`, 'Start with `version: 1` and add `tools:`, `namespaces:` or `toolkits:` as top-level keys.');
        }
        return;
      }
      if (absent) {
        const kind = kindAt(parent);
        const hint = (field && FIELD_HINTS[field]?.missing) || `Add \`${String(last)}\`.`;
        ctx.add('missing_key', path, `${kind ? KIND_LABEL[kind].replace(/^a /, 'this ').replace(/^the spec \(top level\)$/, 'the spec') : 'this mapping'} has no ${JSON.stringify(last)}; it is required.`, hint);
        return;
      }
      const expected = EXPECTED_LABEL[issue.expected] ?? issue.expected;
      const hint = inPolicies
        ? 'Write each policy as a list of tool, namespace or toolkit names, e.g. `prod: [delete_file, tail_logs]`.'
        : (field && FIELD_HINTS[field]?.wrong) || (path[path.length - 2] === 'tags' ? 'Write each tag as a string.' : `Write ${expected} here.`);
      ctx.add('wrong_type', path, `expected ${expected}, but found ${describe(value)}.`, hint);
      return;
    }
    default:
      ctx.add('wrong_type', path, `${issue.message}.`, 'Fix the value.');
  }
}

/** "…is a key of a tool, not of a namespace" when the key belongs one level away (bad indentation). */
function misplacedKeyHint(key: string, kind: ObjectKind | undefined): string {
  if (!kind) return '';
  const owners = (Object.keys(KNOWN_KEYS) as ObjectKind[]).filter((k) => k !== kind && (KNOWN_KEYS[k] as readonly string[]).includes(key));
  if (owners.length === 0) return '';
  return `${JSON.stringify(key)} is a key of ${owners.map((o) => KIND_LABEL[o]).join(' or ')}, not of ${KIND_LABEL[kind]}: check the indentation.`;
}
