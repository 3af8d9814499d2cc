import nock from 'nock';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { loadOptions } from '../../harness/engine';
import { API, BASE, KEYS, envelope, failure, invoiceFor, jsonParams, row, run, setupSuite } from './helpers';

setupSuite();

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Get', () => {
	it('reads one invoice by ID, whole or simplified', async () => {
		const invoice = invoiceFor(row(), 1042, { fees: [{ type: 'sl_tax', amount: 58.2 }], filing: { state_status: 'sent' } });
		nock(API).get('/invoices/1042').times(2).reply(200, envelope(invoice));
		const whole = await run({ operation: 'get', invoiceId: byId('1042') });
		expect(whole.output![0].json).toEqual(invoice);
		const simple = await run({ operation: 'get', invoiceId: byId('1042'), simplify: true });
		expect(simple.output![0].json).toMatchObject({ id: 1042, fees_total: 58.2, state: 'TX', type: 'New' });
	});

	it('refuses a non-numeric ID before any call', async () => {
		// An expression gets past the editor's own check, so the node's check is what stops it.
		const { error } = await run({ operation: 'get', invoiceId: byId('={{ "abc" }}') });
		expect(error!.message).toBe('Invalid input, nothing was sent: Invoice: must be the service’s invoice ID, a whole number (got "abc")');
	});
});

describe('Get Many', () => {
	const page = (n: number, count: number, total: number) =>
		envelope({ invoices: Array.from({ length: count }, (_, i) => invoiceFor(row(), n * 1000 + i)), pagination: { page: n, per_page: 100, total } });

	it('Return All reads every page of 100 for the policy', async () => {
		const p1 = nock(API).get('/invoices').query({ policy_number: 'POL-100', page: 1, per_page: 100 }).reply(200, page(1, 100, 230));
		const p2 = nock(API).get('/invoices').query({ policy_number: 'POL-100', page: 2, per_page: 100 }).reply(200, page(2, 100, 230));
		const p3 = nock(API).get('/invoices').query({ policy_number: 'POL-100', page: 3, per_page: 100 }).reply(200, page(3, 30, 230));
		const { output } = await run({ operation: 'getAll', policyNumber: 'POL-100', returnAll: true });
		expect(output).toHaveLength(230);
		expect(output![229].json.id).toBe(3029);
		[p1, p2, p3].forEach((s) => s.done());
	});

	it('Limit asks only for what it needs', async () => {
		const p1 = nock(API).get('/invoices').query({ policy_number: 'P', page: 1, per_page: 5 }).reply(200, page(1, 5, 40));
		const { output } = await run({ operation: 'getAll', policyNumber: 'P', returnAll: false, limit: 5 });
		expect(output!.map((o) => o.json.id)).toEqual([1000, 1001, 1002, 1003, 1004]);
		p1.done();
	});

	/** A policy of `total` invoices with ids 1..total, paged by offset like the service. */
	function offsetPaged(total: number) {
		const asked: Array<{ page: number; perPage: number }> = [];
		const scope = nock(API)
			.get('/invoices')
			.query(true)
			.times(20)
			.reply((uri) => {
				const qs = new URL(uri, API).searchParams;
				const pageNo = Number(qs.get('page'));
				const perPage = Number(qs.get('per_page'));
				asked.push({ page: pageNo, perPage });
				const start = (pageNo - 1) * perPage;
				const ids = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, i) => start + i + 1);
				return [200, envelope({ invoices: ids.map((id) => invoiceFor(row(), id)), pagination: { page: pageNo, per_page: perPage, total } })];
			});
		return { asked, scope };
	}

	it('Limit 150 over 250 invoices gives ids 1..150, each once (per_page stays 100 on every page)', async () => {
		const { asked } = offsetPaged(250);
		const { output, error } = await run({ operation: 'getAll', policyNumber: 'POL-100', returnAll: false, limit: 150 });
		expect(error).toBeUndefined();
		expect(output!.map((o) => o.json.id)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
		expect(asked).toEqual([{ page: 1, perPage: 100 }, { page: 2, perPage: 100 }]);
	});

	it('the invoice picker shows the newest transactions first, reading the last pages (at most 3 calls)', async () => {
		const { asked } = offsetPaged(450);
		const found = (await loadOptions({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation: 'get' },
			credentials: { apiKey: KEYS.t2, baseUrl: BASE },
			kind: 'listSearch',
			method: 'searchInvoices',
			filter: 'POL-100',
		})) as { results: Array<{ value: string }> };
		// Pages 4 and 5 hold ids 301..450; the short last page is topped up by the one before it.
		expect(asked.map((a) => a.page)).toEqual([1, 4, 5]);
		expect(asked.every((a) => a.perPage === 100)).toBe(true);
		expect(found.results.map((r) => Number(r.value))).toEqual(Array.from({ length: 150 }, (_, i) => 450 - i));
	});

	it('the invoice picker with one page makes one call, newest first', async () => {
		const { asked } = offsetPaged(3);
		const found = (await loadOptions({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation: 'get' },
			credentials: { apiKey: KEYS.t2, baseUrl: BASE },
			kind: 'listSearch',
			method: 'searchInvoices',
			filter: 'POL-100',
		})) as { results: Array<{ value: string }> };
		expect(asked).toHaveLength(1);
		expect(found.results.map((r) => r.value)).toEqual(['3', '2', '1']);
	});

	it('without a policy lists the account; a 422 there gets a clear message', async () => {
		nock(API).get('/invoices').query({ page: 1, per_page: 100 }).reply(422, failure('VALIDATION_ERROR', 'policy_number is required', { fields: { policy_number: ['This field is required'] } }));
		const { error } = await run({ operation: 'getAll', policyNumber: '', returnAll: true });
		expect(error!.description).toContain('This account does not list invoices without a filter: enter a Policy Number');
	});
});

