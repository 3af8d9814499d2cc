/**
 * Panel weight: from Invoice typeVersion 2, Idempotency and the own Idempotency Key
 * are Create's and Create Many's Options entries; a workflow saved with version 1 keeps them on the
 * main panel and runs as before. Each run goes through n8n's engine, which drops the parameters a
 * node's version does not show (Workflow → getNodeParameters), as a saved workflow loads in n8n.
 */
import nock from 'nock';
import { NodeHelpers, type IDataObject, type INode, type INodeProperties } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../../harness/engine';
import { asSent, API, BASE, KEYS, derivedKey, envelope, invoiceFor, jsonParams, listingReply, row, setupSuite } from './helpers';

setupSuite();

/** The policy's listing a run with a key reads before filing (the look first): nothing filed yet. */
function nothingFiledOn(policyNumber: string) {
	return nock(API).get('/invoices').query({ policy_number: policyNumber, page: 1, per_page: 100 }).reply(200, listingReply([]));
}

/**
 * Taxed already, and v2's preview switched off: the only calls are the create and, where a key
 * is sent, the policy's listing before it (Look for Rows Already Filed, on by default).
 */
const body = row({ fees: [{ type: 'sl_tax', amount: 58.2 }] });

function create(typeVersion: number, extra: IDataObject, key = KEYS.t2, items: IDataObject[] = [body]) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', ...jsonParams('create', { billTaxesFromPreview: false, ...extra }) },
		items,
		credentials: { apiKey: key, baseUrl: BASE },
		settings: { typeVersion },
	});
}

/**
 * The Idempotency-Key header of the one create call (undefined when none was sent). With a key,
 * the policy's listing is read first and shows nothing, so the row is sent with its key; without
 * one nothing is looked for (an unexpected listing would fail the run: no interceptor answers it).
 */
function expectCreateWithKey(key: string | undefined) {
	let seen: string | string[] | undefined = 'no call';
	const listing = key === undefined ? undefined : nothingFiledOn(String(body.policy_number));
	const scope = nock(API)
		.post('/invoices', asSent(body))
		.reply(function () {
			seen = this.req.headers['idempotency-key'];
			return [201, envelope(invoiceFor(body, 3001))];
		});
	return () => {
		listing?.done();
		scope.done();
		expect(seen).toBe(key);
	};
}

describe('version 2: Idempotency is read from Options', () => {
	it('derived from the invoice when Options do not set it', async () => {
		const check = expectCreateWithKey(derivedKey(body));
		const { error } = await create(2, { options: {} });
		expect(error).toBeUndefined();
		check();
	});

	it('an own key from Options, checked locally before any call', async () => {
		const check = expectCreateWithKey('row-17');
		expect((await create(2, { options: { idempotency: 'own', idempotencyKey: 'row-17' } })).error).toBeUndefined();
		check();

		const never = nock(API).post('/invoices').reply(201, envelope({}));
		const bad = await create(2, { options: { idempotency: 'own', idempotencyKey: 'has a space' } });
		expect(bad.error!.message).toBe('Invalid input, nothing was sent: Idempotency Key: must not contain spaces');
		expect(never.isDone()).toBe(false);
	});

	it('off in Options sends no key', async () => {
		const check = expectCreateWithKey(undefined);
		expect((await create(2, { options: { idempotency: 'off' } })).error).toBeUndefined();
		check();
	});

	it('a main-panel value in a version 2 node is not read (version 2 does not show it)', async () => {
		const check = expectCreateWithKey(derivedKey(body));
		expect((await create(2, { idempotency: 'off', options: {} })).error).toBeUndefined();
		check();
	});

	it('Create Many: each row’s own key from Options goes inside the batch', async () => {
		const items = [row({ policy_number: 'POL-1' }), row({ policy_number: 'POL-2' })];
		const listings = [nothingFiledOn('POL-1'), nothingFiledOn('POL-2')];
		let sent: IDataObject[] = [];
		nock(API)
			.post('/invoices/batch')
			.reply(200, (_uri, request) => {
				sent = (request as { invoices: IDataObject[] }).invoices;
				return envelope({ results: sent.map((invoice, index) => ({ index, success: true, invoice: invoiceFor(invoice, 40 + index) })) });
			});
		const { error } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: {
				resource: 'invoice',
				...jsonParams('createMany', {
					options: { idempotency: 'own', idempotencyKey: '={{ "own-" + $json.policy_number }}' },
				}),
			},
			items,
			credentials: { apiKey: KEYS.t3, baseUrl: BASE },
			settings: { typeVersion: 2 },
		});
		expect(error).toBeUndefined();
		for (const listing of listings) listing.done();
		expect(sent.map((i) => i.idempotency_key)).toEqual(['own-POL-1', 'own-POL-2']);
	});
});

describe('version 1 (saved workflows) reads the main panel as before', () => {
	it('an own key on the main panel', async () => {
		const check = expectCreateWithKey('row-18');
		expect((await create(1, { idempotency: 'own', idempotencyKey: 'row-18', options: {} })).error).toBeUndefined();
		check();
	});

	it('Options cannot switch it off in version 1 (the entry is not offered there)', async () => {
		const check = expectCreateWithKey(derivedKey(body));
		expect((await create(1, { options: { idempotency: 'off' } })).error).toBeUndefined();
		check();
	});
});

describe('what each version’s panel shows', () => {
	const { properties } = new SurplusLinesInvoice().description;

	/** Names n8n shows among `list` for these values (n8n-workflow's own display check). */
	function shown(list: INodeProperties[], values: IDataObject, typeVersion: number, root = values): string[] {
		const node = { typeVersion } as INode;
		return list
			.filter((p) => NodeHelpers.displayParameter(values as never, p, node, null, root as never))
			.map((p) => p.name);
	}

	function panel(typeVersion: number, operation: string, options: IDataObject = {}) {
		const values = { resource: 'invoice', operation, inputMode: 'fields', options };
		const top = shown(properties, values, typeVersion);
		const collection = properties.find((p) => p.name === 'options' && shown([p], values, typeVersion).length)!;
		return { top, options: shown(collection.options as INodeProperties[], options, typeVersion, values) };
	}

	it.each(['create', 'createMany'])('%s, version 2: Idempotency in Options; the key once Own Key is chosen', (operation) => {
		const v2 = panel(2, operation);
		expect(v2.top).not.toContain('idempotency');
		expect(v2.top).not.toContain('idempotencyKey');
		expect(v2.options).toContain('idempotency');
		expect(v2.options).not.toContain('idempotencyKey');
		expect(panel(2, operation, { idempotency: 'own' }).options).toContain('idempotencyKey');
	});

	it.each(['create', 'createMany'])('%s, version 1: Idempotency on the main panel, not in Options', (operation) => {
		const v1 = panel(1, operation);
		expect(v1.top).toContain('idempotency');
		expect(v1.options).not.toContain('idempotency');
		expect(v1.options).not.toContain('idempotencyKey');
	});

	it('version 1 and 2 Create Options, in order', () => {
		expect(panel(1, 'create').options).toEqual(['billTaxesFromPreview', 'lookFirst', 'lookAlike', 'lostCreateWaitSeconds', 'writeMark', 'replayedView', 'sheetTaxCheck', 'sheetTaxTolerance', 'unknownLineOfBusiness']);
		expect(panel(2, 'create', { idempotency: 'own' }).options).toEqual(['idempotency', 'idempotencyKey', 'lookFirst', 'lookAlike', 'lostCreateWaitSeconds', 'writeMark', 'replayedView', 'sheetTaxCheck', 'sheetTaxTolerance', 'unknownLineOfBusiness']);
	});
});
