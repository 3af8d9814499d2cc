/**
 * Reconcile Sheet: the sheet compared with what the service holds, filing nothing.
 *
 * Enters: every row as the sheet reader reads it, with its mark (SheetRow, built by the
 * operation from the sheet stage), the policies they name, and the listing settings (budget
 * share, period). Leaves: one answer per row (filed as the sheet says, differently, not filed,
 * cannot tell, refused) and the invoices no row accounts for, with the run's summary.
 *
 * listing.ts reads the account's listing or one per policy (the choice shared/listingChoice.ts
 * makes for the look before filing too), over a page reader and the key's budget given as values.
 */
export { ANSWERS, invoiceFacts, policyKey, reconcileRows } from './answers';
export type { SheetRow } from './answers';
export { inPeriod, readListing } from './listing';
export type { ListingSettings, Period } from './listing';
export { reconcileSummary } from './summary';
