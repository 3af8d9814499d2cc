/**
 * What one execution knows about the policies it files on (the look first, on every account):
 * each policy's transactions are listed once (every item of that policy awaits
 * the same listing, so concurrent items cost one read), invoices this execution files are added
 * to that list, and the items of one policy are filed one after another, so a row cannot miss
 * an equal row filed a moment earlier by another item of the same run. A row whose outcome stayed
 * unknown makes the run forget its policy's listing (the next row of the policy reads it again)
 * and is remembered, so an equal row filed later in the run says it may be there twice. The
 * operation creates one book per run and passes it down; the book reads through a plain page
 * reader (invoiceList.ts) and counts what the look costs.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	pagesAtOnce,
	pagesOf,
	wholeListing,
	type InvoiceSource,
	type ListPage,
} from '../shared/invoiceList';
import { asksAccountSize, chooseListing } from '../shared/listingChoice';
import { INVOICE_LIST_MAX_PER_PAGE } from '../shared/service';
import { clock } from '../shared/timing';
import { referenceForm } from './formRules';
import { sameSentFiling } from './sameFiling';

/** What the look may spend at once: the key's budget as the transport knows it now. */
export interface LookBudget {
	/** Calls in flight at once (concurrency.ts's items in flight). */
	inFlight: () => number;
	/** Calls the key's window has left; undefined while not known. */
	callsLeft: () => number | undefined;
}

/** What the look and the filing cost a run: calls, and the time each kept the run waiting. */
export interface LookCost {
	lookCalls: number;
	/** Wall time while at least one of the look's calls was in flight. */
	lookMs: number;
	filingCalls: number;
	/** The run's wall time so far. */
	runMs: number;
	/** How the look read the account (the listing choice's sentence), when it asked. */
	how?: string;
}

export class PolicyBook {
	private readonly listings = new Map<string, Promise<IDataObject[]>>();
	private readonly queues = new Map<string, Promise<unknown>>();
	private readonly unknown = new Map<string, IDataObject[]>();
	/** Each stored transaction a row of this run filed or was matched to, with that row. */
	private readonly claims = new Map<string, IDataObject>();
	/** The listings read so far, as they stand now (filed invoices recorded into them). */
	private readonly read = new Map<string, IDataObject[]>();
	private readonly startedMs = clock.now();
	private lookCalls = 0;
	private lookMs = 0;
	private lookInFlight = 0;
	private lookSinceMs = 0;
	private filingCalls = 0;
	private how?: string;
	/** The account's size was asked in this run (once: the choice is made over the run's policies). */
	private accountRead?: Promise<void>;
	/** The source's page reader, each call counted and timed as the look's. */
	private readonly page: ListPage;

	constructor(
		private readonly source: InvoiceSource,
		private readonly budget: LookBudget,
	) {
		this.page = async (query) => {
			this.lookCalls++;
			if (this.lookInFlight++ === 0) this.lookSinceMs = clock.now();
			try {
				return await source.page(query);
			} finally {
				if (--this.lookInFlight === 0) this.lookMs += clock.now() - this.lookSinceMs;
			}
		};
	}

	/** The policy's transactions as listed once in this execution, plus those filed since. */
	async transactions(policyNumber: string, itemIndex: number): Promise<IDataObject[]> {
		// A read of the account under way gives this policy its transactions (or leaves it to its own).
		if (this.accountRead) await this.accountRead;
		let listing = this.listings.get(policyNumber);
		if (!listing) {
			listing = wholeListing(
				{ page: this.page, notEnded: this.source.notEnded },
				{ policyNumber, itemIndex },
			).then((pages) => pages.invoices);
			this.listings.set(policyNumber, listing);
			// A failed read is not kept: the next item of the policy reads again.
			listing.catch(() => this.listings.delete(policyNumber));
		}
		const invoices = await listing;
		this.read.set(policyNumber, invoices);
		return invoices;
	}

