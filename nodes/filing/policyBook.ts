/**
 * What one execution knows about the policies it files on (the look first, on every account):
 * each policy's transactions are listed once (every item of that policy awaits
 * the same listing, so concurrent items cost one read), invoices this execution files are added
 * to that list, and the items of one policy are filed one after another, so a row cannot miss
 * an equal row filed a moment earlier by another item of the same run. A row whose outcome stayed
 * unknown makes the run forget its policy's listing (the next row of the policy reads it again)
 * and is remembered, so an equal row filed later in the run says it may be there twice.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listInvoices, pageInvoices } from '../shared/invoiceList';
import { INVOICE_LIST_MAX_PAGES, INVOICE_LIST_MAX_PER_PAGE } from '../shared/service';
import { referenceForm } from './formRules';
import { sameSentFiling } from './sameFiling';

/**
 * Below this many policies a run lists each one: asking the account's size costs a call that a
 * few policies would not win back.
 */
const ACCOUNT_READ_FROM_POLICIES = 10;

class PolicyBook {
	private readonly listings = new Map<string, Promise<IDataObject[]>>();
	private readonly queues = new Map<string, Promise<unknown>>();
	private readonly unknown = new Map<string, IDataObject[]>();
	/** Each stored transaction a row of this run filed or was matched to, with that row. */
	private readonly claims = new Map<string, IDataObject>();
	/** The listings read so far, as they stand now (filed invoices recorded into them). */
	private readonly read = new Map<string, IDataObject[]>();

	constructor(private readonly ctx: IExecuteFunctions) {}

	/** The policy's transactions as listed once in this execution, plus those filed since. */
	async transactions(policyNumber: string, itemIndex: number): Promise<IDataObject[]> {
		let listing = this.listings.get(policyNumber);
		if (!listing) {
			listing = listInvoices(this.ctx, { policyNumber, itemIndex });
			this.listings.set(policyNumber, listing);
			// A failed read is not kept: the next item of the policy reads again.
			listing.catch(() => this.listings.delete(policyNumber));
		}
		const invoices = await listing;
		this.read.set(policyNumber, invoices);
		return invoices;
	}

	/**
	 * Before a run looks for its rows (Create Many's batches, Create's first row): where the
	 * account's listing takes fewer calls than one listing per policy (a sheet of many policies on
	 * a small account), it is read once and gives each policy its transactions, the policy number
	 * matched in the form the comparison reads it in (sameFiling's table: `ABC-001` is `abc-1`),
	 * so what the service shows otherwise is still the policy's. Any doubt (the account lists
	 * nothing without a policy number, a listing that did not end, a failed page) leaves every
	 * policy to its own listing.
	 */
	async readAccountFor(policies: string[], itemIndex: number): Promise<void> {
		const wanted = [...new Set(policies)].filter((policy) => !this.listings.has(policy));
		if (wanted.length < ACCOUNT_READ_FROM_POLICIES) return;
		const read = async (firstPage: number, maxPages?: number) =>
			await pageInvoices(this.ctx, { firstPage, maxPages, itemIndex }).catch(() => undefined);
		const first = await read(1, 1);
		const total = first?.pagination?.total;
		if (!first || total === undefined) return;
		const pages = Math.ceil(total / INVOICE_LIST_MAX_PER_PAGE);
		if (pages >= wanted.length || pages > INVOICE_LIST_MAX_PAGES) return;
		const invoices = first.invoices.slice();
		if (pages > 1) {
			const rest = await read(2);
			if (!rest || rest.cut !== undefined) return;
			const ids = new Set(invoices.map((invoice) => String(invoice.id)));
			invoices.push(...rest.invoices.filter((invoice) => !ids.has(String(invoice.id))));
		}
		const byPolicy = new Map<string, IDataObject[]>();
		for (const invoice of invoices) {
			const key = referenceForm(invoice.policy_number);
			const listed = byPolicy.get(key);
			if (listed) listed.push(invoice);
			else byPolicy.set(key, [invoice]);
		}
		for (const policy of wanted) {
			const listing = Promise.resolve((byPolicy.get(referenceForm(policy)) ?? []).slice());
			this.listings.set(policy, listing);
		}
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

const books = new WeakMap<object, PolicyBook>();

/** The execution's book (one per node run: n8n gives each run its own context object). */
export function policyBook(ctx: IExecuteFunctions): PolicyBook {
	let book = books.get(ctx);
	if (!book) books.set(ctx, (book = new PolicyBook(ctx)));
	return book;
}
