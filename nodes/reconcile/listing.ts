/**
 * What Reconcile Sheet reads: the account's listing (GET /invoices without a filter, 100 a page)
 * where the account answers it and it costs no more calls than one listing per policy, else one
 * listing per policy, each read once. Calls grow with the invoices listed, not with the rows. The
 * run spends at most its share of the key's hour; what it could not read is read first by the
 * next run, which starts from what this one read (kept in the workflow's static data).
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { computeBudget } from '../shared/callBudget';
import { getServiceCredential } from '../shared/credentials';
import { readErrorInfo } from '../shared/errors';
import { describeCut, pageInvoices } from '../shared/invoiceList';
import { lastRateLimit } from '../shared/rateLimit';
import { classifyFailure } from '../shared/readFailure';
import { ACCOUNT_LISTING_REFUSED, INVOICE_LIST_MAX_PER_PAGE } from '../shared/service';
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

interface Progress {
	sheet: string;
	how: 'account' | 'policies';
	/** Per policy: its invoices, for policies read. */
	policies: Record<string, IDataObject[]>;
	/** Account mode: the next page, and the invoices read so far. */
	nextPage?: number;
	invoices?: IDataObject[];
}

const STATE_KEY = 'reconcileSheet';

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

function asNodeError(ctx: IExecuteFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error);
}

/** Reads the sheet's policies (and the period) within the run's budget, resuming an earlier run. */
export async function readListing(
	ctx: IExecuteFunctions,
	/** The sheet's policies: key (answers.ts) → the policy number as the sheet writes it. */
	sheetPolicies: Map<string, string>,
	settings: ListingSettings,
): Promise<Listing> {
	const policies = [...sheetPolicies.keys()];
	const credential = await getServiceCredential(ctx, 0);
	const budget = computeBudget(credential.tier, lastRateLimit(credential.fingerprint)?.limit, settings.share, 1).callsPerHour;
	const staticData = ctx.getWorkflowStaticData('node');
	const sheet = fingerprint(policies, settings.period);
	const earlier = staticData[STATE_KEY] as Progress | undefined;
	const resumed = earlier?.sheet === sheet;
	const progress: Progress = resumed ? earlier! : { sheet, how: 'policies', policies: {} };
	const wanted = new Set(policies);
	let calls = 0;
	let stopped: string | undefined;
	let why: string | undefined;
	const count = () => {
		calls++;
	};
	const stop = (error: unknown, what: string) => {
		if (classifyFailure(error) === 'fatal' && calls <= 1) throw asNodeError(ctx, error);
		stopped = `The run stopped after ${what}: ${(error as Error).message}. The next run goes on from there.`;
	};

	const readAccountPages = async (firstPage: number) => {
		const invoices = progress.invoices ?? [];
		progress.invoices = invoices;
		let lastRows = 0;
		try {
			const { pagination } = await pageInvoices(ctx, {
				firstPage,
				maxPages: Math.max(1, budget - calls),
				beforeRequest: count,
				onPage: (rows, page) => {
					invoices.push(...rows.map(kept));
					progress.nextPage = page + 1;
					lastRows = rows.length;
				},
			});
			const total = pagination?.total;
			const read = ((progress.nextPage ?? 1) - 1) * INVOICE_LIST_MAX_PER_PAGE;
			if (total !== undefined ? read >= total : lastRows < INVOICE_LIST_MAX_PER_PAGE)
				progress.nextPage = undefined;
		} catch (error) {
			stop(error, `${invoices.length} invoices of the account’s listing`);
		}
	};

	if (!resumed) {
		// The account check: the first page of the account's listing says its size.
		try {
			const first = await pageInvoices(ctx, { maxPages: 1, beforeRequest: count });
			const total = first.pagination?.total ?? first.invoices.length;
			const pages = Math.ceil(total / INVOICE_LIST_MAX_PER_PAGE);
			if (settings.period || pages <= policies.length) {
				progress.how = 'account';
				progress.invoices = first.invoices.map(kept);
				progress.nextPage = pages > 1 ? 2 : undefined;
			} else
				why = `The account’s listing (${total} invoices, ${pages} calls) costs more than one listing per policy (${policies.length} policies): each policy was listed.`;
		} catch (error) {
			if (!refusesAccountListing(error)) throw asNodeError(ctx, error);
			why = `The account does not list its invoices without a policy number (${(error as Error).message}): each policy was listed${settings.period ? ', so the invoices not on the sheet cover the sheet’s policies only, not the whole period' : ''}.`;
		}
	}

	if (progress.how === 'account') {
		if (progress.nextPage !== undefined && calls < budget) await readAccountPages(progress.nextPage);
	} else {
		for (const policy of policies) {
			if (progress.policies[policy] || stopped) continue;
			if (calls >= budget) break;
			try {
				const pages = await pageInvoices(ctx, {
					policyNumber: sheetPolicies.get(policy),
					beforeRequest: count,
				});
				// A policy's listing stopped before its end is not known whole: not recorded as read.
				if (pages.cut !== undefined) {
					stopped = `The run stopped at policy ${policy}: ${describeCut('its transactions were not all read', pages)} The next run reads it again.`;
					break;
				}
				progress.policies[policy] = pages.invoices.map(kept);
			} catch (error) {
				stop(error, `${Object.keys(progress.policies).length} of ${policies.length} policies`);
			}
		}
	}

	const byPolicy = new Map<string, IDataObject[]>();
	const extra: IDataObject[] = [];
	let complete: boolean;
	if (progress.how === 'account') {
		complete = progress.nextPage === undefined;
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
	if (complete) delete staticData[STATE_KEY];
	else staticData[STATE_KEY] = progress as unknown as IDataObject;
	return { byPolicy, extra, calls, budget, how: progress.how, why, stopped, resumed };
}
