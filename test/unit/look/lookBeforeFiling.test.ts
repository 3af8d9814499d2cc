/**
 * The look before filing on plain values: the one listing choice (calls and round trips), the
 * account's pages read several at once, a listing that changed while it was read left for one
 * listing per policy, and what the look cost said beside the filing.
 */
import type { IDataObject } from 'n8n-workflow';

import { PolicyBook, describeLookCost } from '../../../nodes/filing/policyBook';
import { pagesAtOnce, type InvoiceSource, type PageQuery } from '../../../nodes/shared/invoiceList';
import { chooseListing } from '../../../nodes/shared/listingChoice';
import { policyKey } from '../../../nodes/reconcile/answers';
import { readListing } from '../../../nodes/reconcile/listing';

describe('chooseListing', () => {
	it('5,000 policies on an account of 100,000 at 200 in flight: the account (999 calls, 5 round trips, against 5,000 calls and 25)', () => {
		const choice = chooseListing({ policies: 5000, accountTotal: 100_000, inFlight: 200, roundTripMs: 200 });
		expect(choice).toMatchObject({ how: 'account', accountCalls: 999, policyCalls: 5000, accountTrips: 5, policyTrips: 25 });
	});

	it('300 policies on an account of 100,000: each policy (999 pages would be more calls)', () => {
		expect(chooseListing({ policies: 300, accountTotal: 100_000, inFlight: 200, roundTripMs: 200 }).how).toBe('policies');
	});

	it('the page 1 already read is not counted: 10 policies on 1,000 invoices, 9 more pages against 10 listings', () => {
		expect(chooseListing({ policies: 10, accountTotal: 1_000, inFlight: 25 })).toMatchObject({ accountCalls: 9, policyCalls: 10 });
		// Nearly as many calls, and 1,000 invoices to read: each policy; 40 policies take two round trips, the account one.
		expect(chooseListing({ policies: 10, accountTotal: 1_000, inFlight: 25, roundTripMs: 200 }).how).toBe('policies');
		expect(chooseListing({ policies: 40, accountTotal: 1_000, inFlight: 25, roundTripMs: 200 }).how).toBe('account');
	});

	it('fewer calls but longer: 300 policies on 20,000 invoices at 200 in flight, 200 ms a round trip, each policy', () => {
		// 199 pages in 1 round trip, but 20,000 invoices for n8n to read: about 1.1 s against 0.85 s.
		const choice = chooseListing({ policies: 300, accountTotal: 20_000, inFlight: 200, roundTripMs: 200 });
		expect(choice).toMatchObject({ how: 'policies', accountCalls: 199, accountTrips: 1, policyTrips: 2, accountMs: 1099, policyMs: 850 });
		expect(choice.why).toBe('Read one listing per policy (300 calls, about 0.8 s): the account’s listing (20000 invoices: 200 pages, about 1.1 s after its first page) takes longer.');
		// 25 in flight (a key with little left): 8 round trips against 12, the account.
		expect(chooseListing({ policies: 300, accountTotal: 20_000, inFlight: 25, roundTripMs: 200 }).how).toBe('account');
	});

	it('one listing per policy taking more than a quarter of the calls the key has left: the account', () => {
		const choice = chooseListing({ policies: 300, accountTotal: 20_000, inFlight: 200, roundTripMs: 200, callsLeft: 1000 });
		expect(choice.how).toBe('account');
		expect(choice.why).toMatch(/more than a quarter of the 1000 calls the key has left/);
		// Not when the account does not fit either.
		expect(chooseListing({ policies: 300, accountTotal: 20_000, inFlight: 200, callsLeft: 150 }).how).toBe('policies');
	});

	it('a period needs the whole account', () => {
		expect(chooseListing({ policies: 3, accountTotal: 50_000, inFlight: 25, needsAccount: true }).how).toBe('account');
	});
});

