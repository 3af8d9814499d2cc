/**
 * Both continue modes in n8n's real engine (WorkflowExecute): "Continue" keeps error items on the
 * one output, flat; "Continue (using error output)" moves them to the error output, where n8n adds
 * the input item's fields. Counts are checked on both branches.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesCalculator } from '../../../nodes/SurplusLinesCalculator/SurplusLinesCalculator.node';
import { SurplusLinesDocument } from '../../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { runNode } from '../../harness/engine';
import { API, BASE, KEYS, envelope, failure, invoiceFor, jsonParams, listingReply, row, run, setupSuite, summaryParts } from '../invoice/helpers';

setupSuite();
// Create and Create Many look for each row on its policy's listing first (on every account); no
// row here uses a newer feature, so the account is not asked (GET /auth/me): no reply is given.

const rows = (n: number) => Array.from({ length: n }, (_, i) => row({ policy_number: `POL-${i}`, net_premium: 100 + i }));

/** 25 rows: row 5 (index 4) fails the local checks, rows 12 and 20 (indexes 11, 19) are refused by the service. */
function twentyFiveWithThreeBad() {
	const items: IDataObject[] = rows(25);
	items[4] = { ...items[4], effective_date: '2026-13-01' };
	// 24 policies to look for (row 5 fails before): the account's listing, read once, holds none of them.
	nock(API).get('/invoices').query({ page: 1, per_page: 100 }).reply(200, listingReply([]));
	nock(API)
		.post('/invoices/batch')
		.reply(200, (_uri, body) => {
			const invoices = (body as { invoices: IDataObject[] }).invoices;
			const results = invoices.map((invoice, index) =>
				['POL-11', 'POL-19'].includes(String(invoice.policy_number))
					? { index, success: false, error: { code: 'VALIDATION_ERROR', message: 'Validation failed', details: { fields: { state_code: ['Must be a valid state_code'] } } } }
					: { index, success: true, invoice: invoiceFor(invoice, 1000 + index) },
			);
			return envelope({ results, created: 22, failed: 2 }, 'req_batch');
		});
	return items;
}

const pairedIndexes = (items: Array<{ pairedItem?: unknown }> | undefined) => (items ?? []).map((i) => (i.pairedItem as { item: number }).item);

describe('Create Many: 3 bad rows of 25', () => {
	it('error output: [22, 3]; each error item names its row and keeps the input row', async () => {
		const { output, errorOutput, error } = await run(jsonParams('createMany'), { items: twentyFiveWithThreeBad(), key: KEYS.t3, continueOnFail: 'errorOutput' });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(22);
		expect(errorOutput).toHaveLength(3);
		expect(pairedIndexes(errorOutput)).toEqual([4, 11, 19]);
		const local = errorOutput![0].json;
		// n8n merges the input item's fields in: the sheet row's own columns come along.
		expect(local).toMatchObject({ policy_number: 'POL-4', insured_name: 'Acme Roofing LLC', message: expect.stringContaining('effective_date') });
		expect(local.error).toMatchObject({
			code: 'INVALID_INPUT',
			policy_number: 'POL-4',
			type_code: 'NEW',
			effective_date: '2026-13-01',
			summary: '3 of 25 rows not filed',
		});
		expect(errorOutput![1].json.error).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['state_code: Must be a valid state_code'], requestId: 'req_batch', policy_number: 'POL-11', effective_date: '2026-01-01' });
		expect(output!.every((item) => typeof item.json.id === 'number')).toBe(true);
	});

	it('regular continue: [25] on one output, the 3 error items flat, with row identity', async () => {
		const { output, errorOutput, run: result } = await run(jsonParams('createMany'), { items: twentyFiveWithThreeBad(), key: KEYS.t3, continueOnFail: true });
		expect(output).toHaveLength(25);
		expect(errorOutput).toBeUndefined();
		const bad = output!.filter((item) => typeof item.json.error === 'string');
		expect(pairedIndexes(bad)).toEqual([4, 11, 19]);
		expect(bad[2].json).toMatchObject({ error: expect.stringContaining('VALIDATION_ERROR'), code: 'VALIDATION_ERROR', policy_number: 'POL-19', type_code: 'NEW', effective_date: '2026-01-01', summary: '3 of 25 rows not filed' });
		// The look's cost is a sentence of its own (test/unit/look).
		const hints = Object.values(result.data.resultData.runData)
			.flatMap((runs) => (runs[0].hints ?? []) as Array<{ message: string }>)
			.filter((hint) => !hint.message.startsWith('The look for rows already filed:'));
		// One summary, then the refused rows as a sheet with a header row shows them (item 0 is row 2).
		expect(summaryParts(output!, 25, hints[0].message)).toMatchObject({ filed: 22, refused: 3 });
		expect(hints[1].message).toMatch(/^3 of 25 rows refused: rows 6 \(item 4, policy POL-4\), 13 \(item 11, policy POL-11\), 21 \(item 19, policy POL-19\)\. Rows are counted/);
	});
});