	/**
	 * Before a run looks for its rows (Create Many's batches, Create's first row): the listing
	 * choice (listingChoice.ts) weighs the account's listing against one listing per policy; where
	 * the account wins, its pages are read several at once and give each policy its transactions,
	 * the policy number matched in the form the comparison reads it in (sameFiling's table:
	 * `ABC-001` is `abc-1`), so what the service shows otherwise is still the policy's. Any doubt
	 * (the account lists nothing without a policy number, no total, a failed page, a listing that
	 * changed while it was read) leaves every policy to its own listing.
	 */
	async readAccountFor(policies: string[], itemIndex: number): Promise<void> {
		this.accountRead ??= this.readAccount(policies, itemIndex);
		await this.accountRead;
	}

	private async readAccount(policies: string[], itemIndex: number): Promise<void> {
		const wanted = [...new Set(policies)].filter((policy) => !this.listings.has(policy));
		if (!asksAccountSize(wanted.length)) return;
		const askedMs = clock.now();
		const first = await pagesOf(this.page, { maxPages: 1, itemIndex }).catch(() => undefined);
		const total = first?.pagination?.total;
		if (!first || total === undefined) return;
		const choice = chooseListing({
			policies: wanted.length,
			accountTotal: total,
			inFlight: this.budget.inFlight(),
			roundTripMs: clock.now() - askedMs,
			callsLeft: this.budget.callsLeft(),
		});
		this.how = choice.why;
		if (choice.how !== 'account') {
			this.listEach(wanted, itemIndex);
			return;
		}
		// Only the sheet's policies' invoices are kept (an account of 100,000 holds far more).
		const forms = new Set(wanted.map((policy) => referenceForm(policy)));
		const keep = (invoice: IDataObject) => forms.has(referenceForm(invoice.policy_number));
		const invoices = first.invoices.filter(keep);
		const ids = new Set(first.invoices.map((invoice) => String(invoice.id)));
		const pages = Math.ceil(total / INVOICE_LIST_MAX_PER_PAGE);
		if (pages > 1) {
			const rest = await pagesAtOnce(this.page, {
				from: 2,
				to: pages,
				total,
				inFlight: this.budget.inFlight,
				itemIndex,
				keep,
			});
			const doubt = rest.failed ? `page ${rest.failed.page} failed` : rest.changed;
			if (doubt) {
				this.how = `${choice.why} It was left for one listing per policy: ${doubt}.`;
				return;
			}
			for (const id of rest.ids) ids.add(id);
			for (let page = 2; page <= pages; page++) invoices.push(...(rest.byPage.get(page) ?? []));
			if (ids.size !== total) {
				this.how = `${choice.why} It was left for one listing per policy: ${ids.size} distinct invoices were read of the ${total} its first page gave.`;
				return;
			}
		}
		const byPolicy = new Map<string, IDataObject[]>();
		const listedIds = new Set<string>();
		for (const invoice of invoices) {
			if (listedIds.has(String(invoice.id))) continue;
			listedIds.add(String(invoice.id));
			const key = referenceForm(invoice.policy_number);
			const listed = byPolicy.get(key);
			if (listed) listed.push(invoice);
			else byPolicy.set(key, [invoice]);
		}
		// A policy listed on its own meanwhile keeps its listing (and what the run filed since).
		for (const policy of wanted) {
			if (this.listings.has(policy)) continue;
			const listing = Promise.resolve((byPolicy.get(referenceForm(policy)) ?? []).slice());
			this.listings.set(policy, listing);
		}
	}

	/**
	 * One listing per policy, started now, as many at once as the key's budget allows: the rows
	 * then find their policy read (Create's items, Create Many's look, a t2 run filing one row after
	 * another) instead of each waiting for its own listing. Each policy is still listed once; a
	 * listing that fails is read again by its row, whose error it then is.
	 */
	private listEach(policies: string[], itemIndex: number): void {
		let next = 0;
		const worker = async () => {
			while (next < policies.length) {
				const policy = policies[next++];
				await this.transactions(policy, itemIndex).catch(() => undefined);
			}
		};
		const workers = Math.min(Math.max(1, this.budget.inFlight()), policies.length);
		for (let k = 0; k < workers; k++) void worker();
	}

	/** Counts a call that files (a create, a batch), for the run's cost. */
	countFiling(calls = 1): void {
		this.filingCalls += calls;
	}