/** An account of `total` invoices on policies P-0.., as the service pages it; `shift` drops one invoice after page `at` is read. */
function fakeAccount(total: number, options: { shiftAfterPage?: number } = {}) {
	let invoices: IDataObject[] = Array.from({ length: total }, (_, i) => ({ id: 1001 + i, policy_number: `P-${i % 50}` }));
	const asked: PageQuery[] = [];
	let open = 0;
	let mostOpen = 0;
	const source: InvoiceSource = {
		page: async (query) => {
			asked.push(query);
			mostOpen = Math.max(mostOpen, ++open);
			await new Promise((resolve) => setTimeout(resolve, 5));
			open--;
			const listed = query.policyNumber ? invoices.filter((i) => i.policy_number === query.policyNumber) : invoices;
			const rows = listed.slice((query.page - 1) * query.perPage, query.page * query.perPage);
			if (options.shiftAfterPage === query.page) invoices = invoices.slice(1);
			return { data: { invoices: rows, pagination: { page: query.page, per_page: query.perPage, total: listed.length } } };
		},
		notEnded: (message) => new Error(message),
	};
	return { source, asked, mostOpen: () => mostOpen };
}

describe('pagesAtOnce', () => {
	it('reads pages 2..N several at once, each once', async () => {
		const account = fakeAccount(2_000);
		const read = await pagesAtOnce(account.source.page, { from: 2, to: 20, total: 2_000, inFlight: () => 8 });
		expect(read.calls).toBe(19);
		expect([...read.byPage.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 19 }, (_, i) => i + 2));
		expect(account.mostOpen()).toBe(8);
		expect(read.changed).toBeUndefined();
	});

	it('says so when the listing changed while it was read', async () => {
		const account = fakeAccount(2_000, { shiftAfterPage: 2 });
		const read = await pagesAtOnce(account.source.page, { from: 2, to: 20, total: 2_000, inFlight: () => 1 });
		expect(read.changed).toMatch(/page 3 gave a total of 1999, page 1 2000/);
	});
});

