import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { referenceForm } from '../filing/formRules';
import { describeCut } from '../shared/invoiceList';
import { pageInvoices } from '../shared/invoiceSource';
import { PATHS } from '../shared/service';
import { apiRequest } from '../shared/transport';

/**
 * A poll never waits for the rate limit: a 429 (or a spent window) fails the call at once and
 * the poll ends with "no events this time"; the next poll tries again.
 */
const POLL_SETTINGS = { maxRateLimitWaitSeconds: 0 };

/** GET /invoices/{id}: the invoice with its documents (and filing on new-features accounts). */
export async function readInvoice(this: IPollFunctions, id: string): Promise<IDataObject> {
	const reply = await apiRequest.call(this, {
		method: 'GET',
		path: PATHS.invoice(id),
		invoiceId: id,
		settings: POLL_SETTINGS,
	});
	const invoice = (reply.data ?? {}) as IDataObject;
	return { ...invoice, id: invoice.id ?? Number(id) };
}

/**
 * Whether a listed row is of the watched policy, in the comparison's reference form (letter
 * case, spaces, leading zeros): a service that filters by prefix or ignores the filter lists
 * other policies' transactions, which are no events of this one. A row showing no policy number
 * is kept (readers are tolerant of missing fields).
 */
const ofPolicy = (policyNumber: string) => {
	const watched = referenceForm(policyNumber);
	return (row: IDataObject) =>
		row.policy_number === undefined ||
		row.policy_number === null ||
		referenceForm(row.policy_number) === watched;
};

/**
 * GET /invoices?policy_number=, page by page (100 a page, the most the service gives), through the
 * shared pager. `onPage` receives each page as soon as it is read, so a failure on a later page
 * keeps what was read; `nextSeq` numbers each request just before it is sent; at most `maxPages`
 * calls (the poll's budget left). Returns the calls spent, and why the listing was stopped before
 * its end, if it was.
 */
export async function readPolicy(
	this: IPollFunctions,
	policyNumber: string,
	maxPages: number,
	nextSeq: () => number,
	onPage: (rows: IDataObject[], seq: number, last: boolean) => void,
): Promise<{ calls: number; cut?: string }> {
	let seq = 0;
	const pages = await pageInvoices(this, {
		policyNumber,
		maxPages,
		settings: POLL_SETTINGS,
		beforeRequest: () => {
			seq = nextSeq();
		},
		onPage: (rows, _page, last) => onPage(rows.filter(ofPolicy(policyNumber)), seq, last),
	});
	const cut =
		pages.cut === undefined
			? undefined
			: describeCut(`The listing of policy ${policyNumber} was not read whole this poll`, pages);
	return { calls: pages.calls, cut };
}

// What a failed read means: shared with the Invoice node's watch list.
export { classifyFailure, type Outcome } from '../shared/readFailure';
