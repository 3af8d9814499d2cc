/**
 * What Create Many does differently to stay light at 10,000 rows must not change what it files:
 * a row read by only the fields it has gives the full schema's result, `{{ $json }}` is the item
 * itself, and settings written as expressions are still read per item.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { invoiceSchema, problemLines, validateInvoice } from '../../../nodes/sheet/validation';
import { API, KEYS, NEW_FEATURES, derivedKey, envelope, invoiceFor, listingReply, meReply, row, run, setupSuite } from './helpers';

setupSuite();
// The account is asked about its features only where a run needs it (after a lost reply).
beforeEach(() => {
	nock(API).get('/auth/me').reply(200, meReply(NEW_FEATURES, 't3')).persist();
});

/** The look first of each policy (Look for Rows Already Filed, on by default): none holds its row. */
function emptyListings(policies: string[]) {
	return policies.map((policy) =>
		nock(API).get('/invoices').query({ policy_number: policy, page: 1, per_page: 100 }).reply(200, listingReply([])),
	);
}

/** One batch call that files every invoice and records what it carried. */
function recordingBatch(sent: IDataObject[][]) {
	let nextId = 1;
	return nock(API)
		.post('/invoices/batch')
		.reply(200, (_uri, body) => {
			const invoices = (body as { invoices: IDataObject[] }).invoices;
			sent.push(invoices);
			const results = invoices.map((invoice, index) => ({ index, success: true, invoice: invoiceFor(invoice, nextId++) }));
			return envelope({ results, created: results.length, failed: 0 });
		});
}

const BODIES: unknown[] = [
	row(),
	row({ type_code: 'renewal', net_premium: '$1,200.50', effective_date: '03/01/2026', extra_column: 'kept' }),
	row({ fees: [{ type: 'SL Tax', amount: '40' }], insured_address: { line1: '1 Main', type_id: 'Billing' } }),
	{ policy_number: 'P-1', state_code: 'Texas' },
	{ net_premium: 'ten', effective_date: '2026-02-30', fees: [{ type: 'nope', amount: 'x' }], policy_limit: -1 },
	row({ insurers: [{ lob_id: 3, amount: 1200, companies: [{ company_id: 'x' }] }], coverages: [{ code: 'GL', amount: 5 }] }),
	{},
];

describe('Create Many at scale: same results by the lighter paths', () => {
	it('reading a row by the fields it has gives what the full schema gives (values, problems, their order)', () => {
		for (const body of BODIES) {
			const full = invoiceSchema.safeParse(body);
			const result = validateInvoice(body);
			if (full.success) {
				expect(result).toMatchObject({ ok: true, body: JSON.parse(JSON.stringify(full.data)) });
			} else {
				expect(result.ok).toBe(false);
				const lines = (result as { problems: string[] }).problems;
				// The schema's own lines come first, in the schema's order; cross-field rules follow.
				expect(lines.slice(0, problemLines(full.error).length)).toEqual(problemLines(full.error));
			}
		}
	});

	it('a row of one value per field, read without zod, gives exactly what the schema gives (body, field order, conversions)', () => {
		const plainRows: IDataObject[] = [
			row(),
			row({ type_code: 'Endt', net_premium: '(1,200.50)', effective_date: '3/1/2026', expiration_date: 46000, state_code: 'texas' }),
			row({ invoice_number: 1042, class_code: null, commission: '12.5', lob_id: '7', lob_name: 'GL', invoice_date: new Date('2026-02-03T10:00:00Z') }),
			row({ transaction_effective_date: '2026-03-01T00:00:00', policy_number: 12345 }),
			{ zeta: 'kept', ...row(), alpha: 3, flag: true, nothing: null, gone: undefined },
			row({ nested: { a: 1 } }),
			row({ not_a_number: Number.NaN }),
			row({ net_premium: 'ten' }),
			row({ effective_date: '' }),
			{ policy_number: 'P-1' },
		];
		for (const body of plainRows) {
			const plain = validateInvoice(body);
			// A known field that is not one value (here an empty list of coverages, left out) sends
			// the same row through the schema.
			const bySchema = validateInvoice({ ...body, coverages: undefined });
			expect(plain).toEqual(bySchema);
			if (plain.ok && bySchema.ok) expect(Object.keys(plain.body)).toEqual(Object.keys(bySchema.body));
		}
	});

	it('a JSON body of {{ $json }} files exactly what the expression engine would hand over', async () => {
		const items = [row({ policy_number: 'A-1', net_premium: '1,000' }), row({ policy_number: 'A-2', extra: { nested: [1, 2] } })];
		const viaItem: IDataObject[][] = [];
		recordingBatch(viaItem);
		const looks = emptyListings(['A-1', 'A-2']);
		const plain = await run({ operation: 'createMany', inputMode: 'json', invoiceJson: '={{ $json }}' }, { items, key: KEYS.t3 });
		expect(plain.error).toBeUndefined();
		looks.forEach((l) => l.done());
		const viaEngine: IDataObject[][] = [];
		recordingBatch(viaEngine);
		const looksAgain = emptyListings(['A-1', 'A-2']);
		// Any other expression goes through n8n's engine: the same rows, the same bodies and keys.
		const evaluated = await run({ operation: 'createMany', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' }, { items, key: KEYS.t3 });
		expect(evaluated.error).toBeUndefined();
		looksAgain.forEach((l) => l.done());
		expect(viaItem).toEqual(viaEngine);
		expect(viaItem[0].map((b) => b.net_premium)).toEqual([1000, 1200]);
		expect(viaItem[0][1].idempotency_key).toBe(derivedKey({ ...items[1] }, '/invoices'));
		expect(plain.output!.map((o) => o.json.policy_number)).toEqual(['A-1', 'A-2']);
	});

	it('settings written as expressions are still read for each item (Simplify, Idempotency)', async () => {
		recordingBatch([]);
		const items = [row({ policy_number: 'S-1', simple: true }), row({ policy_number: 'S-2', simple: false })];
		const looks = emptyListings(['S-1', 'S-2']);
		const { output, error } = await run(
			{ operation: 'createMany', inputMode: 'inputItem', simplify: '={{ $json.simple }}' },
			{ items, key: KEYS.t3 },
		);
		expect(error).toBeUndefined();
		looks.forEach((l) => l.done());
		expect(output![0].json).not.toHaveProperty('invoice_date');
		expect(output![1].json).toHaveProperty('invoice_date');

		const sent: IDataObject[][] = [];
		recordingBatch(sent);
		const keyed = [row({ policy_number: 'K-1', mine: 'own-key-1' }), row({ policy_number: 'K-2', mine: 'own-key-2' })];
		// Rows with their own keys are looked for first too.
		const ownLooks = emptyListings(['K-1', 'K-2']);
		const own = await run(
			{ operation: 'createMany', inputMode: 'inputItem', idempotency: '={{ "own" }}', idempotencyKey: '={{ $json.mine }}' },
			{ items: keyed, key: KEYS.t3 },
		);
		expect(own.error).toBeUndefined();
		ownLooks.forEach((l) => l.done());
		expect(sent[0].map((b) => b.idempotency_key)).toEqual(['own-key-1', 'own-key-2']);
	});
});
