/**
 * The words and argument-schema templates the benchmark specs are built from:
 * realistic shapes (pagination, id lookup, filters with enums and arrays,
 * nested address and date-range objects). Templates whose schema does not
 * depend on the tool are shared by many tools with byte-identical schemas, so
 * the generator's validator dedupe shows; the others mention the tool's object.
 */

/** A JSON Schema / JSON value as written into the spec. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const DOMAINS = [
  'billing', 'files', 'users', 'github', 'calendar', 'email', 'crm', 'deploy', 'metrics', 'logs',
  'database', 'search', 'storage', 'payments', 'tickets', 'docs', 'chat', 'weather', 'maps', 'inventory',
  'shipping', 'orders', 'catalog', 'analytics', 'security', 'network', 'dns', 'cdn', 'queue', 'cache',
  'secrets', 'audit', 'hr', 'payroll', 'legal', 'marketing', 'ads', 'survey', 'forms', 'notes',
] as const;
export const VERBS = [
  'get', 'list', 'create', 'update', 'delete', 'search', 'export', 'archive', 'sync', 'approve',
  'assign', 'close', 'restore', 'schedule', 'summarize', 'validate',
] as const;
export const OBJECTS = [
  'invoice', 'customer', 'file', 'folder', 'user', 'team', 'repo', 'issue', 'event', 'message',
  'contact', 'deal', 'release', 'service', 'dashboard', 'alert', 'record', 'table', 'index', 'bucket',
  'charge', 'refund', 'ticket', 'page', 'thread', 'forecast', 'route', 'item', 'shipment', 'order',
  'product', 'report', 'policy', 'certificate', 'zone', 'job', 'key', 'entry', 'employee', 'campaign',
] as const;

/** One argument-schema template. `shared` templates give byte-identical schemas to every tool using them. */
export interface Template {
  readonly id: string;
  readonly shared: boolean;
  schema(object: string): JsonObject;
  /** A valid argument object for `schema(object)`. */
  example(object: string): JsonObject;
}

const ORDER: JsonObject = { type: 'string', enum: ['asc', 'desc'], description: 'Sort direction' };
const CURRENCY: JsonObject = { type: 'string', enum: ['EUR', 'USD', 'GBP', 'JPY', 'CHF'], description: 'ISO 4217 code' };
const ADDRESS: JsonObject = {
  type: 'object',
  description: 'Postal address',
  properties: {
    street: { type: 'string' },
    city: { type: 'string', description: 'City name, e.g. Lisbon' },
    postal_code: { type: 'string', pattern: '^[A-Za-z0-9 -]{3,10}$' },
    country: { type: 'string', enum: ['PT', 'FR', 'DE', 'US', 'GB', 'JP', 'BR'] },
  },
  required: ['city', 'country'],
  additionalProperties: false,
};
const DATE_RANGE: JsonObject = {
  type: 'object',
  description: 'Inclusive date range (ISO 8601 dates)',
  properties: {
    from: { type: 'string', description: 'Start date, YYYY-MM-DD' },
    to: { type: 'string', description: 'End date, YYYY-MM-DD' },
  },
  required: ['from', 'to'],
  additionalProperties: false,
};

