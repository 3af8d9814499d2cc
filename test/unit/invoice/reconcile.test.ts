/**
 * Reconcile Sheet's calls (nock): the account's listing, 100 a page, where it costs no more than
 * one listing per policy; otherwise each policy listed once whatever its rows; a refused account
 * listing falls back to the policies; a run over its budget stops and the next run goes on.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../../harness/engine';
import { endlessListing } from '../../helpers/endlessListing';
import { API, BASE, KEYS, envelope, failure, hintsOf, invoiceFor, jsonParams, row, setupSuite } from './helpers';

setupSuite();

const rowsOn = (policies: number, perPolicy: number) =>
	Array.from({ length: policies * perPolicy }, (_, i) =>
		row({ policy_number: `P-${Math.floor(i / perPolicy)}`, effective_date: `2026-01-${String((i % perPolicy) + 1).padStart(2, '0')}`, expiration_date: '2027-01-01' }),
	);

/** `count` invoices of the account; the first `filed` are the sheet's rows as filed. */
function account(rows: IDataObject[], others: number): IDataObject[] {
	const filed = rows.map((body, i) => invoiceFor(body, 1000 + i));
	const extra = Array.from({ length: others }, (_, i) => invoiceFor(row({ policy_number: `OTHER-${i}` }), 5000 + i));
	return [...filed, ...extra];
}

const page = (all: IDataObject[], number: number) =>
	envelope({ invoices: all.slice((number - 1) * 100, number * 100), pagination: { page: number, per_page: 100, total: all.length } });

/** Replies to every page of the account's listing, counting the calls. */
function accountListing(all: IDataObject[], calls: number[]) {
	return nock(API)
		.get('/invoices')
		.query((q) => q.policy_number === undefined && q.per_page === '100')
		.times(Math.ceil(all.length / 100) + 1)
		.reply((uri) => {
			const number = Number(new URL(uri, API).searchParams.get('page'));
			calls.push(number);
			return [200, page(all, number)];
		});
}

/** Replies to each policy's listing, counting the calls per policy. */
function policyListings(all: IDataObject[], calls: string[]) {
	return nock(API)
		.get('/invoices')
		.query((q) => typeof q.policy_number === 'string')
		.times(1000)
		.reply((uri) => {
			const params = new URL(uri, API).searchParams;
			const policy = String(params.get('policy_number'));
			const number = Number(params.get('page'));
			calls.push(`${policy}#${number}`);
			const mine = all.filter((i) => i.policy_number === policy);
			return [200, page(mine, number)];
		});
}

function reconcile(items: IDataObject[], options: IDataObject = {}, key = KEYS.t2, staticData?: IDataObject) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', ...jsonParams('reconcile'), options },
		items,
		credentials: { apiKey: key, baseUrl: BASE },
		continueOnFail: true,
		staticData,
	});
}

const answersOf = (output: Array<{ json: IDataObject }> | undefined) =>
	(output ?? []).reduce<Record<string, number>>((counts, o) => {
		counts[String(o.json.answer)] = (counts[String(o.json.answer)] ?? 0) + 1;
		return counts;
	}, {});

describe('Reconcile Sheet: calls grow with the invoices listed, not with the rows', () => {
	it('the account’s listing where cheaper: ceil(invoices / 100) calls, whatever the rows', async () => {
		const rows = rowsOn(40, 5);
		const all = account(rows, 50);
		const pages: number[] = [];
		const policies: string[] = [];
		accountListing(all, pages);
		policyListings(all, policies);
		const { output, run } = await reconcile(rows);
		expect(pages).toEqual([1, 2, 3]);
		expect(policies).toEqual([]);
		// The other policies' invoices are not the sheet's: no period was set.
		expect(answersOf(output)).toEqual({ 'filed as the sheet says': 200 });
		expect(hintsOf(run).map((h) => h.message).join()).toContain('3 calls (the account’s listing, 100 a page');
	});

	it('one listing per policy where the account is larger: each policy once, its pages at 100', async () => {
		const rows = [...rowsOn(3, 4), ...Array.from({ length: 150 }, (_, i) => row({ policy_number: 'BIG', net_premium: 1000 + i }))];
		const all = account(rows, 2000);
		const pages: number[] = [];
		const policies: string[] = [];
		accountListing(all, pages);
		policyListings(all, policies);
		const { output } = await reconcile(rows);
		expect(pages).toEqual([1]);
		expect(policies).toEqual(['P-0#1', 'P-1#1', 'P-2#1', 'BIG#1', 'BIG#2']);
		expect(answersOf(output)).toEqual({ 'filed as the sheet says': rows.length });
	});

	it('an account that refuses the listing without a policy: each policy listed, and the item says why', async () => {
		const rows = rowsOn(2, 3);
		const all = account(rows, 0);
		const policies: string[] = [];
		nock(API)
			.get('/invoices')
			.query((q) => q.policy_number === undefined)
			.reply(422, failure('VALIDATION_ERROR', 'policy_number is required', { fields: { policy_number: ['This field is required'] } }));
		policyListings(all, policies);
		const { output } = await reconcile(rows);
		expect(policies).toEqual(['P-0#1', 'P-1#1']);
		expect(answersOf(output)).toEqual({ 'filed as the sheet says': 6 });
		expect(String((output![0].json.summary as IDataObject).note)).toContain('does not list its invoices without a policy number');
	});

	it('a run over its budget stops cleanly; the next run goes on where it stopped and reads nothing twice', async () => {
		// t1: 100 calls an hour; 5% of it: 5 calls a run (the account check and 4 policies).
		const rows = rowsOn(8, 2);
		const all = account(rows, 0);
		const policies: string[] = [];
		nock(API)
			.get('/invoices')
			.query((q) => q.policy_number === undefined)
			.reply(422, failure('VALIDATION_ERROR', 'policy_number is required'));
		policyListings(all, policies);
		const first = await reconcile(rows, { budgetShare: 5 }, KEYS.t1);
		expect(policies).toEqual(['P-0#1', 'P-1#1', 'P-2#1', 'P-3#1']);
		expect(answersOf(first.output)).toEqual({ 'filed as the sheet says': 8, 'not read yet': 8 });
		expect(hintsOf(first.run).map((h) => h.message).join()).toContain('8 rows not read yet');
		expect(first.staticData?.reconcileSheet).toBeDefined();

		const second = await reconcile(rows, { budgetShare: 5 }, KEYS.t1, first.staticData);
		expect(policies).toEqual(['P-0#1', 'P-1#1', 'P-2#1', 'P-3#1', 'P-4#1', 'P-5#1', 'P-6#1', 'P-7#1']);
		expect(answersOf(second.output)).toEqual({ 'filed as the sheet says': 16 });
		expect((second.output![0].json.summary as IDataObject).resumed).toBe(true);
		expect(second.staticData?.reconcileSheet).toBeUndefined();
	});

	it('a policy whose listing never ends is not taken as read: its rows are not answered, and the run says why', async () => {
		const rows = rowsOn(1, 2).map((r) => ({ ...r, policy_number: 'POL-100' }));
		nock(API)
			.get('/invoices')
			.query((q) => q.policy_number === undefined)
			.reply(422, failure('VALIDATION_ERROR', 'policy_number is required'));
		const { pages } = endlessListing(API, 'repeat');
		const { output } = await reconcile(rows);
		expect(pages).toEqual([1, 2]);
		expect(answersOf(output)).toEqual({ 'not read yet': 2 });
		expect(String((output![0].json.summary as IDataObject).note)).toContain('page 2 added no invoice not read before');
	});
});
