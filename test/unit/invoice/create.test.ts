import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { asSent, API, KEYS, NEW_FEATURES, derivedKey, envelope, failure, hintsOf, invoiceFor, jsonParams, listingReply, GATEWAY_TIMEOUT, row, run, setupSuite, summaryParts } from './helpers';

const suite = setupSuite();

function me(features: string[]) {
	return envelope({ key_name: 'ops', tier: 't2', account: { mode: 'test', features }, scopes: ['invoices'] }, 'req_me');
}
/**
 * The look before filing every Create makes (Look for Rows Already Filed is on by default, on
 * every account): one listing of the row's policy, which does not hold the row. The account is
 * no longer asked (`GET /auth/me`) for it (refile.test.ts asserts that).
 */
const policyWithoutTheRow = (policy = 'POL-100') =>
	nock(API).get('/invoices').query({ policy_number: policy, page: 1, per_page: 100 }).once().reply(200, listingReply([]));
async function runWithHints(parameters: IDataObject, items: IDataObject[]) {
	const result = await run(parameters, { items });
	return { ...result, hints: hintsOf(result.run).map((h) => h.message) };
}
const emptyPolicy = () => nock(API).get('/invoices').query(true).reply(200, envelope({ invoices: [], pagination: { page: 1, per_page: 100, total: 0 } }));

