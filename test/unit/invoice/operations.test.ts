import nock from 'nock';

import { API, KEYS, envelope, failure, invoiceFor, jsonParams, row, run, setupSuite } from './helpers';

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

	it('without a policy lists the account; a 422 there gets a clear message', async () => {
		nock(API).get('/invoices').query({ page: 1, per_page: 100 }).reply(422, failure('VALIDATION_ERROR', 'policy_number is required', { fields: { policy_number: ['This field is required'] } }));
		const { error } = await run({ operation: 'getAll', policyNumber: '', returnAll: true });
		expect(error!.description).toContain('This account does not list invoices without a filter: enter a Policy Number');
	});
});

describe('Update', () => {
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
		expect(output![0].json).toEqual(data);
		scope.done();
	});
});