describe('Update', () => {
	it('JSON mode starts from {} (no sample change): left as is, it is refused locally with no call', async () => {
		const trap = nock(API).put(/.*/).reply(200, envelope({}));
		const { error } = await run({ operation: 'update', invoiceId: byId('1042'), inputMode: 'json' });
		expect(error!.message).toBe('Invalid input, nothing was sent: body: Set at least one field to change');
		expect(trap.isDone()).toBe(false);
	});

	it('sends only the fields given (checked) with PUT', async () => {
		const body = { net_premium: -300, type_code: 'ENDORSEMENT' };
		const scope = nock(API).put('/invoices/1042', body).reply(200, envelope(invoiceFor(row(body), 1042)));
		const { output, error } = await run(jsonParams('update', { invoiceId: byId('1042') }), { items: [body] });
		expect(error).toBeUndefined();
		expect(output![0].json.net_premium).toBe(-300);
		scope.done();
	});

	it('Fields mode: Update Fields collection', async () => {
		const scope = nock(API).put('/invoices/9', { insured_name: 'New Name', commission: 12.5 }).reply(200, envelope(invoiceFor(row(), 9)));
		const { error } = await run({ operation: 'update', invoiceId: byId('9'), inputMode: 'fields', updateFields: { insuredName: 'New Name', commission: 12.5 } });
		expect(error).toBeUndefined();
		scope.done();
	});

	it('409 on an accepted invoice says the state accepted it and it can no longer be changed', async () => {
		nock(API).put('/invoices/1042').reply(409, failure('CONFLICT', 'Invoice 1042 was accepted by the state', undefined, 'req_409'));
		const { output } = await run(jsonParams('update', { invoiceId: byId('1042') }), { items: [{ commission: 1 }], continueOnFail: true });
		expect(output![0].json).toMatchObject({
			error: 'The service refused a conflicting change (HTTP 409 CONFLICT): the state accepted this invoice (status success), so it can no longer be changed (Invoice 1042 was accepted by the state)',
			code: 'CONFLICT',
			requestId: 'req_409',
		});
	});

	it('needs t2', async () => {
		const { error } = await run(jsonParams('update', { invoiceId: byId('1') }), { items: [{ commission: 1 }], key: KEYS.t1 });
		expect(error!.message).toContain('Update an invoice needs a t2 (Standard) key');
	});
});