describe('Create', () => {
	it('sends the checked body with a derived Idempotency-Key and returns the invoice as the service gave it', async () => {
		const listing = policyWithoutTheRow();
		const body = row({ fees: [{ type: 'policy_fee_company', amount: 150 }] });
		const scope = nock(API, { reqheaders: { 'idempotency-key': derivedKey(body) } })
			.post('/invoices', asSent(body))
			.reply(201, envelope(invoiceFor(body, 1001, { warnings: ["Class code '1' not held"] }), 'req_c1'));
		const { output, error } = await run(jsonParams('create'), { items: [body] });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(1);
		expect(output![0].json.id).toBe(1001);
		expect(output![0].json.warnings).toEqual(["Class code '1' not held"]);
		expect(output![0].json._replayed).toBeUndefined();
		expect(output![0].pairedItem).toEqual({ item: 0 });
		listing.done();
		scope.done();
	});

	it('numbers given as text (spreadsheet rows) are sent as numbers; the state code in capitals', async () => {
		const listing = policyWithoutTheRow();
		const sent = row({ net_premium: 1200.5, state_code: 'TX' });
		const scope = nock(API).post('/invoices', asSent(sent)).reply(201, envelope(invoiceFor(sent, 1002)));
		const { error } = await run(jsonParams('create'), { items: [row({ net_premium: '1200.50', state_code: 'tx' })] });
		expect(error).toBeUndefined();
		listing.done();
		scope.done();
	});

	it('a replay (Idempotent-Replayed: true) is read again: the item shows the invoice as it is now, outcome replayed', async () => {
		// The policy's listing does not hold the row yet (another run filed it since): the key replays it.
		const listing = policyWithoutTheRow();
		const body = row({ fees: [{ type: 'policy_fee_company', amount: 100 }, { type: 'sl_tax', amount: 58.5 }] });
		nock(API)
			.post('/invoices', asSent(body))
			.reply(201, envelope(invoiceFor(body, 1003, { warnings: ['w1'] })), { 'Idempotent-Replayed': 'true' });
		const reread = nock(API).get('/invoices/1003').reply(200, envelope(invoiceFor(body, 1003, { warnings: ['w1'], status: 'sent', filed: true })));
		const { output, hints } = await runWithHints(jsonParams('create', { simplify: true }), [body]);
		expect(output![0].json).toEqual({
			recognisedBy: 'idempotency key',
			id: 1003,
			policy_number: 'POL-100',
			type: 'New',
			status: 'sent',
			filed: true,
			state: 'TX',
			net_premium: 1200,
			fees_total: 158.5,
			warnings: ['w1'],
			outcome: 'replayed',
			outcomeNote: 'The service returned the first filing for this Idempotency-Key; the invoice was read again and shows its status now.',
			_replayed: true,
			// Its row, as a sheet with a header row shows it (the first item is row 2).
			sheetRow: 2,
		});
		listing.done();
		reread.done();
		expect(hints).toHaveLength(1);
		expect(summaryParts(output!, 1, hints[0])).toMatchObject({ filed: 0, replayed: 1, refused: 0 });
	});

	it('Replayed Invoices Show: The First Filing’s Reply makes no call after the replay and says what the item shows', async () => {
		// The policy's listing does not hold the row yet (another run filed it since): the key replays it.
		const listing = policyWithoutTheRow();
		const body = row();
		nock(API)
			.post('/invoices', asSent(body))
			.reply(201, envelope(invoiceFor(body, 1004, { created: '2026-11-20 09:15:00' })), { 'Idempotent-Replayed': 'true' });
		const never = nock(API).get('/invoices/1004').reply(200, envelope({}));
		const { output } = await run(jsonParams('create', { simplify: true, options: { replayedView: 'firstReply' } }), { items: [body] });
		expect(output![0].json).toMatchObject({ id: 1004, status: 'new', outcome: 'replayed' });
		expect(output![0].json.outcomeNote).toBe(
			'The service returned the reply of the first filing (created 2026-11-20 09:15:00, US Central): status and filing are as they were then. Get the invoice for its status now.',
		);
		expect(never.isDone()).toBe(false);
		listing.done();
	});

	it('a filed row says outcome filed and adds no hint', async () => {
		const listing = policyWithoutTheRow();
		// With its Surplus Lines Tax line, so the only hint that could appear is one about refiling.
		const body = row({ fees: [{ type: 'sl_tax', amount: 58.5 }] });
		nock(API).post('/invoices', asSent(body)).reply(201, envelope(invoiceFor(body, 1005)));
		const { output, hints } = await runWithHints(jsonParams('create', { simplify: true }), [body]);
		expect(output![0].json.outcome).toBe('filed');
		expect(output![0].json.outcomeNote).toBeUndefined();
		expect(hints).toEqual([]);
		listing.done();
	});

	it('sends an own key (checked locally) or none when switched off', async () => {
		const body = row();
		// An own key is a key too: the row is looked for first (Idempotency Off is not).
		const listing = policyWithoutTheRow();
		const own = nock(API, { reqheaders: { 'idempotency-key': 'row-17' } }).post('/invoices').reply(201, envelope(invoiceFor(body, 1)));
		await run(jsonParams('create', { idempotency: 'own', idempotencyKey: 'row-17' }), { items: [body] });
		listing.done();
		own.done();

		const off = nock(API, { badheaders: ['idempotency-key'] }).post('/invoices').reply(201, envelope(invoiceFor(body, 2)));
		const { error } = await run(jsonParams('create', { idempotency: 'off' }), { items: [body] });
		expect(error).toBeUndefined();
		off.done();

		const never = nock(API).post('/invoices').reply(201, envelope(invoiceFor(body, 3)));
		const bad = await run(jsonParams('create', { idempotency: 'own', idempotencyKey: 'has a space' }), { items: [body] });
		expect(bad.error!.message).toBe('Invalid input, nothing was sent: Idempotency Key: must not contain spaces');
		expect(never.isDone()).toBe(false);
	});

	it('refuses a t1 key before any call, naming the tier', async () => {
		const never = nock(API).post('/invoices').reply(201, envelope({}));
		const { error } = await run(jsonParams('create'), { items: [row()], key: KEYS.t1 });
		expect(error!.message).toBe('Create an invoice needs a t2 (Standard) key or higher; this credential\'s key is t1 (Basic)');
		expect(never.isDone()).toBe(false);
	});

	it('gives the tier refusal a code on the continue-on-fail item', async () => {
		const never = nock(API).post('/invoices').reply(201, envelope({}));
		const { output } = await run(jsonParams('create'), { items: [row()], key: KEYS.t1, continueOnFail: true });
		expect(output![0].json).toMatchObject({ code: 'TIER_REQUIRED', error: expect.stringContaining('needs a t2 (Standard) key') });
		expect(output![0].pairedItem).toEqual({ item: 0 });
		expect(never.isDone()).toBe(false);
	});

	it('keeps the id of a rejected-and-kept invoice (422 details.invoice_id) on the error item', async () => {
		const listing = policyWithoutTheRow();
		nock(API)
			.post('/invoices')
			.reply(422, failure('VALIDATION_ERROR', 'Validation failed', { fields: { class_code: ['Unknown'] }, invoice_id: 5005 }, 'req_kept'));
		const { output } = await run(jsonParams('create'), { items: [row()], continueOnFail: true });
		expect(output![0].json).toMatchObject({
			code: 'VALIDATION_ERROR',
			httpStatus: 422,
			fields: ['class_code: Unknown'],
			requestId: 'req_kept',
			keptInvoiceId: 5005,
		});
		expect(String(output![0].json.description)).toContain('kept the rejected invoice as ID 5005');
		expect(output![0].pairedItem).toEqual({ item: 0 });
		listing.done();
	});
});

