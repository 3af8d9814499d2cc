/**
 * Every loop over `GET /invoices` is bounded (issue 49): against a listing that always reports
 * another page, Get Many with Return All, a Create on a legacy account, the watch list's Look for
 * Changes and a trigger poll each stop at their cap or budget, keep each invoice once, and say so.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { INVOICE_LIST_MAX_PAGES } from '../../nodes/shared/service';
import { endlessListing } from '../helpers/endlessListing';
import { API, envelope, hintsOf, jsonParams, row, run, setupSuite } from './invoice/helpers';
import { activeTrigger } from './trigger/helpers';

setupSuite();

afterEach(() => jest.restoreAllMocks());

/** n8n's Logger as the engine gives it to nodes (`this.logger`): its warnings, kept quiet. */
function warnings(): jest.SpyInstance {
	const common = require(require.resolve('@n8n/backend-common', { paths: [require.resolve('n8n-core')] })) as {
		Logger: { prototype: { warn(message: string): void } };
	};
	return jest.spyOn(common.Logger.prototype, 'warn').mockImplementation(() => undefined);
}

const ids = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.id);
const distinct = (values: unknown[]) => new Set(values).size;

describe('Get Many with Return All over an endless listing', () => {
	it('a page repeated for ever: stops after the first page that adds nothing, 100 distinct items, and says so', async () => {
		const { pages } = endlessListing(API, 'repeat');
		const { output, error, run: executed } = await run({ operation: 'getAll', policyNumber: 'POL-100', returnAll: true });
		expect(error).toBeUndefined();
		expect(pages).toEqual([1, 2]);
		expect(output).toHaveLength(100);
		expect(distinct(ids(output!))).toBe(100);
		expect(hintsOf(executed).map((h) => h.message)).toEqual([
			expect.stringMatching(/^Get Many \(item 1\) did not read the whole listing: 100 distinct invoices were read in 2 calls, then the listing was stopped because page 2 added no invoice not read before\. A listing stops/),
		]);
	});

	it('new ids on every page and a total of a billion: stops at the hard cap, and says so', async () => {
		const { pages } = endlessListing(API, 'fresh');
		const { output, run: executed } = await run({ operation: 'getAll', policyNumber: 'POL-100', returnAll: true });
		expect(pages).toHaveLength(INVOICE_LIST_MAX_PAGES);
		expect(output).toHaveLength(INVOICE_LIST_MAX_PAGES * 100);
		expect(distinct(ids(output!))).toBe(INVOICE_LIST_MAX_PAGES * 100);
		expect(hintsOf(executed)[0].message).toContain(`the listing was stopped because it reached ${INVOICE_LIST_MAX_PAGES} pages, the most one listing reads`);
	});

	it('a total that grows on every page: the first page’s total ends the listing (it ended: no notice)', async () => {
		const { pages } = endlessListing(API, 'growing');
		const { output, run: executed } = await run({ operation: 'getAll', policyNumber: 'POL-100', returnAll: true });
		expect(pages).toEqual([1, 2]);
		expect(output).toHaveLength(200);
		expect(hintsOf(executed)).toEqual([]);
	});
});

