/**
 * Create Many (t3) after the batch call timed out: the service may still be storing the batch, so
 * the node waits before it looks for the rows among their policies' transactions, and looks once
 * more for rows not yet there, as a timed-out single create does. The timeout is real (a loopback
 * server that never answers the batch POST); the waits run on the fake clock. The Timeout covers
 * every call of the run, so it is long enough (3 s) that a reply that is merely slow on a loaded
 * machine is not taken for a lost one: only the 'hang' step waits it out.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../../harness/engine';
import { scriptedServer, type Step } from '../../helpers/scriptedServer';
import { KEYS, envelope, invoiceFor, jsonParams, row, setupSuite } from './helpers';

const TIMEOUT_SECONDS = 3;
const LOOK = TIMEOUT_SECONDS * 1000;

const suite = setupSuite();
beforeAll(() => nock.enableNetConnect('127.0.0.1'));

const listing = (invoices: IDataObject[]): Step => ({
	status: 200,
	body: envelope({ invoices, pagination: { page: 1, per_page: 100, total: invoices.length } }),
});
const created = (invoice: IDataObject): Step => ({ status: 201, body: envelope(invoice) });

const rowA = row({ policy_number: 'POL-A', net_premium: 100 });
const rowB = row({ policy_number: 'POL-B', net_premium: 200 });

const me = (features: string[]): Step => ({
	status: 200,
	body: envelope({ key_name: 'ops', tier: 't3', account: { mode: 'test', features }, scopes: ['invoices'] }),
});

/**
 * Runs Create Many (t3, Timeout 3 s, Max Wait for a Lost Create 6 s) on rows A and B against
 * `steps`, after the look for each row before filing (on every account: neither is there yet);
 * returns the run and the requests after those. The account is asked whether it replays by key
 * only once the batch reply is lost (`me` in the steps).
 */
async function createManyAgainst(steps: Step[]) {
	const before = [listing([]), listing([])];
	const server = await scriptedServer([...before, ...steps]);
	try {
		const result = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: {
				resource: 'invoice',
				...jsonParams('createMany', { requestOptions: { timeoutSeconds: TIMEOUT_SECONDS }, options: { lostCreateWaitSeconds: 2 * TIMEOUT_SECONDS } }),
			},
			items: [rowA, rowB],
			credentials: { apiKey: KEYS.t3, baseUrl: server.baseUrl },
		});
		// The look first: each policy listed once, before the batch call (in either order).
		const looked = server.seen.slice(0, before.length).map((r) => `${r.method} ${r.url}`);
		expect(looked).toEqual(expect.arrayContaining([listOf('POL-A'), listOf('POL-B')]));
		const requests = server.seen.slice(before.length).map((r) => `${r.method} ${r.url}`);
		const bodies = server.seen.slice(before.length).map((r) => r.body);
		return { ...result, requests, bodies };
	} finally {
		await server.close();
	}
}

const POST_BATCH = 'POST /api/v1/invoices/batch';
const ASK_ACCOUNT = 'GET /api/v1/auth/me';
const listOf = (policy: string) => expect.stringMatching(new RegExp(`^GET /api/v1/invoices\\?.*${policy}`));

describe('Create Many after the batch call timed out', () => {
	it('waits, looks, waits, looks again: rows stored late are recovered and nothing is filed again', async () => {
		const { output, error, requests } = await createManyAgainst([
			'hang',
			me([]),
			listing([]),
			listing([]),
			listing([invoiceFor(rowA, 2001)]),
			listing([invoiceFor(rowB, 2002)]),
		]);
		expect(error).toBeUndefined();
		expect(output!.map((o) => [o.json.id, o.json._recovered])).toEqual([[2001, true], [2002, true]]);
		expect(requests).toEqual([POST_BATCH, ASK_ACCOUNT, listOf('POL-A'), listOf('POL-B'), listOf('POL-A'), listOf('POL-B')]);
		// min(Timeout, 10 s) before each look; no POST after the batch.
		expect(suite.clock.sleeps).toEqual([LOOK, LOOK]);
	});

	it('the second look lists only the rows the first did not find', async () => {
		const { output, requests } = await createManyAgainst([
			'hang',
			me([]),
			listing([invoiceFor(rowA, 2011)]),
			listing([]),
			listing([invoiceFor(rowB, 2012)]),
		]);
		expect(output!.map((o) => o.json.id)).toEqual([2011, 2012]);
		expect(requests).toEqual([POST_BATCH, ASK_ACCOUNT, listOf('POL-A'), listOf('POL-B'), listOf('POL-B')]);
		expect(suite.clock.sleeps).toEqual([LOOK, LOOK]);
	});

	it('one wait when the first look finds every row', async () => {
		const { output, requests } = await createManyAgainst([
			'hang',
			me([]),
			listing([invoiceFor(rowA, 2021)]),
			listing([invoiceFor(rowB, 2022)]),
		]);
		expect(output!.map((o) => o.json.id)).toEqual([2021, 2022]);
		expect(requests).toEqual([POST_BATCH, ASK_ACCOUNT, listOf('POL-A'), listOf('POL-B')]);
		expect(suite.clock.sleeps).toEqual([LOOK]);
	});

	it('a row missing after both looks is filed once on its own', async () => {
		const { output, requests } = await createManyAgainst([
			'hang',
			me([]),
			listing([invoiceFor(rowA, 2031)]),
			listing([]),
			listing([]),
			created(invoiceFor(rowB, 2032)),
		]);
		expect(output!.map((o) => [o.json.id, o.json._recovered, o.json.outcome])).toEqual([[2031, true, 'filed'], [2032, undefined, 'sent_again']]);
		expect(requests).toEqual([POST_BATCH, ASK_ACCOUNT, listOf('POL-A'), listOf('POL-B'), listOf('POL-B'), 'POST /api/v1/invoices']);
		expect(suite.clock.sleeps).toEqual([LOOK, LOOK]);
	});

	it('a dropped batch reply is still looked up at once, one look, as before', async () => {
		const { output, requests } = await createManyAgainst([
			'drop',
			me([]),
			listing([invoiceFor(rowA, 2041)]),
			listing([]),
			created(invoiceFor(rowB, 2042)),
		]);
		expect(output!.map((o) => [o.json.id, o.json.outcome])).toEqual([[2041, 'filed'], [2042, 'sent_again']]);
		expect(requests).toEqual([POST_BATCH, ASK_ACCOUNT, listOf('POL-A'), listOf('POL-B'), 'POST /api/v1/invoices']);
		expect(suite.clock.sleeps).toEqual([]);
	});

	it('an account with idempotency: the same batch, with the same per-row keys, is sent again at once; no look after the loss', async () => {
		const batchReply: Step = {
			status: 200,
			body: envelope({ results: [{ index: 0, success: true, replayed: true, invoice: invoiceFor(rowA, 2051) }, { index: 1, success: true, invoice: invoiceFor(rowB, 2052) }] }),
		};
		const { output, requests, bodies } = await createManyAgainst(['hang', me(['idempotency']), batchReply]);
		expect(output!.map((o) => [o.json.id, o.json.outcome, o.json._recovered])).toEqual([[2051, 'filed', true], [2052, 'filed', undefined]]);
		expect(requests).toEqual([POST_BATCH, ASK_ACCOUNT, POST_BATCH]);
		expect(bodies[2]).toBe(bodies[0]);
		expect(suite.clock.sleeps).toEqual([]);
	});
});