describe('Create after a lost reply', () => {
	it('new-features account: asks /auth/me once, resends with the same key and reports the replay', async () => {
		const body = row();
		const key = derivedKey(body);
		// Looked for first and not there: sent with its key, which settles the lost reply.
		const listing = policyWithoutTheRow();
		const first = nock(API, { reqheaders: { 'idempotency-key': key } }).post('/invoices', asSent(body)).reply(504, GATEWAY_TIMEOUT);
		const meScope = nock(API).get('/auth/me').reply(200, me(NEW_FEATURES));
		const again = nock(API, { reqheaders: { 'idempotency-key': key } })
			.post('/invoices', asSent(body))
			.reply(201, envelope(invoiceFor(body, 1010)), { 'Idempotent-Replayed': 'true' });
		const { output, error } = await run(jsonParams('create'), { items: [body] });
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 1010, _replayed: true, _recovered: true, outcome: 'filed' });
		listing.done();
		first.done();
		meScope.done();
		again.done();
	});

	it('legacy account: finds the stored transaction among the policy\'s invoices and does not file again', async () => {
		const body = row({ type_code: 'ENDORSEMENT', net_premium: -250, effective_date: '2026-06-01' });
		nock(API).post('/invoices').reply(500, failure('INTERNAL_ERROR', 'boom', undefined, 'req_500'));
		nock(API).get('/auth/me').reply(200, me([]));
		emptyPolicy(); // looked for before filing: not there yet
		const other = invoiceFor(row({ type_code: 'ENDORSEMENT', net_premium: -100, effective_date: '2026-06-01' }), 1020, { type: { id: 3, name: 'Endorsement' } });
		const same = invoiceFor(body, 1021, { type: { id: 3, name: 'Endorsement' } });
		const page1 = nock(API)
			.get('/invoices')
			.query({ policy_number: 'POL-100', page: 1, per_page: 100 })
			.reply(200, envelope({ invoices: [other, same], pagination: { page: 1, per_page: 100, total: 2 } }));
		const resend = nock(API).post('/invoices').reply(201, envelope({}));
		const { output, error } = await run(jsonParams('create'), { items: [body] });
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 1021, net_premium: -250, _recovered: true });
		page1.done();
		expect(resend.isDone()).toBe(false);
	});

	it('legacy account: nothing stored, so it files once more (no automatic transport retry)', async () => {
		const body = row();
		const first = nock(API).post('/invoices').reply(504, GATEWAY_TIMEOUT);
		nock(API).get('/auth/me').reply(200, me([]));
		emptyPolicy();
		nock(API)
			.get('/invoices')
			.query(true)
			.reply(200, envelope({ invoices: [invoiceFor(row({ net_premium: 999 }), 900)], pagination: { page: 1, per_page: 100, total: 1 } }));
		const second = nock(API).post('/invoices', asSent(body)).reply(201, envelope(invoiceFor(body, 1030)));
		const { output } = await run(jsonParams('create'), { items: [body] });
		// Sent again after an unknown outcome on an account without keys: never a plain success.
		expect(output![0].json).toMatchObject({ id: 1030, outcome: 'sent_again' });
		expect(output![0].json.outcomeNote).toContain('policy POL-100 holds it twice: check its transactions');
		expect(output![0].json._recovered).toBeUndefined();
		first.done();
		second.done();
		expect(suite.clock.sleeps).toEqual([]);
	});

	it('lost twice: fails saying the invoice may have been filed', async () => {
		nock(API).post('/invoices').times(2).reply(504, GATEWAY_TIMEOUT);
		nock(API).get('/auth/me').reply(200, me([]));
		emptyPolicy();
		emptyPolicy();
		const { error } = await run(jsonParams('create'), { items: [row()] });
		expect(error!.message).toContain('HTTP 504 NOT_ENVELOPE');
		expect(error!.description).toContain('The invoice may have been filed: check the transactions of policy POL-100');
	});

	it('asks /auth/me only once per execution for several lost replies', async () => {
		const a = row({ policy_number: 'A' });
		const b = row({ policy_number: 'B' });
		const listings = [policyWithoutTheRow('A'), policyWithoutTheRow('B')];
		nock(API).post('/invoices', asSent(a)).reply(504, GATEWAY_TIMEOUT);
		nock(API).post('/invoices', asSent(b)).reply(504, GATEWAY_TIMEOUT);
		const meScope = nock(API).get('/auth/me').once().reply(200, me(NEW_FEATURES));
		nock(API).post('/invoices', asSent(a)).reply(201, envelope(invoiceFor(a, 1)), { 'Idempotent-Replayed': 'true' });
		nock(API).post('/invoices', asSent(b)).reply(201, envelope(invoiceFor(b, 2)));
		const { output, error } = await run(jsonParams('create'), { items: [a, b] });
		expect(error).toBeUndefined();
		expect(output!.map((o) => [o.json.id, o.json._replayed])).toEqual([[1, true], [2, undefined]]);
		for (const listing of listings) listing.done();
		meScope.done();
	});
});

