/**
 * The pairing of replies with what was asked (nodes/filing/replyMatch.ts), as pure functions: a
 * create's reply is the row when it shows the row's values in any of the service's forms; batch
 * results go to the rows they describe, whatever their numbering.
 */
import type { IDataObject } from 'n8n-workflow';

import { withMark } from '../../../nodes/filing/mark';
import { describesRow, pairBatchResults, replyDifferences } from '../../../nodes/filing/replyMatch';
import { invoiceFor, row } from './helpers';

const sent = (overrides: IDataObject) => withMark(row(overrides), true);
const A = sent({ policy_number: 'P-A', net_premium: 100 });
const B = sent({ policy_number: 'P-B', net_premium: 200 });
const C = sent({ policy_number: 'P-C', net_premium: 300 });
const ok = (index: number, body: IDataObject, id: number) => ({ index, success: true, invoice: invoiceFor(body, id) });
const failed = (index: number) => ({ index, success: false, error: { code: 'VALIDATION_ERROR', message: 'bad' } });
const ids = (paired: Map<number, IDataObject>) =>
	[0, 1, 2].map((n) => {
		const result = paired.get(n);
		return result ? ((result.invoice as IDataObject | undefined)?.id ?? 'error') : 'unpaired';
	});

describe('a create’s reply', () => {
	it('is the row in the service’s own forms; another policy, premium, type, date or mark is not', () => {
		const invoice = invoiceFor(A, 1);
		expect(describesRow({ ...invoice, policy_number: 'p-a', net_premium: '100.00', effective_date: '2026-01-01T00:00:00Z' }, A)).toBe(true);
		expect(replyDifferences({ ...invoice, policy_number: 'P-B' }, A)).toEqual(['policy_number: sent "P-A", answered "P-B"']);
		expect(replyDifferences({ ...invoice, type: { id: 4, name: 'Cancelled' } }, A)).toEqual(['type: sent "NEW", answered "CANCELLATION"']);
		expect(replyDifferences({ ...invoice, invoice_number: 'SLAAAAAAAAAAAAAAAA' }, A)).toEqual([`invoice_number: sent "${String(A.invoice_number)}", answered "SLAAAAAAAAAAAAAAAA"`]);
		expect(describesRow({ ...invoice, effective_date: '2026-01-02' }, A)).toBe(false);
		expect(describesRow(null, A)).toBe(false);
	});
});

describe('batch results', () => {
	it('numbered from 0, in any order: each to its row', () => {
		expect(ids(pairBatchResults([A, B, C], [ok(2, C, 3), ok(0, A, 1), ok(1, B, 2)]))).toEqual([1, 2, 3]);
	});

	it('numbered from 1: each to the row it describes', () => {
		expect(ids(pairBatchResults([A, B, C], [ok(1, A, 1), ok(2, B, 2), ok(3, C, 3)]))).toEqual([1, 2, 3]);
	});

	it('a failure goes by its index only while the numbering holds; else its row is left to the policy listing', () => {
		expect(ids(pairBatchResults([A, B, C], [ok(0, A, 1), failed(1), ok(2, C, 3)]))).toEqual([1, 'error', 3]);
		expect(ids(pairBatchResults([A, B, C], [ok(1, A, 1), failed(2), ok(3, C, 3)]))).toEqual([1, 'unpaired', 3]);
	});

	it('a result describing no row of the chunk is given to none', () => {
		const stray = sent({ policy_number: 'P-Z' });
		expect(ids(pairBatchResults([A, B, C], [ok(0, A, 1), ok(1, stray, 9), ok(2, C, 3)]))).toEqual([1, 'unpaired', 3]);
	});

	it('two identical rows: the index chooses between them', () => {
		expect(ids(pairBatchResults([A, A, B], [ok(1, A, 2), ok(0, A, 1), ok(2, B, 3)]))).toEqual([1, 2, 3]);
	});
});
