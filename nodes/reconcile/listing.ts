/**
 * What Reconcile Sheet reads: the account's listing (GET /invoices without a filter, 100 a page)
 * where the account answers it and the listing choice (shared/listingChoice.ts, the look before
 * filing's too) says it costs less than one listing per policy, its pages several at once; else
 * one listing per policy, several at once, each read once. Calls grow with the invoices listed,
 * not with the rows. The run spends at most its share of the key's hour; what it could not read
 * is read first by the next run, which starts from what this one read (the operation keeps it in
 * the workflow's static data). Takes values and a page reader, never the node.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { readErrorInfo } from '../shared/errors';
import { describeCut, pagesAtOnce, pagesOf, type InvoiceSource } from '../shared/invoiceList';
import { chooseListing } from '../shared/listingChoice';
import { classifyFailure } from '../shared/readFailure';
import { ACCOUNT_LISTING_REFUSED, INVOICE_LIST_MAX_PER_PAGE } from '../shared/service';
import { clock } from '../shared/timing';
import { daysInForm } from '../filing/formRules';
import { policyKey } from './answers';

export interface Period {
	by: 'effective' | 'created';
	/** YYYY-MM-DD, inclusive; undefined: open. */
	from?: string;
	to?: string;
}

export interface ListingSettings {
	/** 0..1 of the key's hourly limit. */
	share: number;
	period?: Period;
}

export interface Listing {
	/** Invoices read, by policy key (only the sheet's policies). */
	byPolicy: Map<string, IDataObject[]>;
	/** Invoices of the period outside the sheet's policies. */
	extra: IDataObject[];
	calls: number;
	budget: number;
	how: 'account' | 'policies';
	/** Said when the account's listing could not be used. */
	why?: string;
	/** Said when the run stopped before reading everything. */
	stopped?: string;
	/** Policies (or account pages) read in earlier runs of the same sheet. */
	resumed: boolean;
}

/** Fields the answers and the output read; the rest of an invoice is not kept between runs. */
const KEPT = [
	'id', 'policy_number', 'invoice_number', 'invoice_date', 'insured_name', 'state', 'type', 'lob',
	'net_premium', 'commission', 'effective_date', 'expiration_date', 'transaction_effective_date',
	'status', 'filed', 'created', 'notes', 'fees', 'coverages', 'insurers', 'filing',
];
const kept = (invoice: IDataObject): IDataObject =>
	Object.fromEntries(KEPT.filter((k) => k in invoice).map((k) => [k, invoice[k]]));

export interface Progress {
	sheet: string;
	how: 'account' | 'policies';
	/** Per policy: its invoices, for policies read. */
	policies: Record<string, IDataObject[]>;
	/** Account mode: the account's size (its first page's total), the next page, the invoices read so far. */
	total?: number;
	nextPage?: number;
	invoices?: IDataObject[];
}

function fingerprint(policies: string[], period?: Period): string {
	return createHash('sha256')
		.update(JSON.stringify([[...policies].sort(), period ?? null]))
		.digest('hex')
		.slice(0, 24);
}

/**
 * Whether an invoice falls in the period. Its effective date is the transaction's: a keyed
 * account's change keeps the policy term in effective_date and the date of the change in
 * transaction_effective_date (a legacy account's effective_date is already the change's). A date
 * shown so that it reads as two days is in the period when either day is.
 */
export const inPeriod = (invoice: IDataObject, period: Period): boolean => {
	const value =
		period.by === 'created'
			? invoice.created
			: isBlank(invoice.transaction_effective_date)
				? invoice.effective_date
				: invoice.transaction_effective_date;
	if (isBlank(value)) return false;
	return daysInForm(value).some(
		(day) => /^\d{4}-\d{2}-\d{2}$/.test(day) && (!period.from || day >= period.from) && (!period.to || day <= period.to),
	);
};
const isBlank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

/** A refusal of the unfiltered listing (gaps.md: a real account may answer 422 there). */
const refusesAccountListing = (error: unknown): boolean => {
	const info = readErrorInfo(error);
	return info?.httpStatus === ACCOUNT_LISTING_REFUSED.status || info?.code === ACCOUNT_LISTING_REFUSED.code;
};

/** What a run of readListing needs beside the sheet: the key's budget and the run before it. */
export interface ListingRun {
	/** Calls the run may spend (the key's hourly limit × Budget Share). */
	budget: number;
	/** Calls in flight at once (the key's budget, concurrency.ts). */
	inFlight: () => number;
	/** What an earlier run of the same workflow read (the workflow's static data). */
	earlier?: Progress;
}

/**
 * Reads the sheet's policies (and the period) within the run's budget, resuming an earlier run.
 * `progress` is what the operation keeps for the next run (undefined: everything was read). A
 * failure that a setting must fix (a refused key, a wrong Base URL) on the run's first call is
 * thrown.
 */
