/**
 * Create after a timeout on an account without idempotency: the service may still be storing the
 * first attempt, so the node waits before it looks among the policy's transactions and looks once
 * more before it files again. The account is asked (`GET /auth/me`) only once the reply is lost:
 * the look before filing is made on every account. The timeout is real (a loopback server that never answers the first
 * POST); the node's waits run on the fake clock and are recorded. The Timeout covers every call of
 * the run, so it is long enough (3 s) that a reply that is merely slow on a loaded machine is not
 * taken for a lost one: only the 'hang' step waits it out.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { lookSchedule, settleDelayMs } from '../../../nodes/filing/fileInvoice';
import { runNode } from '../../harness/engine';
import { scriptedServer, type Step } from '../../helpers/scriptedServer';
import { GATEWAY_TIMEOUT, KEYS, envelope, invoiceFor, jsonParams, row, setupSuite } from './helpers';

const TIMEOUT_SECONDS = 3;
const FIRST = TIMEOUT_SECONDS * 1000;

const suite = setupSuite();
beforeAll(() => nock.enableNetConnect('127.0.0.1'));

const legacyMe: Step = {
	status: 200,
	body: envelope({ key_name: 'ops', tier: 't2', account: { mode: 'test', features: [] }, scopes: ['invoices'] }, 'req_me'),
};
const listing = (invoices: IDataObject[]): Step => ({
	status: 200,
	body: envelope({ invoices, pagination: { page: 1, per_page: 100, total: invoices.length } }),
});
const created = (invoice: IDataObject): Step => ({ status: 201, body: envelope(invoice) });

/**
 * Runs Create (Timeout 3 s) against a server answering the look before filing with an empty
 * listing, the first POST with `first`, the account check that follows a lost reply with an
 * account without idempotency, then with `after`; returns the run and the requests seen.
 */
async function createAgainst([first, ...after]: Step[], body: IDataObject, options: IDataObject = {}) {
	const server = await scriptedServer([listing([]), first, legacyMe, ...after]);
	try {
		const result = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', ...jsonParams('create', { requestOptions: { timeoutSeconds: TIMEOUT_SECONDS }, options }) },
			items: [body],
			credentials: { apiKey: KEYS.t2, baseUrl: server.baseUrl },
		});
		// The look before filing comes first on every run, before anything is sent.
		expect(server.seen[0]).toMatchObject({ method: 'GET', url: '/api/v1/invoices?page=1&per_page=100&policy_number=POL-100' });
		const requests = server.seen.slice(1).map((r) => `${r.method} ${r.url.replace(/\?.*$/, '')}`);
		return { ...result, requests };
	} finally {
		await server.close();
	}
}

describe('Create after a timeout on a legacy account', () => {
	it('waits, looks, waits, looks again, finds the invoice stored late and files nothing more', async () => {
		const body = row();
		const { output, error, requests } = await createAgainst(['hang', listing([]), listing([invoiceFor(body, 1050)])], body);
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 1050, _recovered: true });
		expect(requests).toEqual(['POST /api/v1/invoices', 'GET /api/v1/auth/me', 'GET /api/v1/invoices', 'GET /api/v1/invoices']);
		// min(Timeout, 10 s) before the first look, the last at Max Wait for a Lost Create (20 s);
		// the POST itself was not resent by the transport.
		expect(suite.clock.sleeps).toEqual([FIRST, 20_000 - FIRST]);
	});

	it('one wait when the first look finds it', async () => {
		const body = row();
		const { output, requests } = await createAgainst(['hang', listing([invoiceFor(body, 1052)])], body);
		expect(output![0].json).toMatchObject({ id: 1052, _recovered: true });
		expect(requests).toEqual(['POST /api/v1/invoices', 'GET /api/v1/auth/me', 'GET /api/v1/invoices']);
		expect(suite.clock.sleeps).toEqual([FIRST]);
	});

	it('not there after both looks: files once more', async () => {
		const body = row();
		const { output, requests } = await createAgainst(['hang', listing([]), listing([]), created(invoiceFor(body, 1054))], body);
		expect(output![0].json).toMatchObject({ id: 1054, outcome: 'sent_again' });
		expect(output![0].json.outcomeNote).toBe(
			'An earlier attempt got no usable reply and was not found on policy POL-100 within 20 s, so the invoice was sent again. If the service stored the earlier attempt later, policy POL-100 holds it twice: check its transactions (Get Many).',
		);
		expect(output![0].json._recovered).toBeUndefined();
		expect(requests).toEqual(['POST /api/v1/invoices', 'GET /api/v1/auth/me', 'GET /api/v1/invoices', 'GET /api/v1/invoices', 'POST /api/v1/invoices']);
		expect(suite.clock.sleeps).toEqual([FIRST, 20_000 - FIRST]);
	});

	it('a gateway 504 or a dropped reply is looked up at once, one look, as before', async () => {
		for (const first of [{ status: 504, body: GATEWAY_TIMEOUT } as Step, 'drop' as Step]) {
			suite.clock.sleeps.length = 0;
			const body = row();
			const { output, requests } = await createAgainst([first, listing([]), created(invoiceFor(body, 1055))], body);
			expect(output![0].json).toMatchObject({ id: 1055 });
			expect(requests).toEqual(['POST /api/v1/invoices', 'GET /api/v1/auth/me', 'GET /api/v1/invoices', 'POST /api/v1/invoices']);
			expect(suite.clock.sleeps).toEqual([]);
		}
	});

	it('Max Wait for a Lost Create sets the last look: 60 s waits the Timeout (3 s), then 57 s', async () => {
		const body = row();
		const { output } = await createAgainst(['hang', listing([]), listing([invoiceFor(body, 1056)])], body, { lostCreateWaitSeconds: 60 });
		expect(output![0].json).toMatchObject({ id: 1056, _recovered: true, outcome: 'filed' });
		expect(suite.clock.sleeps).toEqual([FIRST, 60_000 - FIRST]);
	});

	it('the first wait is the Timeout setting, at most 10 s; the last is Max Wait for a Lost Create', () => {
		expect(settleDelayMs(0.2)).toBe(200);
		expect(settleDelayMs(5)).toBe(5000);
		expect(settleDelayMs(30)).toBe(10_000);
		expect(lookSchedule(30, 20)).toEqual([10_000, 10_000]);
		expect(lookSchedule(30, 5)).toEqual([5000]);
		expect(lookSchedule(0.2, 0)).toEqual([0]);
	});
});