describe('PolicyBook', () => {
	const budget = { inFlight: () => 200, callsLeft: () => undefined };

	it('reads the account for 100 policies on 2,000 invoices: 20 calls, every policy’s transactions from them', async () => {
		const account = fakeAccount(2_000);
		const book = new PolicyBook(account.source, budget);
		const policies = Array.from({ length: 100 }, (_, i) => `P-${i}`);
		await book.readAccountFor(policies, 0);
		expect(account.asked).toHaveLength(20);
		expect(account.asked.every((q) => q.policyNumber === undefined)).toBe(true);
		expect((await book.transactions('P-7', 0)).length).toBe(40);
		expect(await book.transactions('P-55', 0)).toEqual([]);
		expect(account.asked).toHaveLength(20);
		const cost = book.cost();
		expect(cost.lookCalls).toBe(20);
		expect(cost.how).toMatch(/^Read the account’s listing \(2000 invoices: 20 pages, about 0\.\d s after its first page\): fewer calls than one listing per policy \(100 calls/);
	});

	it('a policy asked for while the account is being read waits for it: no listing of its own, nothing the run filed overwritten', async () => {
		const account = fakeAccount(2_000);
		const book = new PolicyBook(account.source, budget);
		const reading = book.readAccountFor(Array.from({ length: 100 }, (_, i) => `P-${i}`), 0);
		const p7 = await book.transactions('P-7', 0);
		expect(p7).toHaveLength(40);
		await book.record('P-7', { id: 99_999, policy_number: 'P-7' });
		await reading;
		expect(account.asked.every((q) => q.policyNumber === undefined)).toBe(true);
		expect((await book.transactions('P-7', 0)).map((i) => i.id)).toContain(99_999);
	});

	it('where each policy is listed, the listings start at once, as many as the budget allows, each once', async () => {
		const account = fakeAccount(50_000);
		const book = new PolicyBook(account.source, { inFlight: () => 6, callsLeft: () => undefined });
		const policies = Array.from({ length: 20 }, (_, i) => `P-${i}`);
		await book.readAccountFor(policies, 0);
		expect(book.cost().how).toMatch(/^Read one listing per policy \(20 calls/);
		// Before any row asks, the listings are under way, 6 at a time.
		await new Promise((resolve) => setTimeout(resolve, 30));
		expect(account.asked.filter((q) => q.policyNumber !== undefined).length).toBeGreaterThan(0);
		expect(account.mostOpen()).toBe(6);
		// The rows then find their policy read (1,000 invoices a policy: 10 pages each), each page once.
		for (const policy of policies) expect(await book.transactions(policy, 0)).toHaveLength(1000);
		const perPolicy = account.asked.filter((q) => q.policyNumber !== undefined);
		expect(new Set(perPolicy.map((q) => `${q.policyNumber}/${q.page}`)).size).toBe(perPolicy.length);
		expect(perPolicy).toHaveLength(200);
	});

	it('keeps only the sheet’s policies’ invoices', async () => {
		const account = fakeAccount(2_000);
		const book = new PolicyBook(account.source, budget);
		await book.readAccountFor([...Array.from({ length: 30 }, (_, i) => `P-${i}`), ...Array.from({ length: 70 }, (_, i) => `X-${i}`)], 0);
		expect(book.cost().lookCalls).toBe(20);
		expect((await book.transactions('P-29', 0)).length).toBe(40);
		// P-30..P-49 were not kept: asked for, each is listed on its own.
		expect((await book.transactions('P-31', 0)).length).toBe(40);
		expect(account.asked.at(-1)).toMatchObject({ policyNumber: 'P-31' });
	});

	it('a listing that changed while read leaves each policy to its own listing', async () => {
		const account = fakeAccount(2_000, { shiftAfterPage: 1 });
		const book = new PolicyBook(account.source, { inFlight: () => 1, callsLeft: () => undefined });
		await book.readAccountFor(Array.from({ length: 100 }, (_, i) => `P-${i}`), 0);
		expect(book.cost().how).toMatch(/left for one listing per policy: page 2 gave a total of 1999/);
		const before = account.asked.length;
		expect((await book.transactions('P-7', 0)).length).toBe(40);
		expect(account.asked.slice(before)).toEqual([expect.objectContaining({ policyNumber: 'P-7', page: 1 })]);
	});

	it('says what the look cost beside the filing', () => {
		expect(describeLookCost({ lookCalls: 0, lookMs: 0, filingCalls: 3, runMs: 100 })).toBeUndefined();
		// A run of fewer than 10 policies made no choice: its look is a listing per policy, not said.
		expect(describeLookCost({ lookCalls: 3, lookMs: 600, filingCalls: 3, runMs: 900 })).toBeUndefined();
		expect(describeLookCost({ lookCalls: 200, lookMs: 640, filingCalls: 10, runMs: 1800, how: 'Read the account’s listing (20000 invoices: 200 pages, 2 round trips at 200 at once): fewer calls than one listing per policy (300 calls, 2 round trips).' })).toBe(
			'The look for rows already filed: 200 calls in 0.6 s (Read the account’s listing (20000 invoices: 200 pages, 2 round trips at 200 at once): fewer calls than one listing per policy (300 calls, 2 round trips)); the filing: 10 calls in 1.2 s of the run’s 1.8 s.',
		);
	});
});

describe('Reconcile’s listing (readListing) on values', () => {
	it('reads the account several pages at once within its budget, and the next run goes on from the first page not read', async () => {
		const account = fakeAccount(2_000);
		const sheet = new Map(Array.from({ length: 50 }, (_, i) => [policyKey(`P-${i}`), `P-${i}`] as [string, string]));
		const first = await readListing(account.source, sheet, { share: 1 }, { budget: 8, inFlight: () => 4 });
		expect(first).toMatchObject({ how: 'account', calls: 8 });
		expect(first.stopped).toMatch(/spent its budget \(8 calls/);
		expect(first.progress).toMatchObject({ how: 'account', total: 2000, nextPage: 9 });
		expect(account.mostOpen()).toBe(4);
		const second = await readListing(account.source, sheet, { share: 1 }, { budget: 100, inFlight: () => 4, earlier: first.progress });
		expect(second).toMatchObject({ resumed: true, calls: 12, stopped: undefined, progress: undefined });
		expect(second.byPolicy.get(policyKey('P-7'))).toHaveLength(40);
		expect(account.asked.map((q) => q.page)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
	});
});