const TEMPLATES: readonly Template[] = [
  {
    id: 'paginate',
    shared: true,
    schema: () => ({
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 500, default: 50, description: 'Page size' },
        cursor: { type: 'string', description: 'Opaque cursor from the previous page' },
        order: ORDER,
      },
      additionalProperties: false,
    }),
    example: () => ({ limit: 20, order: 'desc' }),
  },
  {
    id: 'by-id',
    shared: true,
    schema: () => ({
      type: 'object',
      properties: {
        id: { type: 'string', minLength: 1, description: 'Identifier' },
        include: { type: 'array', items: { type: 'string', enum: ['owner', 'history', 'links', 'metadata'] }, uniqueItems: true },
      },
      required: ['id'],
      additionalProperties: false,
    }),
    example: () => ({ id: 'id_42', include: ['owner', 'links'] }),
  },
  {
    id: 'search',
    shared: true,
    schema: () => ({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Free-text query' },
        filters: {
          type: 'object',
          properties: {
            status: { type: 'array', items: { type: 'string', enum: ['open', 'closed', 'pending', 'archived'] } },
            created: DATE_RANGE,
            owner: { type: 'string' },
          },
          additionalProperties: false,
        },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      },
      required: ['query'],
      additionalProperties: false,
    }),
    example: () => ({ query: 'overdue', filters: { status: ['open', 'pending'], created: { from: '2026-01-01', to: '2026-03-31' } }, limit: 10 }),
  },
  {
    id: 'export',
    shared: true,
    schema: () => ({
      type: 'object',
      properties: {
        format: { type: 'string', enum: ['csv', 'json', 'xlsx', 'pdf'] },
        range: DATE_RANGE,
        columns: { type: 'array', items: { type: 'string' }, maxItems: 50 },
        compress: { type: 'boolean', default: false },
      },
      required: ['format', 'range'],
      additionalProperties: false,
    }),
    example: () => ({ format: 'csv', range: { from: '2026-01-01', to: '2026-01-31' }, columns: ['id', 'total'] }),
  },
  {
    id: 'schedule',
    shared: true,
    schema: () => ({
      type: 'object',
      properties: {
        at: { type: 'string', description: 'When, ISO 8601 date-time' },
        timezone: { type: 'string', description: 'IANA time zone, e.g. Europe/Paris' },
        repeat: {
          type: 'object',
          properties: {
            every: { type: 'integer', minimum: 1 },
            unit: { type: 'string', enum: ['minute', 'hour', 'day', 'week', 'month'] },
            until: { type: 'string' },
          },
          required: ['every', 'unit'],
          additionalProperties: false,
        },
        notify: { type: 'array', items: { type: 'string', description: 'Email address' } },
      },
      required: ['at'],
      additionalProperties: false,
    }),
    example: () => ({ at: '2026-05-01T09:00:00Z', timezone: 'Europe/Lisbon', repeat: { every: 1, unit: 'week' } }),
  },
  {
    id: 'create',
    shared: false,
    schema: (object) => ({
      type: 'object',
      properties: <JsonObject>{
        name: { type: 'string', minLength: 1, maxLength: 200, description: `Display name of the ${object}` },
        [`${object}_type`]: { type: 'string', enum: ['standard', 'premium', 'internal', 'trial'] },
        owner: {
          type: 'object',
          properties: { id: { type: 'string' }, email: { type: 'string' }, address: ADDRESS },
          required: ['id'],
          additionalProperties: false,
        },
        labels: { type: 'array', items: { type: 'string' }, maxItems: 20 },
        amount: { type: 'number', minimum: 0 },
        currency: CURRENCY,
      },
      required: ['name', `${object}_type`],
      additionalProperties: false,
    }),
    example: (object) => ({
      name: `New ${object}`,
      [`${object}_type`]: 'standard',
      owner: { id: 'u_1', address: { city: 'Lisbon', country: 'PT' } },
      labels: ['q2'],
      amount: 120.5,
      currency: 'EUR',
    }),
  },
  {
    id: 'update',
    shared: false,
    schema: (object) => ({
      type: 'object',
      properties: <JsonObject>{
        [`${object}_id`]: { type: 'string', description: `The ${object} to change` },
        patch: {
          type: 'object',
          description: `Fields of the ${object} to replace`,
          properties: {
            name: { type: 'string' },
            status: { type: 'string', enum: ['active', 'suspended', 'closed'] },
            labels: { type: 'array', items: { type: 'string' } },
            address: ADDRESS,
          },
          additionalProperties: false,
        },
        if_match: { type: 'string', description: 'ETag for optimistic concurrency' },
      },
      required: [`${object}_id`, 'patch'],
      additionalProperties: false,
    }),
    example: (object) => ({ [`${object}_id`]: 'x_7', patch: { status: 'active', labels: ['vip'] } }),
  },
  {
    id: 'bulk',
    shared: false,
    schema: (object) => ({
      type: 'object',
      properties: {
        ids: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 100, description: `${object} ids` },
        reason: { type: 'string', enum: ['duplicate', 'expired', 'requested', 'fraud', 'other'] },
        note: { type: 'string', maxLength: 1000 },
        dry_run: { type: 'boolean', default: true },
      },
      required: ['ids', 'reason'],
      additionalProperties: false,
    }),
    example: () => ({ ids: ['a', 'b', 'c'], reason: 'expired', dry_run: false }),
  },
];

/** Which template a verb uses. */
export const VERB_TEMPLATE: Readonly<Record<(typeof VERBS)[number], string>> = {
  get: 'by-id', list: 'paginate', create: 'create', update: 'update', delete: 'bulk', search: 'search',
  export: 'export', archive: 'bulk', sync: 'paginate', approve: 'by-id', assign: 'update', close: 'bulk',
  restore: 'by-id', schedule: 'schedule', summarize: 'search', validate: 'by-id',
};
export const TEMPLATE_BY_ID = new Map(TEMPLATES.map((t) => [t.id, t]));