describe('Bill Taxes From Preview', () => {
	const preview = (errors: string[]) =>
		envelope({
			validation: { valid: errors.length === 0, errors, warnings: [] },
			tax_calculation: {
				line_items: [
					{ name: 'Surplus Lines Tax', code: 'sl_tax', rate: 0.0485, rate_type: 'percentage', amount: 58.2 },
					{ name: 'Stamping Fee', code: 'stamping_fee', rate: 0.0018, rate_type: 'percentage', amount: 2.16 },
					{ name: 'SLAS/Clearinghouse Fee', code: 'slas_fee', rate: 0.001, rate_type: 'percentage', amount: 1.2 },
				],
			},
			invoice: null,
		});

	it('adds the tax lines to fees (keeping codes and aliases already sent), then creates', async () => {
		const listing = policyWithoutTheRow();
		const body = row({ fees: [{ type: 'stamping_fee', amount: 2 }, { type: 'clearinghouse_fee', amount: 5 }] });
		// Sent in the canonical order (fees by code), the preview's tax lines after them.
		const canonical = { ...body, fees: [{ type: 'clearinghouse_fee', amount: 5 }, { type: 'stamping_fee', amount: 2 }] };
		const billed = {
			...asSent(body),
			fees: [
				{ type: 'clearinghouse_fee', amount: 5 },
				{ type: 'stamping_fee', amount: 2 },
				{ type: 'sl_tax', amount: 58.2 },
			],
		};
		const p = nock(API).post('/invoices/preview', asSent(canonical)).reply(200, preview(['State TX is not supported for filing']));
		// Changed: the key is derived from the invoice as given, before the tax lines are added.
		const c = nock(API, { reqheaders: { 'idempotency-key': derivedKey(body) } })
			.post('/invoices', billed)
			.reply(201, envelope(invoiceFor(billed, 1040)));
		const { output, error, run: result } = await run(jsonParams('create', { options: { billTaxesFromPreview: true } }), { items: [body] });
		expect(error).toBeUndefined();
		expect(output![0].json.fees).toEqual(billed.fees);
		expect(output![0].json._previewNotes).toEqual(['State TX is not supported for filing']);
		// The run's summary counts it: a lead must follow the state's own process for it.
		expect(hintsOf(result).map((h) => h.message)).toContain(
			// The row's sheet taxes differ from the preview's: counted too (issue 53).
			"Of 1 row: 1 filed, 1 not filed electronically in its state (TX): the service prepares that filing for the state's own process, 1 row whose sheet taxes differ from the computation: 1 filed at the sheet's figures, each listed in _taxCheck; nothing was filed twice.",
		);
		p.done();
		listing.done();
		c.done();
	});

	// Look for Rows Already Filed off: by default the re-run finds the first filing by its mark and
	// sends nothing (refile.test.ts); this test is about the key alone.
	it('the derived key does not change with the day’s rates: a re-run after a rate change sends the same key (Look for Rows Already Filed off)', async () => {
		const body = row();
		const withRate = (amount: number) =>
			envelope({ validation: { valid: true, errors: [], warnings: [] }, tax_calculation: { line_items: [{ code: 'sl_tax', amount }] }, invoice: null });
		nock(API).post('/invoices/preview', asSent(body)).reply(200, withRate(58.2)).post('/invoices/preview', asSent(body)).reply(200, withRate(60));
		const keys: string[] = [];
		nock(API)
			.post('/invoices')
			.times(2)
			.reply(function (_uri, sent) {
				keys.push(String(this.req.headers['idempotency-key']));
				return [201, envelope(invoiceFor(sent as IDataObject, 1041))];
			});
		for (let n = 0; n < 2; n++) {
			const { error } = await run(jsonParams('create', { options: { billTaxesFromPreview: true, lookFirst: false } }), { items: [body] });
			expect(error).toBeUndefined();
		}
		expect(keys).toEqual([derivedKey(body), derivedKey(body)]);
	});

	it('creates nothing when the preview reports validation errors; the item shows them', async () => {
		nock(API).post('/invoices/preview').reply(200, preview(['Net premium cannot be zero', "Coverage code 'ZZ' not found for state TX"]));
		const never = nock(API).post('/invoices').reply(201, envelope({}));
		const { output } = await run(jsonParams('create', { options: { billTaxesFromPreview: true } }), {
			items: [row({ net_premium: 0 })],
			continueOnFail: true,
		});
		expect(output![0].json).toMatchObject({
			code: 'PREVIEW_INVALID',
			fields: ['Net premium cannot be zero', "Coverage code 'ZZ' not found for state TX"],
			requestId: 'req_ok',
		});
		expect(never.isDone()).toBe(false);
	});
});