describe('Create, Calculator, Document: error output', () => {
	it('Create with a t1 key: [0, 1], the item names its row; regular: [1] flat', async () => {
		const body = row({ policy_number: 'POL-T1', type_code: 'RENEWAL' });
		const routed = await run(jsonParams('create'), { items: [body], key: KEYS.t1, continueOnFail: 'errorOutput' });
		expect(routed.output).toEqual([]);
		expect(routed.errorOutput).toHaveLength(1);
		expect(routed.errorOutput![0].json.error).toMatchObject({ code: 'TIER_REQUIRED', policy_number: 'POL-T1', type_code: 'RENEWAL', effective_date: '2026-01-01' });
		expect(routed.errorOutput![0].pairedItem).toEqual({ item: 0 });

		const flat = await run(jsonParams('create'), { items: [body], key: KEYS.t1, continueOnFail: true });
		expect(flat.output).toHaveLength(1);
		expect(flat.output![0].json).toMatchObject({ code: 'TIER_REQUIRED', policy_number: 'POL-T1', type_code: 'RENEWAL' });
		expect(typeof flat.output![0].json.error).toBe('string');
	});

	it('Create refused by the service: the error item keeps code, fields and request ID under error', async () => {
		nock(API).get('/invoices').query({ policy_number: 'POL-100', page: 1, per_page: 100 }).reply(200, listingReply([]));
		nock(API).post('/invoices').reply(422, failure('VALIDATION_ERROR', 'Validation failed', { fields: { net_premium: ['too low'] } }, 'req_422'));
		const { output, errorOutput } = await run(jsonParams('create'), { items: [row(), row({ policy_number: 'P2', state_code: 'ZZ' })], continueOnFail: 'errorOutput' });
		expect(output).toEqual([]);
		expect(errorOutput!.map((i) => (i.json.error as IDataObject).code)).toEqual(['VALIDATION_ERROR', 'INVALID_INPUT']);
		expect(errorOutput![0].json.error).toMatchObject({ fields: ['net_premium: too low'], requestId: 'req_422', policy_number: 'POL-100' });
	});

	it('Calculator with state ZZ: [0, 1]; a good item stays on the success branch', async () => {
		nock(API).post('/calculator/estimate').reply(200, envelope({ state: { code: 'TX', name: 'Texas' }, input: { premium: 100 }, tax_base: 100, line_items: [], total_taxes_and_fees: 0, total_due: 100 }));
		const { output, errorOutput } = await runNode({
			node: new SurplusLinesCalculator(),
			parameters: { resource: 'tax', operation: 'estimate', state: '={{ $json.state }}', premium: 100 },
			items: [{ state: 'ZZ' }, { state: 'TX' }],
			credentials: { apiKey: KEYS.t2, baseUrl: BASE },
			continueOnFail: 'errorOutput',
		});
		expect(output).toHaveLength(1);
		expect(errorOutput).toHaveLength(1);
		expect(errorOutput![0].json).toMatchObject({ state: 'ZZ', error: { code: 'INVALID_INPUT' } });
		expect(pairedIndexes(errorOutput)).toEqual([0]);
	});

	it('Document Get of a missing document: [0, 1]', async () => {
		nock(API).get('/invoices/1001/documents/nope').reply(404, failure('NOT_FOUND', 'Document not found'));
		const { output, errorOutput } = await runNode({
			node: new SurplusLinesDocument(),
			parameters: { resource: 'document', operation: 'get', invoiceId: { __rl: true, mode: 'id', value: '1001' }, referenceType: 'docUUID', document: 'nope' },
			credentials: { apiKey: KEYS.t2, baseUrl: BASE },
			continueOnFail: 'errorOutput',
		});
		expect(output).toEqual([]);
		expect(errorOutput![0].json).toMatchObject({ message: expect.stringContaining('NOT_FOUND'), error: { code: 'NOT_FOUND', httpStatus: 404 } });
	});
});
