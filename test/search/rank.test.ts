/**
 * The ranked tool search: words split on case and separators, the generated folder's search loaded on the first
 * `rankByTask` and filled with the spec's tools (their groups' words included), tools registered at run time ranked
 * too, and the result usable with `compile({ tools })` like a prune result.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { term, ToolSearch, words } from '../../search/index.js';
import { createRouter, specFromData } from '../../runtime/index.js';
import * as flatOnly from '../fixtures/flat-only/expected/index.js';
import * as example from '../fixtures/example/expected/index.js';

const TOOLS = [
  { name: 'getWeatherForecast', description: 'Forecast for the coming days', parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } } },
  { name: 'book_hotel', description: 'Reserve a room', tags: ['travel'], parameters: { type: 'object', properties: { check_in: { type: 'string' }, nights: { type: 'integer' } } } },
  { name: 'send_email', description: 'Send an email message', groups: ['Mail', 'Everything about mailboxes'] },
  { name: 'HTTPRequest', description: 'Perform a raw request', parameters: { type: 'object', properties: { method: { enum: ['GET', 'POST'] } } } },
];

describe('search/ words and terms', () => {
  it('splits names on case and separators, keeping a compound whole beside its parts', () => {
    expect(words('getWeatherForecast')).toEqual(['getweatherforecast', 'get', 'weather', 'forecast']);
    expect(words('HTTPRequest ChaDri.change_drink')).toEqual(['httprequest', 'http', 'request', 'chadri.change_drink', 'cha', 'dri', 'change', 'drink']);
    expect(term('the')).toBeNull();
    expect([term('Hotels'), term('cities'), term('booking'), term('address'), term('running')]).toEqual(['hotel', 'citi', 'book', 'address', 'run']);
  });

  it('puts tools of equal score in name order, whatever the order of the query\'s words', () => {
    const tied = ToolSearch.build([{ name: 'export_pdf', description: 'Export pages as document' }, { name: 'export_csv', description: 'Export rows as spreadsheet' }]);
    for (const query of ['spreadsheet or document', 'document or spreadsheet']) expect(tied.rank(query, { k: 2 }), query).toEqual(['export_csv', 'export_pdf']);
  });

  it('reduces a word and its plural or -ing form to one term, so a task and a description using either meet', () => {
    const pairs = [['booking', 'bookings'], ['setting', 'settings'], ['meeting', 'meetings'], ['cache', 'caches'], ['movie', 'movies'], ['cookie', 'cookies'],
      ['match', 'matches'], ['query', 'queries'], ['forecast', 'forecasts'], ['book', 'booking'], ['record', 'recordings']];
    for (const [one, other] of pairs) expect(term(other!), `${one} / ${other}`).toBe(term(one!));
    const search = ToolSearch.build([{ name: 'get_booking', description: 'One booking by its id' }, { name: 'purge_caches', description: 'Empty the caches' }]);
    expect(search.rank('show my bookings', { k: 1 })).toEqual(['get_booking']);
    expect(search.rank('clear the cache', { k: 1 })).toEqual(['purge_caches']);
  });
});

describe('ToolSearch', () => {
  const search = ToolSearch.build(TOOLS);

  it('ranks by names, descriptions, tags, group descriptions and argument names, descriptions and enum values', () => {
    expect(search.rank('will it rain in Lisbon? weather forecast please', { k: 3 })[0]).toBe('getWeatherForecast');
    expect(search.rank('I need a hotel for two nights', { k: 3 })[0]).toBe('book_hotel');
    expect(search.rank('plan my travel', { k: 3 })).toEqual(['book_hotel']);
    expect(search.rank('open my mailboxes', { k: 3 })).toEqual(['send_email']);
    expect(search.rank('which city', { k: 3 })).toEqual(['getWeatherForecast']);
    expect(search.rank('a POST request', { k: 3 })).toEqual(['HTTPRequest']);
    expect(search.rank('send_email to Ana', { k: 1 })).toEqual(['send_email']);
  });

  it('returns at most k, only tools a word matches, only tools `include` accepts; any query is accepted', () => {
    expect(search.rank('weather hotel email request', { k: 2 })).toHaveLength(2);
    expect(search.rank('the of and', { k: 5 })).toEqual([]);
    expect(search.rank('', { k: 5 })).toEqual([]);
    expect(search.rank('weather hotel', { k: 5, include: (n) => n !== 'getWeatherForecast' })).toEqual(['book_hotel']);
    expect(() => search.rank('x', { k: 0 })).toThrow(/k must be a positive integer/);
    // The router's rule, so both refuse the same values: no integer beyond 2^53, a string quoted as given.
    expect(() => search.rank('x', { k: 2 ** 53 })).toThrow(/k must be a positive integer; got 9007199254740992\./);
    expect(() => search.rank('x', { k: '2' as never })).toThrow(/k must be a positive integer; got "2"\./);
  });

  it('ranks tools added one by one as the same tools built at once; a tool added again is replaced', () => {
    const added = new ToolSearch();
    for (const tool of TOOLS) added.add(tool);
    for (const q of ['weather', 'hotel nights', 'email', 'GET', 'city travel request']) expect(added.rank(q, { k: 4 })).toEqual(search.rank(q, { k: 4 }));
    added.add({ name: 'get_stock_price', description: 'Latest price of a share' });
    expect(added.rank('stock price of ACME', { k: 1 })).toEqual(['get_stock_price']);
    added.add({ name: 'get_stock_price', description: 'Dividends paid' });
    expect(added.rank('latest share', { k: 1 })).toEqual([]);
    expect(added.rank('dividends', { k: 1 })).toEqual(['get_stock_price']);
  });
});

describe('router.rankByTask', () => {
  const handlers = Object.fromEntries(flatOnly.spec.tools.map((t) => [t.name, () => 'ok'])) as never;

  it('loads the generated search on first use, indexes the spec and ranks flat tools; the result passes to compile({ tools })', async () => {
    expect((await flatOnly.loadSearch()).has('send_email')).toBe(false);
    let loads = 0;
    // A spec object of its own: the routers of one spec share its index, and other tests rank this spec too.
    const router = createRouter({ spec: { ...flatOnly.spec }, loadSearch: () => (loads++, flatOnly.loadSearch()) }, handlers);
    expect(loads).toBe(0);
    const ranked = await router.rankByTask('email the report to Ana', { k: 2 });
    expect(ranked.tools[0]!.name).toBe('send_email');
    expect(ranked.kept).toBe(ranked.tools.length);
    expect(ranked.total).toBe(flatOnly.spec.flat.length);
    expect([...ranked.tools.map((t) => t.name), ...ranked.removed].sort()).toEqual(flatOnly.spec.tools.map((t) => t.name).sort());
    await router.rankByTask('read a file', { k: 1 });
    expect(loads).toBe(1);
    const payload = router.compile({ target: 'openai', messages: [{ role: 'user', content: 'hi' }], tools: ranked.tools.map((t) => t.name) });
    expect((payload.tools ?? []).map((t) => (t as { function: { name: string } }).function.name)).toEqual(ranked.tools.map((t) => t.name));
  });

  it('routers of one generated spec share its index until one registers a tool, which then gets an index of its own', async () => {
    let loads = 0;
    const generated = { spec: { ...flatOnly.spec }, loadSearch: () => (loads++, flatOnly.loadSearch()) };
    const [one, two] = [createRouter(generated, handlers), createRouter(generated, handlers)];
    expect((await one.rankByTask('email the report', { k: 1 })).tools.map((t) => t.name)).toEqual(['send_email']);
    expect((await two.rankByTask('email the report', { k: 1 })).tools.map((t) => t.name)).toEqual(['send_email']);
    expect(loads).toBe(1);
    one.registerTools([{ name: 'email_digest', description: 'Email a digest of the report' }]);
    expect((await one.rankByTask('email digest of the report', { k: 1 })).tools.map((t) => t.name)).toEqual(['email_digest']);
    expect(loads).toBe(2);
    // The other router's index never saw the registration.
    expect((await two.rankByTask('email digest of the report', { k: 1 })).tools.map((t) => t.name)).toEqual(['send_email']);
    expect(loads).toBe(2);
  });

  it('adds search_tools beside libraryTools given as an array of another realm (a vm context, a test environment)', () => {
    const exampleHandlers = Object.fromEntries(example.spec.tools.map((t) => [t.name, () => 'ok'])) as never;
    const foreign = runInNewContext('[]') as unknown[];
    expect(foreign instanceof Array).toBe(false);
    const names = createRouter(example, exampleHandlers, { searchTools: true, libraryTools: foreign as never }).compile().tools.map((t) => t.name);
    expect(names).toContain('search_tools');
  });

  it("indexes a spec tool with its toolkit's and namespace's names and descriptions", async () => {
    const exampleHandlers = Object.fromEntries(example.spec.tools.map((t) => [t.name, () => 'ok'])) as never;
    const router = createRouter(example, exampleHandlers, { searchTools: { k: 1 } });
    // "APIs" is only in the Weather toolkit's description, so the search finds its tools by it.
    const found = await router.dispatch({ name: 'search_tools', arguments: { query: 'APIs' } });
    expect(found.ok && String(found.result)).toMatch(/\n- get_(forecast|current_weather):/);
    const plain = ToolSearch.build(example.spec.tools.map((t) => ({ name: t.name, description: t.description, tags: t.tags, parameters: t.parameters })));
    expect(plain.rank('APIs', { k: 1 })).toEqual([]);
  });

  it('ranks tools registered at run time; refuses k that is no positive integer and a folder without a search loader', async () => {
    const router = createRouter(flatOnly, handlers);
    router.registerTools([{ name: 'get_stock_price', description: 'Latest price of a share', tags: ['finance'] }]);
    expect((await router.rankByTask('what is the stock price of ACME', { k: 1 })).tools.map((t) => t.name)).toEqual(['get_stock_price']);
    // A tool of a toolkit registered at run time is indexed with its toolkit's name and description, as codegen indexes a
    // spec tool: words only the toolkit's description has find it.
    const searching = createRouter(flatOnly, handlers, { searchTools: { k: 1 } }).registerToolkits([
      { name: 'Ledger', description: 'Invoices and reimbursements of the accounting team', tools: [{ name: 'ledger_get', description: 'Get one entry by id' }] },
    ]);
    const found = await searching.dispatch({ name: 'search_tools', arguments: { query: 'reimbursements' } });
    expect(found.ok && String(found.result)).toMatch(/^.*\n- ledger_get:/);
    // A tool the search has indexed already, put into a toolkit afterwards, is found by that toolkit's words too.
    expect((await router.rankByTask('payroll', { k: 1 })).tools).toEqual([]);
    router.registerToolkits([{ name: 'Payroll', description: 'Salaries and payslips', tools: ['get_stock_price'] }]);
    const regrouped = await router.rankByTask('payslips', { k: 1 });
    expect(regrouped.tools.map((t) => t.name)).toEqual(['get_stock_price']);
    await expect(router.rankByTask('x', { k: 1.5 })).rejects.toThrow(/^rankByTask: options\.k takes a positive integer; got 1\.5\.$/);
    // An option rankByTask does not take is refused, naming the closest, as dispatch's are: never a silent default.
    await expect(router.rankByTask('x', { k: 5, limit: 1 } as never)).rejects.toThrow(/^rankByTask options: unknown name "limit"/);
    await expect(router.rankByTask('x', { k: '2' } as never)).rejects.toThrow(/^rankByTask: options\.k takes a positive integer; got "2"\.$/);
    const bare = createRouter({ spec: specFromData({ formatVersion: 1, hash: 'h', openaiStrict: false, schemas: {}, tools: [], flat: [], namespaces: [], toolkits: [], policies: {} }, { directoryXml: '', validators: [] }) }, {});
    await expect(bare.rankByTask('x', { k: 1 })).rejects.toThrow(/no search loader .*regenerate/);
  });
});