	/** What the look and the filing cost the run so far. */
	cost(): LookCost {
		const now = clock.now();
		const open = this.lookInFlight > 0 ? now - this.lookSinceMs : 0;
		return {
			lookCalls: this.lookCalls,
			lookMs: this.lookMs + open,
			filingCalls: this.filingCalls,
			runMs: now - this.startedMs,
			how: this.how,
		};
	}

	/**
	 * The policy's transactions read again: after a reply saying the service holds a filing the
	 * run's listing did not show (a 409 on a derived key, stored after the look first).
	 */
	async reread(policyNumber: string, itemIndex: number): Promise<IDataObject[]> {
		this.listings.delete(policyNumber);
		return await this.transactions(policyNumber, itemIndex);
	}

	/** Every transaction of the policies listed so far in this execution. */
	seen(): IDataObject[] {
		return [...this.read.values()].flat();
	}

	/** The policies listed so far in this execution, empty or not. */
	listed(): string[] {
		return [...this.read.keys()];
	}

	/** Adds an invoice filed in this execution to its policy's list (when that list was read). */
	async record(policyNumber: string, invoice: IDataObject): Promise<void> {
		const listing = this.listings.get(policyNumber);
		if (!listing) return;
		const invoices = await listing.catch(() => undefined);
		if (invoices && !invoices.some((known) => known.id === invoice.id)) invoices.push(invoice);
	}

	/** Marks a stored transaction as `body`'s: no other row of the run can be matched to it. */
	claim(invoice: IDataObject, body: IDataObject): void {
		if (invoice.id !== undefined && !this.claims.has(String(invoice.id)))
			this.claims.set(String(invoice.id), body);
	}

	/**
	 * Which transactions may be `body`'s: look-alikes are matched one to one (two rows and one
	 * stored: one is already filed, the other is filed), unless the rows are one filing as sent.
	 */
	usableFor(body: IDataObject): (invoice: IDataObject) => boolean {
		return (invoice) => {
			const by = this.claims.get(String(invoice.id));
			return !by || by === body || sameSentFiling(by, body);
		};
	}

	/**
	 * After a row of the policy failed: when it may have been filed without this run knowing, the
	 * policy is read again for the next row and the row is remembered. Returns the error.
	 */
	doubtAfter(error: unknown, mayHaveFiled: boolean, policyNumber: string, body: IDataObject) {
		if (mayHaveFiled) {
			this.listings.delete(policyNumber);
			this.read.delete(policyNumber);
			this.unknown.set(policyNumber, [...(this.unknown.get(policyNumber) ?? []), body]);
		}
		return error;
	}

	/** The rows of the policy whose outcome stayed unknown in this run. */
	doubted(policyNumber: string): IDataObject[] {
		return this.unknown.get(policyNumber) ?? [];
	}

	/** Runs `work` after every earlier work of the same policy in this execution has ended. */
	async exclusive<T>(policyNumber: string, work: () => Promise<T>): Promise<T> {
		const before = this.queues.get(policyNumber) ?? Promise.resolve();
		const mine = before.then(work, work);
		this.queues.set(
			policyNumber,
			mine.catch(() => undefined),
		);
		return await mine;
	}
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The sentence over a filing run's output on what the look cost beside the filing: "The look for
 * rows already filed: 201 calls in 0.6 s (the account’s listing …); the filing: 10 calls in
 * 1.1 s." Said for runs of 10 policies or more (where the listing choice was made); undefined for
 * fewer, whose look is a listing per policy.
 */
export function describeLookCost(cost: LookCost): string | undefined {
	if (cost.lookCalls === 0 || cost.how === undefined) return undefined;
	const calls = (n: number) => `${n} ${n === 1 ? 'call' : 'calls'}`;
	const filingMs = Math.max(0, cost.runMs - cost.lookMs);
	return `The look for rows already filed: ${calls(cost.lookCalls)} in ${seconds(cost.lookMs)}${cost.how ? ` (${cost.how.replace(/\.$/, '')})` : ''}; the filing: ${calls(cost.filingCalls)} in ${seconds(filingMs)} of the run’s ${seconds(cost.runMs)}.`;
}
