import { invoiceBody, useSandbox, type Row } from './testkit';

describe('invoices', () => {
	const kit = useSandbox({ now: () => new Date('2026-03-01T15:04:05Z') });
	const create = async (body: Record<string, unknown>, key = 't2', headers: Record<string, string> = {}) => {
		const res = await kit().api(key).post('/invoices', body, { headers });
		kit().conforms(res, 'POST', '/invoices');
		return res;
	};

	it('creates an invoice with every reply field (new-features account)', async () => {
		const res = await create(
			invoiceBody({
				invoice_number: 'INV-9',
				commission: 1500,
				lob_id: 1,
				class_code: '91111',
				coverages: [
					{ code: 'GL', amount: 6000, limits: [{ premium: 4000 }, { premium: 2000 }] },
					{ code: 'WIND', amount: 4000 },
				],
				insurers: [{ company_id: 301, percent: 60 }, { naic: '90004', percent: 40 }],
				fees: [{ type: 'policy_fee_company', amount: 150 }, { type: 'sl_tax', amount: 485 }, { type: 'service_fee', amount: 12 }],
				documents: [{ type: 'Declaration_Page', docUUID: 'abc-123', filename: 'dec.pdf', mime_type: 'application/pdf' }],
			}),
		);
		expect(res.status).toBe(201);
		const inv = res.data.data;
		expect(inv).toMatchObject({
			id: 1001,
			policy_number: 'POL-1',
			invoice_number: 'INV-9',
			invoice_date: '2026-03-01',
			state: { id: 44, code: 'TX', name: 'Texas' },
			type: { id: 1, name: 'New' },
			lob: { id: 1, name: 'General Liability' },
			net_premium: 10000,
			commission: 1500,
			status: 'new',
			filed: false,
			paid: false,
			created: '2026-03-01 09:04:05', // 15:04:05 UTC is 09:04:05 CST
			company: { id: 301, name: 'Sandbox Specialty Insurance Company' },
			policy_id: 2001,
			policy_fee: 150,
			stamps_fee: 0,
			service_fee: 12,
			notes: null,
			coverages: [
				{ code: 'GL', title: 'General Liability', amount: 6000 },
				{ code: 'WIND', title: 'Windstorm and Hail', amount: 4000 },
			],
			insurers: [
				{ company_id: 301, name: 'Sandbox Specialty Insurance Company', naic: '90001', percent: 60, amount: 6000 },
				{ company_id: 304, name: 'Lone Star Specialty Underwriters', naic: '90004', percent: 40, amount: 4000 },
			],
			transaction_effective_date: '2026-03-01',
			filing: { state_status: 'not_sent', updated_at: null, confirmation_number: null, submission_number: null, message: null, api_error: null },
			warnings: [],
		});
		expect(inv.documents).toEqual([
			expect.objectContaining({ id: 5001, doc_type: 'declaration_page', file_name: 'dec.pdf', external_doc_uuid: 'abc-123', fetch_status: 'pending', url: null, mime_type: null }),
		]);
		const read = await kit().api('t1').get('/invoices/1001');
		kit().conforms(read, 'GET', '/invoices/{id}');
		expect(read.data.data).toEqual(inv);
	});

	it('lists every 422 message of the description in one reply', async () => {
		const res = await create({
			state_code: 'XX',
			effective_date: '2026-13-01',
			type_code: 'AUDIT',
			lob_id: 99,
			insurers: [{ percent: 100 }, { lob_id: 1, companies: [{ company_id: 301 }] }],
		});
		expect(res.status).toBe(422);
		expect(res.data.error.code).toBe('VALIDATION_ERROR');
		expect(res.data.error.details.fields).toEqual({
			policy_number: ['This field is required'],
			insured_name: ['This field is required'],
			state_code: ['Must be a valid state_code'],
			net_premium: ['This field is required'],
			effective_date: ['Must be a valid date'],
			expiration_date: ['This field is required'],
			type_code: ['Must be one of: NEW, RENEWAL, ENDORSEMENT, CANCELLATION'],
			lob_id: ['Referenced line_of_businesses not found'],
			insurers: ['insurers[0].company_id is required and must be an integer', 'insurers[1].amount is required and must be a number'],
		});
		expect((await kit().api('t2').get('/invoices')).data.data.pagination.total).toBe(0);
	});

	it('checks the amount rules: group sums, coverage limits, fees, documents, policy_limit', async () => {
		const res = await create(
			invoiceBody({
				net_premium: 1000,
				policy_limit: -5,
				insurers: [
					{ lob_id: 1, amount: 600, companies: [{ company_id: 301 }] },
					{ lob_name: 'Commercial Property', amount: 399.98, companies: [{ company_name: 'Atlantic Excess Insurance Company' }] },
				],
				coverages: [{ code: 'GL', amount: 500, limits: [{ premium: 300 }, { premium: 100 }] }],
				fees: [{ type: 'fire_marshal', amount: 1 }, { type: 'fire_marshall_tax', amount: 1 }, { type: 'bogus', amount: 1 }],
				documents: Array.from({ length: 11 }, (_, i) => ({ type: 'other', docUUID: `d${i}` })),
			}),
		);
		expect(res.status).toBe(422);
		expect(res.data.error.details.fields).toEqual({
			policy_limit: ['Must not be negative'],
			coverages: ['Sum of coverages[0] (GL) limits premiums (400.00) does not equal its amount (500.00)'],
			insurers: ['Sum of insurers LOB amounts (999.98) does not equal net_premium (1000.00)'],
			fees: ["fees[2].type 'bogus' is not a valid fee type", "'fire_marshal' and 'fire_marshall_tax' are the same fee; send only one of them"],
			documents: ['Must not have more than 10 items'],
		});
		// Within one cent is accepted.
		const ok = await create(invoiceBody({ net_premium: 1000, insurers: [{ lob_id: 1, amount: 600, companies: [{ company_id: 301 }] }, { lob_id: 2, amount: 399.99, companies: [{ naic: '90005' }] }] }));
		expect(ok.status).toBe(201);
		expect(ok.data.data.insurers.map((i: Row) => [i.company_id, i.percent, i.amount])).toEqual([[301, 100, 600], [305, 100, 399.99]]);
	});

	it('carrier look-up: naic and company_name, 422 naming the value; legacy accounts ignore them', async () => {
		const miss = await create(invoiceBody({ insurers: [{ naic: '12345' }, { company_name: 'Nobody Mutual' }] }));
		expect(miss.data.error.details.fields.insurers).toEqual([
			"insurers[0].naic: no company found with NAIC '12345'",
			"insurers[1].company_name: no company found with name 'Nobody Mutual'",
		]);
		const legacy = await create(invoiceBody({ insurers: [{ naic: '90001' }] }), 'legacy-t2');
		expect(legacy.data.error.details.fields.insurers).toEqual(['insurers[0].company_id is required and must be an integer']);
		const wins = await create(invoiceBody({ insurers: [{ company_id: 302, naic: '90001' }] }));
		expect(wins.data.data.insurers[0].company_id).toBe(302);
	});

	it('warnings: unknown coverage, lob_name and class_code; TX vehicle_crime_fee zeroed', async () => {
		const res = await create(
			invoiceBody({
				lob_name: 'Cyber',
				class_code: '00000',
				coverages: [{ code: 'EQ', amount: 100, title: 'Quake' }, { code: 'GL', amount: 9900 }],
				fees: [{ type: 'vehicle_crime_fee', amount: 10 }],
			}),
		);
		const inv = res.data.data;
		expect(inv.lob).toBeNull();
		expect(inv.coverages).toEqual([{ code: 'GL', title: 'General Liability', amount: 9900 }]);
		expect(inv.fees).toEqual([{ type: 'vehicle_crime_fee', amount: 0 }]);
		expect(inv.warnings).toEqual([
			"Line of business 'Cyber' not found; the invoice was stored without a line of business",
			'vehicle_crime_fee does not apply to Texas surplus lines; its amount was set to 0 and excluded from tax',
			"Coverage code 'EQ' not found for state TX; kept for the operator, not saved as a matched coverage",
			"Class code '00000' is not held for state TX; the invoice was stored without it",
		]);
		// Legacy: no coverage or lob_name warnings, no filing, no transaction_effective_date; class_code warning still given.
		const legacy = (await create(invoiceBody({ lob_name: 'Cyber', class_code: '00000', coverages: [{ code: 'EQ', amount: 1 }], transaction_effective_date: '2026-05-01' }), 'legacy-t2')).data.data;
		expect(legacy.warnings).toEqual(["Class code '00000' is not held for state TX; the invoice was stored without it"]);
		expect(legacy).not.toHaveProperty('filing');
		expect(legacy).not.toHaveProperty('transaction_effective_date');
		expect(legacy.coverages).toEqual([]);
		const plain = (await create(invoiceBody({ policy_number: 'L-2' }), 'legacy-t2')).data.data;
		expect(plain).not.toHaveProperty('warnings');
	});

	it('flat stamping fee set by the service in PA, 0 on endorsements; transaction_effective_date on changes', async () => {
		const pa = (await create(invoiceBody({ state_code: 'PA', fees: [{ type: 'stamping_fee', amount: 99 }] }))).data.data;
		expect([pa.stamps_fee, pa.fees]).toEqual([20, [{ type: 'stamping_fee', amount: 20 }]]);
		const end = (await create(invoiceBody({ state_code: 'PA', type_code: 'ENDORSEMENT', net_premium: -250, transaction_effective_date: '2026-07-15' }))).data.data;
		expect(end).toMatchObject({ type: { id: 3, name: 'Endorsement' }, stamps_fee: 0, net_premium: -250, transaction_effective_date: '2026-07-15', policy_id: pa.policy_id });
		const cancel = (await create(invoiceBody({ state_code: 'PA', type_code: 'CANCELLATION', net_premium: -5000 }))).data.data;
		expect([cancel.type, cancel.stamps_fee, cancel.transaction_effective_date]).toEqual([{ id: 4, name: 'Cancelled' }, 0, '2026-03-01']);
		const tx = (await create(invoiceBody({ policy_number: 'OTHER' }))).data.data;
		expect([tx.stamps_fee, tx.fees, tx.policy_id]).toEqual([0, [], pa.policy_id + 1]);
		// Zero premium is not blocked on create.
		expect((await create(invoiceBody({ net_premium: 0 }))).status).toBe(201);
	});

	it('lists a policy\u2019s transactions oldest first with pagination', async () => {
		for (const n of [1, 2, 3]) await create(invoiceBody({ net_premium: n * 100 }));
		await create(invoiceBody({ policy_number: 'POL-2' }));
		const res = await kit().api('t1').get('/invoices', { params: { policy_number: 'POL-1', per_page: 2, page: 2 } });
		kit().conforms(res, 'GET', '/invoices');
		expect(res.data.data.pagination).toEqual({ page: 2, per_page: 2, total: 3 });
		expect(res.data.data.invoices.map((i: Row) => [i.id, i.net_premium])).toEqual([[1003, 300]]);
		const all = await kit().api('t1').get('/invoices');
		expect(all.data.data.pagination).toEqual({ page: 1, per_page: 25, total: 4 });
		const bad = await kit().api('t1').get('/invoices', { params: { per_page: 101 } });
		expect([bad.status, bad.data.error.details.fields]).toEqual([422, { per_page: ['Must be an integer from 1 to 100'] }]);
	});

	it('update (PUT) merges fields, delete gives 204; both 409 once the state accepted the invoice', async () => {
		await create(invoiceBody({ invoice_number: 'A' }));
		const put = await kit().api('t2').put('/invoices/1001', { net_premium: 12000, notes: 'corrected' });
		kit().conforms(put, 'PUT', '/invoices/{id}');
		expect(put.data.data).toMatchObject({ id: 1001, net_premium: 12000, notes: 'corrected', invoice_number: 'A', insured_name: 'Acme Widgets LLC' });
		const bad = await kit().api('t2').put('/invoices/1001', { state_code: 'QQ' });
		expect([bad.status, bad.data.error.details.fields]).toEqual([422, { state_code: ['Must be a valid state_code'] }]);
		await kit().control('/invoices/1001/status', { status: 'success' });
		for (const res of [await kit().api('t2').put('/invoices/1001', { notes: 'x' }), await kit().api('t2').delete('/invoices/1001')]) {
			expect([res.status, res.data.error.code]).toEqual([409, 'CONFLICT']);
			kit().conforms(res, 'DELETE', '/invoices/{id}');
		}
		await create(invoiceBody());
		const del = await kit().api('t2').delete('/invoices/1002');
		expect(del.status).toBe(204);
		kit().conforms(del, 'DELETE', '/invoices/{id}');
		expect((await kit().api('t2').get('/invoices/1002')).status).toBe(404);
	});

	it('tiers: t1 cannot write (403 FORBIDDEN), batch needs t3 (403 TIER_REQUIRED)', async () => {
		const t1 = await create(invoiceBody(), 't1');
		expect([t1.status, t1.data.error.code]).toEqual([403, 'FORBIDDEN']);
		expect((await kit().api('t1').put('/invoices/1001', {})).data.error.code).toBe('FORBIDDEN');
		expect((await kit().api('t1').delete('/invoices/1001')).data.error.code).toBe('FORBIDDEN');
		const batch = await kit().api('t2').post('/invoices/batch', { invoices: [invoiceBody()] });
		expect([batch.status, batch.data.error.code]).toEqual([403, 'TIER_REQUIRED']);
		kit().conforms(batch, 'POST', '/invoices/batch');
	});

	it('batch: each item stands alone', async () => {
		const res = await kit().api('t3').post('/invoices/batch', { invoices: [invoiceBody(), invoiceBody({ state_code: 'ZZ' }), 'x', invoiceBody({ policy_number: 'P-3' })] });
		kit().conforms(res, 'POST', '/invoices/batch');
		const d = res.data.data;
		expect([d.created, d.failed]).toEqual([2, 2]);
		expect(d.results.map((r: Row) => [r.index, r.success, (r.invoice as Row | undefined)?.id ?? (r.error as Row).code])).toEqual([
			[0, true, 1001],
			[1, false, 'VALIDATION_ERROR'],
			[2, false, 'VALIDATION_ERROR'],
			[3, true, 1002],
		]);
		expect(d.results[1].error.details.fields).toEqual({ state_code: ['Must be a valid state_code'] });
		const empty = await kit().api('t3').post('/invoices/batch', { invoices: [] });
		expect([empty.status, empty.data.error.details.fields]).toEqual([422, { invoices: ['Must be an array of 1 to 500 invoices'] }]);
	});

	it('accounts are separate: another account\u2019s invoice is 404', async () => {
		await create(invoiceBody());
		const other = await kit().api('other-account-t2').get('/invoices/1001');
		expect([other.status, other.data.error.code]).toEqual([404, 'NOT_FOUND']);
		kit().conforms(other, 'GET', '/invoices/{id}');
		expect((await kit().api('other-account-t2').get('/invoices')).data.data.invoices).toEqual([]);
		expect((await kit().api('other-account-t2').delete('/invoices/1001')).status).toBe(404);
		expect((await kit().api('t1').get('/invoices/abc')).status).toBe(404);
	});

	describe('idempotency', () => {
		it('replays the first 201 for the same key and same body (key order ignored), creating nothing', async () => {
			const first = await create(invoiceBody(), 't2', { 'Idempotency-Key': 'order-77' });
			const reordered = Object.fromEntries(Object.entries(invoiceBody()).reverse());
			const again = await create(reordered, 't2', { 'Idempotency-Key': 'order-77' });
			expect(again.status).toBe(201);
			expect(again.headers['idempotent-replayed']).toBe('true');
			expect(first.headers['idempotent-replayed']).toBeUndefined();
			expect(again.data.data).toEqual(first.data.data);
			expect((await kit().api('t2').get('/invoices')).data.data.pagination.total).toBe(1);
		});

		it('409 for the same key with another body; 422 does not use the key up; bad keys 422', async () => {
			await create(invoiceBody(), 't2', { 'Idempotency-Key': 'k1' });
			const conflict = await create(invoiceBody({ net_premium: 1 }), 't2', { 'Idempotency-Key': 'k1' });
			expect([conflict.status, conflict.data.error.code]).toEqual([409, 'CONFLICT']);
			expect((await create(invoiceBody({ state_code: 'ZZ' }), 't2', { 'Idempotency-Key': 'k2' })).status).toBe(422);
			expect((await create(invoiceBody({ net_premium: 5 }), 't2', { 'Idempotency-Key': 'k2' })).status).toBe(201);
			const spaced = await create(invoiceBody(), 't2', { 'Idempotency-Key': 'has space' });
			expect([spaced.status, spaced.data.error.details.fields]).toEqual([422, { 'Idempotency-Key': ['Must not contain spaces'] }]);
			const long = await create(invoiceBody(), 't2', { 'Idempotency-Key': 'x'.repeat(256) });
			expect(long.data.error.details.fields).toEqual({ 'Idempotency-Key': ['Must not exceed 255 characters'] });
			expect((await create(invoiceBody(), 't2', { 'Idempotency-Key': 'x'.repeat(255) })).status).toBe(201);
		});

		it('keys are per account; legacy accounts ignore the header (a retry makes a second invoice)', async () => {
			expect((await create(invoiceBody(), 't2', { 'Idempotency-Key': 'same' })).status).toBe(201);
			const other = await create(invoiceBody(), 'other-account-t2', { 'Idempotency-Key': 'same' });
			expect([other.status, other.headers['idempotent-replayed']]).toEqual([201, undefined]);
			await create(invoiceBody(), 'legacy-t2', { 'Idempotency-Key': 'same' });
			const retry = await create(invoiceBody(), 'legacy-t2', { 'Idempotency-Key': 'same' });
			expect(retry.headers['idempotent-replayed']).toBeUndefined();
			expect((await kit().api('legacy-t2').get('/invoices')).data.data.pagination.total).toBe(2);
		});
	});

	it('accounts that keep rejected invoices: 422 carries invoice_id, the corrected resend takes it', async () => {
		const bad = await create(invoiceBody({ state_code: 'ZZ' }), 'keeps-rejected-t2');
		expect(bad.data.error.details.invoice_id).toBe(1001);
		await create(invoiceBody({ policy_number: 'OTHER' }), 'keeps-rejected-t2');
		const fixed = await create(invoiceBody(), 'keeps-rejected-t2');
		expect(fixed.data.data.id).toBe(1001);
		expect((await create(invoiceBody({ state_code: 'ZZ' }))).data.error.details).not.toHaveProperty('invoice_id');
	});

	describe('preview', () => {
		const preview = async (body: Record<string, unknown>, key = 't1') => {
			const res = await kit().api(key).post('/invoices/preview', body);
			kit().conforms(res, 'POST', '/invoices/preview');
			return res;
		};

		it('stores nothing and returns validation, tax_calculation and invoice', async () => {
			const res = await preview(invoiceBody({ fees: [{ type: 'policy_fee_company', amount: 100 }, { type: 'sl_tax', amount: 490 }] }));
			expect(res.status).toBe(200);
			const d = res.data.data;
			expect(d.validation).toEqual({ valid: true, errors: [], warnings: [] });
			// base 10000 + 100 = 10100: sl 4.85% = 489.85; stamping 0.04% = 4.04
			expect(d.tax_calculation.line_items.map((l: Row) => [l.code, l.amount])).toEqual([['sl_tax', 489.85], ['stamping_fee', 4.04]]);
			expect(d.tax_calculation.fee_breakdown.total_fees).toBe(100);
			expect(d.invoice).not.toHaveProperty('id');
			expect(d.invoice).toMatchObject({ policy_number: 'POL-1', status: 'new', policy_id: null });
			expect((await kit().api('t1').get('/invoices')).data.data.pagination.total).toBe(0);
		});

		it('reports data problems in a 200: unsupported state, zero premium, unknown coverage codes', async () => {
			const d = (await preview(invoiceBody({ state_code: 'KY', net_premium: 0, coverages: [{ code: 'WIND', amount: 0 }, { code: 'ZZZ', amount: 0 }], class_code: 'nope' }))).data.data;
			expect(d.validation.valid).toBe(false);
			expect(d.validation.errors).toEqual([
				'State KY is not supported for filing',
				'Net premium cannot be zero',
				"Coverage code 'WIND' not found for state KY",
				"Coverage code 'ZZZ' not found for state KY",
			]);
			expect(d.validation.warnings).toEqual([expect.stringContaining('municipal_tax')]);
			const invalid = (await preview({ state_code: 'TX', net_premium: 100 })).data.data;
			expect(invalid.validation.errors).toEqual([
				'policy_number: This field is required',
				'insured_name: This field is required',
				'effective_date: This field is required',
				'expiration_date: This field is required',
			]);
			expect(invalid.invoice).toBeNull();
			expect(invalid.tax_calculation.total_taxes_and_fees).toBe(4.89); // 4.85 + 0.04 on today's rates
		});

		it('returns negative tax lines for returned premium; no flat charge on a change', async () => {
			const tx = (await preview(invoiceBody({ type_code: 'CANCELLATION', net_premium: -1000 }))).data.data.tax_calculation;
			// -1000 * 4.85% = -48.50; -1000 * 0.04% = -0.40
			expect(tx.line_items.map((l: Row) => [l.code, l.amount])).toEqual([['sl_tax', -48.5], ['stamping_fee', -0.4]]);
			expect([tx.tax_base, tx.total_taxes_and_fees, tx.total_due]).toEqual([-1000, -48.9, -1048.9]);
			const pa = (await preview(invoiceBody({ state_code: 'PA', type_code: 'ENDORSEMENT', net_premium: -200 }))).data.data;
			expect(pa.tax_calculation.line_items.map((l: Row) => [l.code, l.amount])).toEqual([['sl_tax', -6]]);
			expect(pa.invoice.stamps_fee).toBe(0);
		});
	});
});
