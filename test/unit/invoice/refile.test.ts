/**
 * Create on the paths a re-run takes: rows looked for before filing (on every account: a key
 * replays for 24 hours only), a 409 on a derived key, a refused connection, the execution hint.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { markForm } from '../../../nodes/filing/mark';
import { runNode } from '../../harness/engine';
import { asSent, API, KEYS, NEW_FEATURES, derivedKey, envelope, failure, hintsOf, invoiceFor, jsonParams, listingReply, meReply, row, run, setupSuite, summaryParts } from './helpers';

setupSuite();

const policyList = (policy: string) => nock(API).get('/invoices').query({ policy_number: policy, page: 1, per_page: 100 });

describe('Create looks for the row first (accounts with and without idempotency)', () => {
	it('a row already on its policy comes out as already_filed, nothing is sent; the hint says so', async () => {
		const filedBefore = row({ policy_number: 'P-1' });
		const fresh = row({ policy_number: 'P-2' });
		// An account without the feature; it is not asked: every account looks first.
		const me = nock(API).get('/auth/me').reply(200, meReply([]));
		const p1 = policyList('P-1').reply(200, listingReply([invoiceFor(filedBefore, 700, { status: 'sent' })]));
		const p2 = policyList('P-2').reply(200, listingReply([]));
		const post = nock(API).post('/invoices', asSent(fresh)).reply(201, envelope(invoiceFor(fresh, 701)));
		const result = await run(jsonParams('create', { simplify: true }), { items: [filedBefore, fresh] });
		expect(result.error).toBeUndefined();
		expect(result.output!.map((o) => [o.json.id, o.json.outcome, o.json.status])).toEqual([
			[700, 'already_filed', 'sent'],
			[701, 'filed', 'new'],
		]);
		expect(result.output![0].json.outcomeNote).toContain('Found among the transactions of policy P-1');
		const said = hintsOf(result.run).find((h) => h.type === 'info')?.message;
		expect(summaryParts(result.output!, 2, said)).toMatchObject({ filed: 1, alreadyFiled: 1 });
		expect(me.isDone()).toBe(false);
		p1.done();
		p2.done();
		post.done();
	});

	it('rows of one policy: one listing, and a row equal to one filed earlier in the same run is found, not filed twice', async () => {
		const first = row({ policy_number: 'P-3', net_premium: 100 });
		const endorsement = row({ policy_number: 'P-3', type_code: 'ENDORSEMENT', net_premium: 50, effective_date: '2026-06-01' });
		const listing = policyList('P-3').once().reply(200, listingReply([]));
		const posts = nock(API)
			.post('/invoices')
			.times(2)
			.reply(201, (_uri, body) => {
				const sent = body as IDataObject;
				const type = sent.type_code === 'ENDORSEMENT' ? { id: 3, name: 'Endorsement' } : { id: 1, name: 'New' };
				return envelope(invoiceFor(sent, sent.type_code === 'ENDORSEMENT' ? 802 : 801, { type }));
			});
		const { output } = await run(jsonParams('create'), { items: [first, endorsement, first] });
		expect(output!.map((o) => [o.json.id, o.json.outcome])).toEqual([
			[801, 'filed'],
			[802, 'filed'],
			[801, 'already_filed'],
		]);
		listing.done();
		posts.done();
	});

	it('switched off, or with Idempotency Off: no account check, no listing', async () => {
		const body = row();
		const me = nock(API).get('/auth/me').reply(200, meReply([]));
		nock(API).post('/invoices').times(2).reply(201, envelope(invoiceFor(body, 900)));
		const off = await run(jsonParams('create', { options: { lookFirst: false } }), { items: [body] });
		expect(off.output![0].json.outcome).toBe('filed');
		const keyless = await run(jsonParams('create', { idempotency: 'off' }), { items: [body] });
		expect(keyless.output![0].json.outcome).toBe('filed');
		expect(me.isDone()).toBe(false);
	});

	it('the policy cannot be read: the item fails saying nothing was filed', async () => {
		policyList('POL-100').times(3).reply(500, failure('INTERNAL_ERROR', 'boom'));
		const never = nock(API).post('/invoices').reply(201, envelope({}));
		const { output } = await run(jsonParams('create'), { items: [row()], continueOnFail: true });
		expect(String(output![0].json.error)).toContain('the transactions of policy POL-100 could not be read before filing, so nothing was filed');
		expect(never.isDone()).toBe(false);
	});

	it('an account with the feature is not asked, lists each policy once and sends the rows not found with their keys', async () => {
		const a = row({ policy_number: 'A' });
		const b = row({ policy_number: 'B' });
		const me = nock(API).get('/auth/me').reply(200, meReply(NEW_FEATURES));
		const listA = policyList('A').once().reply(200, listingReply([]));
		const listB = policyList('B').once().reply(200, listingReply([]));
		const postA = nock(API, { reqheaders: { 'idempotency-key': derivedKey(a) } }).post('/invoices', asSent(a)).reply(201, envelope(invoiceFor(a, 1)));
		const postB = nock(API, { reqheaders: { 'idempotency-key': derivedKey(b) } }).post('/invoices', asSent(b)).reply(201, envelope(invoiceFor(b, 2)));
		const { output, error } = await run(jsonParams('create'), { items: [a, b] });
		expect(error).toBeUndefined();
		expect(output!.map((o) => o.json.outcome)).toEqual(['filed', 'filed']);
		expect(me.isDone()).toBe(false);
		listA.done();
		listB.done();
		postA.done();
		postB.done();
	});

	it('an account with the feature: a re-run after the key’s 24 hours finds the row by its mark and sends nothing', async () => {
		const body = row();
		const me = nock(API).get('/auth/me').reply(200, meReply(NEW_FEATURES));
		const listing = policyList('POL-100').once().reply(200, listingReply([invoiceFor(body, 1100, { status: 'sent' })]));
		const never = nock(API).post('/invoices').reply(201, envelope(invoiceFor(body, 1101)));
		const { output, error } = await run(jsonParams('create'), { items: [body] });
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 1100, status: 'sent', outcome: 'already_filed' });
		expect(output![0].json.recognisedBy).toBe(`mark ${markForm(asSent(body).invoice_number)}`);
		expect(never.isDone()).toBe(false);
		expect(me.isDone()).toBe(false);
		listing.done();
	});
});

describe('Create: a 409 on the derived key (Bill Taxes From Preview re-run with new rates)', () => {
	const previewWith = (amount: number) =>
		envelope({ validation: { valid: true, errors: [], warnings: [] }, tax_calculation: { line_items: [{ code: 'sl_tax', amount }] }, invoice: null });

	// Look for Rows Already Filed off: the look before filing would find the first filing by its
	// mark (next test) and nothing would be sent; these tests are about the key's 409 alone.
	it('returns the first filing from the policy, marked already_filed (Look for Rows Already Filed off: the 409 alone)', async () => {
		const body = row();
		nock(API).post('/invoices/preview', asSent(body)).reply(200, previewWith(60));
		nock(API, { reqheaders: { 'idempotency-key': derivedKey(body) } })
			.post('/invoices')
			.reply(409, failure('CONFLICT', 'Idempotency-Key was already used with a different request body'));
		const firstFiling = invoiceFor({ ...asSent(body), fees: [{ type: 'sl_tax', amount: 58.2 }] }, 1041, { status: 'sent' });
		const listing = policyList('POL-100').once().reply(200, listingReply([firstFiling]));
		const { output, error } = await run(jsonParams('create', { options: { billTaxesFromPreview: true, lookFirst: false } }), { items: [body] });
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 1041, status: 'sent', outcome: 'already_filed', fees: [{ type: 'sl_tax', amount: 58.2 }] });
		expect(output![0].json.outcomeNote).toContain('same derived Idempotency-Key but a different body');
		listing.done();
	});

	it('by default the re-run with new rates is found by its mark before filing: nothing is sent', async () => {
		const body = row();
		nock(API).post('/invoices/preview', asSent(body)).reply(200, previewWith(60));
		const never = nock(API).post('/invoices').reply(409, failure('CONFLICT', 'Idempotency-Key was already used with a different request body'));
		const firstFiling = invoiceFor({ ...asSent(body), fees: [{ type: 'sl_tax', amount: 58.2 }] }, 1041, { status: 'sent' });
		const listing = policyList('POL-100').once().reply(200, listingReply([firstFiling]));
		const { output, error } = await run(jsonParams('create', { options: { billTaxesFromPreview: true } }), { items: [body] });
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 1041, status: 'sent', outcome: 'already_filed', fees: [{ type: 'sl_tax', amount: 58.2 }] });
		expect(output![0].json.recognisedBy).toBe(`mark ${markForm(asSent(body).invoice_number)}`);
		expect(never.isDone()).toBe(false);
		listing.done();
	});

	it('not on the policy: the conflict stands', async () => {
		const post = nock(API).post('/invoices').once().reply(409, failure('CONFLICT', 'Idempotency-Key was already used with a different request body'));
		// Read once, by the look before filing; the 409 is looked up in what that read.
		const listing = policyList('POL-100').once().reply(200, listingReply([]));
		const { error } = await run(jsonParams('create'), { items: [row()] });
		expect(error!.message).toContain('CONFLICT');
		post.done();
		listing.done();
	});

	it('an own key: a 409 is the user’s to settle, nothing is looked up (Look for Rows Already Filed off: the 409 alone)', async () => {
		const post = nock(API).post('/invoices').once().reply(409, failure('CONFLICT', 'Idempotency-Key was already used with a different request body'));
		const never = policyList('POL-100').reply(200, listingReply([]));
		const { error } = await run(jsonParams('create', { idempotency: 'own', idempotencyKey: 'row-1', options: { lookFirst: false } }), { items: [row()] });
		post.done();
		expect(error!.message).toContain('CONFLICT');
		expect(never.isDone()).toBe(false);
	});
});

describe('Create: a refused connection', () => {
	beforeAll(() => nock.enableNetConnect('127.0.0.1'));
	it('says plainly that nothing reached the service (not "may have been filed")', async () => {
		// Port 9 (discard) on loopback: nothing listens, so the connection is refused.
		const { output } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', ...jsonParams('create', { options: { lookFirst: false } }) },
			items: [row()],
			credentials: { apiKey: KEYS.t2, baseUrl: 'http://127.0.0.1:9/api/v1' },
			continueOnFail: true,
		});
		const said = `${String(output![0].json.error)}\n${String(output![0].json.description)}`;
		expect(said).toContain('ECONNREFUSED');
		expect(said).toContain('nothing reached the service');
		expect(said).toContain('running again is safe');
		expect(said).not.toMatch(/may have been filed/);
	});

	it('Create Many (t3): every row says nothing reached the service, and the node fails as any would', async () => {
		const { error } = await runNode({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', ...jsonParams('createMany', { options: { lookFirst: false } }) },
			items: [row({ policy_number: 'A' }), row({ policy_number: 'B' })],
			credentials: { apiKey: KEYS.t3, baseUrl: 'http://127.0.0.1:9/api/v1' },
		});
		expect(error!.message).toContain('nothing reached the service');
		expect(`${error!.message}${error!.description}`).not.toContain('may have been filed');
	});
});
