/**
 * Issue 57: n8n's evaluation of the invoice locator's `={{ $json.id }}` cost about 0.9 ms an item
 * in n8n 2.41, most of a Get's own time. An expression that only names a field of the item is
 * read from the item; anything else is still evaluated by n8n, and the id is checked as before.
 */
import { Expression } from 'n8n-workflow';
import nock from 'nock';

import { API, envelope, invoiceFor, row, run, setupSuite } from './helpers';

setupSuite();

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** How often n8n evaluated `expression` while `work` ran. */
async function evaluations<T>(expression: string, work: () => Promise<T>): Promise<{ result: T; count: number }> {
	const spy = jest.spyOn(Expression.prototype, 'getParameterValue');
	try {
		const result = await work();
		return { result, count: spy.mock.calls.filter(([value]) => value === expression).length };
	} finally {
		spy.mockRestore();
	}
}

describe('Get reads `{{ $json.… }}` from the item', () => {
	it('three items by $json.id: the right invoices, no evaluation per item', async () => {
		for (const id of [1042, 1043, 1044]) nock(API).get(`/invoices/${id}`).reply(200, envelope(invoiceFor(row(), id)));
		const { result, count } = await evaluations('={{ $json.id }}', () =>
			run({ operation: 'get', invoiceId: byId('={{ $json.id }}') }, { items: [{ id: 1042 }, { id: '1043' }, { id: 1044 }] }),
		);
		expect(result.output!.map((o) => o.json.id)).toEqual([1042, 1043, 1044]);
		expect(count).toBe(0);
	});

	it('a nested field too; a field that is not a text or number, and any other expression, are evaluated by n8n', async () => {
		nock(API).get('/invoices/1042').reply(200, envelope(invoiceFor(row(), 1042)));
		const nested = await evaluations('={{ $json.row.invoice }}', () =>
			run({ operation: 'get', invoiceId: byId('={{ $json.row.invoice }}') }, { items: [{ row: { invoice: 1042 } }] }),
		);
		expect(nested.result.output![0].json.id).toBe(1042);
		expect(nested.count).toBe(0);
		const missing = await evaluations('={{ $json.nothing }}', () =>
			run({ operation: 'get', invoiceId: byId('={{ $json.nothing }}') }, { items: [{ id: 1042 }] }),
		);
		expect(missing.count).toBe(1);
		expect(missing.result.error!.message).toMatch(/Invoice: must be the service’s invoice ID, a whole number/);
		nock(API).get('/invoices/1043').reply(200, envelope(invoiceFor(row(), 1043)));
		const sum = await evaluations('={{ $json.id + 1 }}', () =>
			run({ operation: 'get', invoiceId: byId('={{ $json.id + 1 }}') }, { items: [{ id: 1042 }] }),
		);
		expect(sum.count).toBe(1);
		expect(sum.result.output![0].json.id).toBe(1043);
	});

	it('the id is still checked: a text that is not a whole number is refused before any call', async () => {
		const { result } = await evaluations('={{ $json.id }}', () =>
			run({ operation: 'get', invoiceId: byId('={{ $json.id }}') }, { items: [{ id: '10 42' }] }),
		);
		expect(result.error!.message).toBe('Invalid input, nothing was sent: Invoice: must be the service’s invoice ID, a whole number (got "10 42")');
	});
});
