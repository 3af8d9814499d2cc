/**
 * Batch items with their own `idempotency_key` (an assumption: the batch row of docs/assumptions.md) and the reply-held fault.
 */
import { invoiceBody, useSandbox, type Row } from './testkit';

describe('batch idempotency_key', () => {
	const kit = useSandbox({ now: () => new Date('2026-03-01T15:04:05Z') });
	const batch = async (invoices: unknown[], key = 't3') => {
		const res = await kit().api(key).post('/invoices/batch', { invoices });
		kit().conforms(res, 'POST', '/invoices/batch');
		expect(res.status).toBe(200);
		return res.data.data as { results: Row[]; created: number; failed: number };
	};
	const stored = async (key = 't3') => ((await kit().api(key).get('/invoices', { params: { per_page: 100 } })).data.data.invoices as Row[]).length;

	it('the same key and invoice replays the first invoice (replayed: true), stores nothing, and shares the header key space', async () => {
		const first = await batch([{ ...invoiceBody(), idempotency_key: 'row-1' }, { ...invoiceBody({ policy_number: 'P-2' }), idempotency_key: 'row-2' }]);
		expect([first.created, first.failed]).toEqual([2, 0]);
		expect(first.results.map((r) => r.replayed)).toEqual([undefined, undefined]);

		const again = await batch([{ ...invoiceBody(), idempotency_key: 'row-1' }, { ...invoiceBody({ policy_number: 'P-3' }), idempotency_key: 'row-3' }]);
		expect(again.results.map((r) => [r.success, (r.invoice as Row).id, r.replayed])).toEqual([
			[true, 1001, true],
			[true, 1003, undefined],
		]);
		expect([again.created, again.failed]).toEqual([1, 0]);
		expect(await stored()).toBe(3);

		// A single create with the header and the same key replays the batch item's invoice, and back.
		const single = await kit().api('t2').post('/invoices', invoiceBody({ policy_number: 'P-2' }), { headers: { 'Idempotency-Key': 'row-2' } });
		expect([single.status, single.data.data.id, single.headers['idempotent-replayed']]).toEqual([201, 1002, 'true']);
		await kit().api('t2').post('/invoices', invoiceBody({ policy_number: 'P-4' }), { headers: { 'Idempotency-Key': 'row-4' } });
		const back = await batch([{ ...invoiceBody({ policy_number: 'P-4' }), idempotency_key: 'row-4' }]);
		expect([back.results[0].replayed, (back.results[0].invoice as Row).id]).toEqual([true, 1004]);
		expect(await stored()).toBe(4);
	});

	it('the same key with a different invoice fails that item alone with CONFLICT', async () => {
		await batch([{ ...invoiceBody(), idempotency_key: 'k' }]);
		const res = await batch([{ ...invoiceBody({ net_premium: 1 }), idempotency_key: 'k' }, { ...invoiceBody({ policy_number: 'P-9' }), idempotency_key: 'k9' }]);
		expect(res.results.map((r) => [r.success, (r.error as Row | undefined)?.code])).toEqual([
			[false, 'CONFLICT'],
			[true, undefined],
		]);
		expect([res.created, res.failed]).toEqual([1, 1]);
	});

	it('a failed item does not use up its key; a bad key fails its item', async () => {
		const bad = await batch([{ ...invoiceBody({ state_code: 'ZZ' }), idempotency_key: 'k' }, { ...invoiceBody(), idempotency_key: 'has space' }]);
		expect(bad.results.map((r) => (r.error as Row).code)).toEqual(['VALIDATION_ERROR', 'VALIDATION_ERROR']);
		expect((bad.results[1].error as { details: { fields: Row } }).details.fields).toEqual({ 'invoices[1].idempotency_key': ['Must not contain spaces'] });
		const good = await batch([{ ...invoiceBody(), idempotency_key: 'k' }]);
		expect([good.results[0].success, good.results[0].replayed]).toEqual([true, undefined]);
	});

	it('legacy accounts ignore the field: the same key files again', async () => {
		await batch([{ ...invoiceBody(), idempotency_key: 'k' }], 'legacy-t3');
		const again = await batch([{ ...invoiceBody(), idempotency_key: 'k' }], 'legacy-t3');
		expect([again.created, again.results[0].replayed]).toEqual([1, undefined]);
		expect(await stored('legacy-t3')).toBe(2);
	});
});

describe('delay_after_commit', () => {
	const kit = useSandbox();

	// Real time: the reply is held 2 s, and the reads below come within a small part of that, so a
	// loaded machine keeps the order.
	it('stores the invoice at once and holds the reply for delay_ms', async () => {
		await kit().control('/faults', { delay_ms: 2000, delay_after_commit: true, methods: ['POST'], count: 1 });
		let replied = false;
		const pending = kit().api('t2').post('/invoices', invoiceBody());
		void pending.then(() => (replied = true));
		// The invoice is readable while its create's reply is still held.
		let status = (await kit().api('t2').get('/invoices/1001')).status;
		while (status !== 200 && !replied) {
			await new Promise((resolve) => setTimeout(resolve, 20));
			status = (await kit().api('t2').get('/invoices/1001')).status;
		}
		expect([status, replied]).toEqual([200, false]);
		expect((await pending).status).toBe(201);
	});

	it('without it, delay_ms waits before storing', async () => {
		await kit().control('/faults', { delay_ms: 2000, methods: ['POST'], count: 1 });
		const pending = kit().api('t2').post('/invoices', invoiceBody());
		await new Promise((resolve) => setTimeout(resolve, 150));
		expect((await kit().api('t2').get('/invoices/1001')).status).toBe(404);
		expect((await pending).status).toBe(201);
	});
});
