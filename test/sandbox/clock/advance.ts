import { setFetch, setFiling } from '../invoices/lifecycle';
import type { InvoiceStatus, StoredInvoice } from '../invoices/types';
import type { World } from '../world';

// Outcomes depend on the invoice id only, so a demo run is the same every time:
// ids ending in 0 or 5 meet an error once before they succeed; filings of ids ending in 7 are rejected.
const errorsOnce = (invoice: StoredInvoice): boolean => invoice.id % 5 === 0;
const filingRejected = (invoice: StoredInvoice): boolean => invoice.id % 10 === 7;

const NEXT_STATUS: Record<InvoiceStatus, (invoice: StoredInvoice) => InvoiceStatus> = {
	new: () => 'sent',
	sent: (invoice) => (errorsOnce(invoice) ? 'error' : 'success'),
	error: () => 're-submitted',
	're-submitted': () => 'success',
	success: () => 'success',
};

function advanceInvoice(invoice: StoredInvoice, now: Date): void {
	invoice.status = NEXT_STATUS[invoice.status](invoice);
	const filing = invoice.filing.state_status;
	if (filing === 'not_sent' && invoice.status !== 'new') setFiling(invoice, 'sent', now);
	else if (filing === 'sent')
		setFiling(invoice, filingRejected(invoice) ? 'rejected' : 'accepted', now, {
			message: filingRejected(invoice) ? 'Rejected by the state: the SL-2 form is missing the broker signature' : undefined,
		});
	else if (filing === 'accepted') setFiling(invoice, 'confirmed', now);
}

/** One step for everything that is still moving: invoices, filings, document fetches. */
export function advanceAll(world: World): void {
	const now = world.now();
	for (const invoice of world.invoices.all()) {
		advanceInvoice(invoice, now);
		for (const doc of invoice.documents) {
			if (doc.fetch_status === 'pending') setFetch(doc, 'fetching');
			else if (doc.fetch_status === 'fetching') setFetch(doc, 'fetched');
		}
	}
}

/** The demo clock (SANDBOX_AUTO_ADVANCE_SECONDS); returns a stop function. */
export function startAutoAdvance(world: World, seconds: number): () => void {
	const timer = setInterval(() => advanceAll(world), seconds * 1000);
	timer.unref();
	return () => clearInterval(timer);
}
