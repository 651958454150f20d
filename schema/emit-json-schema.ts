/**
 * Writes `schema/toolspec.schema.json` from the zod spec schema, so editors
 * (yaml-language-server, VS Code) validate and document specs as you type.
 *
 * Run: `npx tsx schema/emit-json-schema.ts`. A test compares the committed file
 * with a fresh emission, so it cannot go stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { specJsonSchema } from './spec-schema.js';

/** Where the emitted schema is committed. */
export const JSON_SCHEMA_FILE = fileURLToPath(new URL('./toolspec.schema.json', import.meta.url));

/**
 * The exact bytes of `toolspec.schema.json`: 2-space JSON, LF, trailing newline.
 *
 * @example
 * const text = renderSpecJsonSchema();
 * JSON.parse(text).title; // 'toolroute spec'
 */
export function renderSpecJsonSchema(): string {
  const schema = {
    ...specJsonSchema(),
    $id: 'https://toolroute.dev/schema/toolspec.schema.json',
    title: 'toolroute spec',
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(JSON_SCHEMA_FILE, renderSpecJsonSchema());
}
