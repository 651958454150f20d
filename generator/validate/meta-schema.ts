/**
 * The meta-schemas a `parameters` schema is checked against, and ajv's options for that check. ajv's validators
 * of these meta-schemas are compiled ahead of time into meta-validators.gen.ts (scripts/meta-validators.ts
 * builds it, `npm run regen` rewrites it, a test fails when it is stale): compiling the 2020-12 meta-schema
 * costs ajv about 60 ms, a tenth of a small spec's codegen, and the compiled code loads in a few.
 */
import type { ErrorObject } from 'ajv';
import type { SchemaDialect } from './schema-keywords.js';

/** A compiled meta-schema validator: ajv's standalone function (ajv sets its errors on the function). */
export interface MetaValidator {
  (schema: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * ajv's strict mode minus the parts that refuse valid JSON Schema (strictTypes, strictTuples,
 * strictRequired, and strictSchema's "ignored keyword" checks, wrong for 2020-12). Unknown keywords
 * and formats are checked by schema-rules.ts, with positions.
 */
export const STRICT = { strict: true, strictSchema: false, strictTypes: false, strictTuples: false, strictRequired: false, logger: false } as const;

/** Each dialect's meta-schema: the id ajv registers it under, the ajv module whose class has it, the scope of its code. */
export const META_SCHEMAS: Readonly<Record<SchemaDialect, { readonly id: string; readonly ajv: string; readonly scope: string }>> = {
  '2020-12': { id: 'https://json-schema.org/draft/2020-12/schema', ajv: 'ajv/dist/2020.js', scope: 'draft2020' },
  'draft-07': { id: 'http://json-schema.org/draft-07/schema', ajv: 'ajv', scope: 'draft07' },
};