describe('Delete', () => {
	it('deletes (204) and says so', async () => {
		const scope = nock(API).delete('/invoices/55').reply(204);
		const { output } = await run({ operation: 'delete', invoiceId: byId('55') });
		expect(output![0].json).toEqual({ id: 55, deleted: true });
		scope.done();
	});

	it('404 counts as deleted (already gone, e.g. a resent DELETE after a lost reply), with a note', async () => {
		const scope = nock(API).delete('/invoices/55').reply(404, failure('NOT_FOUND', 'Invoice not found'));
		const { output, error } = await run({ operation: 'delete', invoiceId: byId('55') });
		expect(error).toBeUndefined();
		expect(output![0].json).toMatchObject({ id: 55, deleted: true, already_gone: true });
		expect(output![0].json.note).toContain('already gone');
		scope.done();
	});

	it('409: one explanation (message and advice once)', async () => {
		nock(API).delete('/invoices/55').reply(409, failure('CONFLICT', 'accepted'));
		const { error } = await run({ operation: 'delete', invoiceId: byId('55') });
		expect(error!.description!.split('File an endorsement or cancellation').length).toBe(2);
	});

	it('409 on an accepted invoice: can no longer be deleted', async () => {
		nock(API).delete('/invoices/55').reply(409, failure('CONFLICT', 'accepted'));
		const { error } = await run({ operation: 'delete', invoiceId: byId('55') });
		expect(error!.message).toContain('the state accepted this invoice (status success), so it can no longer be deleted');
		expect(error!.description).toContain('File an endorsement or cancellation for the policy instead.');
	});

	it('needs t2', async () => {
		const { error } = await run({ operation: 'delete', invoiceId: byId('55') }, { key: KEYS.t1 });
		expect(error!.message).toBe("Delete an invoice needs a t2 (Standard) key or higher; this credential's key is t1 (Basic)");
	});
});

describe('Preview', () => {
	it('works with a t1 key and returns the preview as given', async () => {
		const data = { validation: { valid: true, errors: [], warnings: [] }, tax_calculation: { line_items: [{ code: 'sl_tax', amount: 58.2 }] }, invoice: { net_premium: 1200 } };
		const scope = nock(API).post('/invoices/preview', row()).reply(200, envelope(data));
		const { output } = await run(jsonParams('preview'), { items: [row()], key: KEYS.t1 });
		// The preview as given, plus the warning that its fees carry no tax line (v2 bills the preview's taxes).
		expect(output![0].json).toEqual({ ...data, _taxWarning: expect.stringContaining('the preview computes Surplus Lines Tax (sl_tax) 58.2 for TX') });
		scope.done();
	});
});

describe('descriptions', () => {
	const CHANGE_NOTE = 'For an endorsement or cancellation this is the amount of the change; negative when premium is returned.';
	type Prop = { name: string; displayName?: string; description?: string; options?: Prop[]; values?: Prop[] };
	const all = (props: Prop[]): Prop[] => props.flatMap((p) => [p, ...all((p.options ?? []) as Prop[]), ...all((p.values ?? []) as Prop[])]);
	const props = all(new SurplusLinesInvoice().description.properties as unknown as Prop[]);

	it('amounts that may be a change say so (no garbled ". ,." text)', () => {
		expect(props.filter((p) => /,\.|\. ,/.test(p.description ?? ''))).toEqual([]);
		const described = (text: string) => props.filter((p) => p.description === `${text} ${CHANGE_NOTE}`);
		expect(described('Premium of the transaction.').length).toBeGreaterThan(0);
		expect(described('Coverage premium.').length).toBeGreaterThan(0);
		expect(described('The group’s premium.').length).toBeGreaterThan(0);
	});
});