describe('a Create on a legacy account (no keys) over an endless listing', () => {
	it('the look for rows already filed stops at the first repeated page and refuses the row: nothing is filed', async () => {
		nock(API).get('/auth/me').reply(200, envelope({ key_name: 'ops', tier: 't2', account: { mode: 'test', features: [] }, scopes: ['invoices'] }));
		const { pages } = endlessListing(API, 'repeat');
		const post = nock(API).post('/invoices').reply(201, envelope({ id: 1 }));
		const { output, error } = await run(jsonParams('create'), { items: [row()] });
		expect(output).toBeUndefined();
		expect(pages).toEqual([1, 2]);
		expect(post.isDone()).toBe(false);
		expect(error!.message).toMatch(/^the transactions of policy POL-100 could not be read before filing, so nothing was filed: The transactions of policy POL-100 were not all read: 100 distinct invoices were read in 2 calls, then the listing was stopped because page 2 added no invoice not read before/);
	});

	it('new ids on every page: stops at the hard cap, nothing is filed', async () => {
		nock(API).get('/auth/me').reply(200, envelope({ key_name: 'ops', tier: 't2', account: { mode: 'test', features: [] }, scopes: ['invoices'] }));
		const { pages } = endlessListing(API, 'fresh');
		const post = nock(API).post('/invoices').reply(201, envelope({ id: 1 }));
		const { error } = await run(jsonParams('create'), { items: [row()] });
		expect(pages).toHaveLength(INVOICE_LIST_MAX_PAGES);
		expect(post.isDone()).toBe(false);
		expect(error!.message).toContain('nothing was filed');
		expect(error!.message).toContain(`it reached ${INVOICE_LIST_MAX_PAGES} pages, the most one listing reads`);
	});
});

describe('Look for Changes over an endless listing', () => {
	it('t2 at 12 looks an hour (20 calls a look): the policy listing stops at 20 calls, and the look says so', async () => {
		const { pages } = endlessListing(API, 'fresh', (id) => ({ id, policy_number: 'POL-100', status: 'new', filing: { state_status: 'not_sent' }, documents: [] }));
		const items = [{ id: 1, invoice_id: 5, policy_number: 'POL-100', state: 'new|not_sent|', checked_at: '', last_event: '', settled: false }];
		const { output, error, run: executed } = await run({ operation: 'watchLook', looksPerHour: 12, options: {} }, { items });
		expect(error).toBeUndefined();
		expect(pages).toHaveLength(20);
		expect(output![0].json).toMatchObject({ invoice_id: 5, changed: false });
		expect(output![0].json.look).toMatchObject({ calls: 20, calls_per_look: 20 });
		const said = hintsOf(executed).map((h) => h.message);
		expect(said).toContainEqual(expect.stringMatching(/^The listing of policy POL-100 was not read whole: 2000 distinct invoices were read in 20 calls, then the listing was stopped because it reached 20 pages, the calls this read may spend/));
	});
});

describe('a trigger poll over an endless listing', () => {
	const policyInvoice = (id: number) => ({ id, policy_number: 'POL-1', status: 'new', documents: [] });

	it('t2, 25%, every 5 minutes (20 calls a poll): new ids on every page stop at 20 calls, the static data stays small, and the log says why', async () => {
		const warned = warnings();
		const { pages } = endlessListing(API, 'fresh', policyInvoice);
		const trigger = activeTrigger({ policyNumbers: 'POL-1' });
		await trigger.poll();
		expect(pages).toHaveLength(20);
		const state = (trigger.staticData as { trigger: { units: Record<string, { known?: number[] }> } }).trigger;
		const known = state.units['p:POL-1'].known!;
		expect(known).toHaveLength(2000);
		expect(distinct(known)).toBe(2000);
		expect(JSON.stringify(trigger.staticData).length).toBeLessThan(250_000);
		expect(warned.mock.calls.map((call) => String(call[0]))).toContainEqual(
			expect.stringMatching(/^Surplus Lines Trigger: The listing of policy POL-1 was not read whole this poll: 2000 distinct invoices were read in 20 calls, then the listing was stopped because it reached 20 pages, the calls this read may spend/),
		);
	});

	it('a page repeated for ever: the poll stops at the second page, each id kept once', async () => {
		const warned = warnings();
		const { pages } = endlessListing(API, 'repeat', policyInvoice);
		const trigger = activeTrigger({ policyNumbers: 'POL-1' });
		await trigger.poll();
		expect(pages).toEqual([1, 2]);
		const state = (trigger.staticData as { trigger: { units: Record<string, { known?: number[] }> } }).trigger;
		expect(state.units['p:POL-1'].known).toHaveLength(100);
		expect(warned.mock.calls.map((call) => String(call[0]))).toContainEqual(
			expect.stringContaining('then the listing was stopped because page 2 added no invoice not read before'),
		);
	});
});