export async function readListing(
	source: InvoiceSource,
	/** The sheet's policies: key (answers.ts) → the policy number as the sheet writes it. */
	sheetPolicies: Map<string, string>,
	settings: ListingSettings,
	run: ListingRun,
): Promise<Listing & { progress?: Progress }> {
	const policies = [...sheetPolicies.keys()];
	const { budget } = run;
	const sheet = fingerprint(policies, settings.period);
	const earlier = run.earlier;
	// An account read kept without its size (before the pages were read several at once) starts over.
	const resumed = earlier?.sheet === sheet && (earlier.how !== 'account' || earlier.total !== undefined);
	const progress: Progress = resumed ? earlier! : { sheet, how: 'policies', policies: {} };
	const wanted = new Set(policies);
	let calls = 0;
	let stopped: string | undefined;
	let why: string | undefined;
	// Whether any call of this run was answered: a failure a setting must fix (a refused key, a
	// wrong Base URL) before that is thrown, not said as a stop.
	let answered = false;
	const count = () => {
		calls++;
	};
	const stop = (error: unknown, what: string) => {
		if (classifyFailure(error) === 'fatal' && !answered) throw error;
		stopped ??= `The run stopped after ${what}: ${(error as Error).message}. The next run goes on from there.`;
	};

	// The account's pages from `firstPage` on, several at once, within the budget; what is kept is
	// the pages read in a row from `firstPage` (the next run goes on from the first not read).
	const readAccountPages = async (firstPage: number, total: number) => {
		const invoices = progress.invoices ?? [];
		progress.invoices = invoices;
		const pages = Math.ceil(total / INVOICE_LIST_MAX_PER_PAGE);
		const last = Math.min(pages, firstPage + Math.max(1, budget - calls) - 1);
		const read = await pagesAtOnce(source.page, {
			from: firstPage,
			to: last,
			total,
			inFlight: run.inFlight,
			beforeRequest: count,
		});
		if (read.byPage.size) answered = true;
		const ids = new Set(invoices.map((invoice) => String(invoice.id)));
		let page = firstPage;
		for (; read.byPage.has(page); page++)
			for (const invoice of read.byPage.get(page)!)
				if (!ids.has(String(invoice.id))) {
					ids.add(String(invoice.id));
					invoices.push(kept(invoice));
				}
		progress.nextPage = page > pages ? undefined : page;
		if (read.failed) stop(read.failed.error, `${invoices.length} invoices of the account’s listing`);
		else if (read.changed)
			stopped = `The account’s listing changed while it was read (${read.changed}); the next run reads it again from page ${page}.`;
	};

	if (!resumed) {
		// The account check: the first page of the account's listing says its size.
		let refusal: unknown;
		try {
			const askedMs = clock.now();
			const first = await pagesOf(source.page, { maxPages: 1, beforeRequest: count });
			answered = true;
			const total = first.pagination?.total ?? first.invoices.length;
			progress.total = total;
			const choice = chooseListing({
				policies: policies.length,
				accountTotal: total,
				inFlight: run.inFlight(),
				roundTripMs: clock.now() - askedMs,
				callsLeft: run.budget - calls,
				needsAccount: settings.period !== undefined,
			});
			if (choice.how === 'account') {
				progress.how = 'account';
				progress.invoices = first.invoices.map(kept);
				progress.nextPage = total > INVOICE_LIST_MAX_PER_PAGE ? 2 : undefined;
			} else why = `${choice.why} Each policy was listed.`;
		} catch (error) {
			refusal = error;
		}
		if (refusal !== undefined) {
			if (!refusesAccountListing(refusal)) throw refusal;
			why = `The account does not list its invoices without a policy number (${(refusal as Error).message}): each policy was listed${settings.period ? ', so the invoices not on the sheet cover the sheet’s policies only, not the whole period' : ''}.`;
		}
	}

	if (progress.how === 'account') {
		if (progress.nextPage !== undefined && calls < budget)
			await readAccountPages(progress.nextPage, progress.total ?? 0);
	} else {
		const toRead = policies.filter((policy) => !progress.policies[policy]);
		const running = new Set<Promise<void>>();
		const readPolicy = async (policy: string) => {
			try {
				const pages = await pagesOf(source.page, {
					policyNumber: sheetPolicies.get(policy),
					beforeRequest: count,
				});
				// A policy's listing stopped before its end is not known whole: not recorded as read.
				answered = true;
				if (pages.cut !== undefined)
					stopped ??= `The run stopped at policy ${policy}: ${describeCut('its transactions were not all read', pages)} The next run reads it again.`;
				else progress.policies[policy] = pages.invoices.map(kept);
			} catch (error) {
				stop(error, `${Object.keys(progress.policies).length} of ${policies.length} policies`);
			}
		};
		let fatal: unknown;
		for (const policy of toRead) {
			while (running.size >= Math.max(1, run.inFlight())) await Promise.race(running);
			if (stopped || fatal !== undefined || calls >= budget) break;
			const reading: Promise<void> = readPolicy(policy)
				.catch((error: unknown) => {
					fatal ??= error;
				})
				.finally(() => running.delete(reading));
			running.add(reading);
		}
		await Promise.all(running);
		if (fatal !== undefined) throw fatal;
	}

	const byPolicy = new Map<string, IDataObject[]>();
	const extra: IDataObject[] = [];
	let complete: boolean;
	if (progress.how === 'account') {
		complete = progress.nextPage === undefined && !stopped;
		for (const invoice of progress.invoices ?? []) {
			const key = policyKey(invoice.policy_number);
			if (wanted.has(key)) byPolicy.set(key, [...(byPolicy.get(key) ?? []), invoice]);
			else if (settings.period && inPeriod(invoice, settings.period)) extra.push(invoice);
		}
		// Until the account is read through, no policy of the sheet is known whole.
		if (!complete) byPolicy.clear();
		else for (const policy of policies) if (!byPolicy.has(policy)) byPolicy.set(policy, []);
	} else {
		for (const [policy, invoices] of Object.entries(progress.policies)) byPolicy.set(policy, invoices);
		complete = policies.every((policy) => progress.policies[policy]);
	}
	if (!complete && !stopped)
		stopped = `The run spent its budget (${budget} calls: the key’s hourly limit × Budget Share) before reading everything; the next run of this workflow goes on where this one stopped.`;
	return {
		byPolicy,
		extra,
		calls,
		budget,
		how: progress.how,
		why,
		stopped,
		resumed,
		progress: complete ? undefined : progress,
	};
}
