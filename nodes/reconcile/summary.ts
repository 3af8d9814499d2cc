/**
 * The sentence over Reconcile Sheet's output a lead acts on: how many rows got each answer, the
 * invoices on the service not on the sheet, the filings their state rejected, and what the run
 * read and spent (and, where it stopped, that the next run goes on).
 */
import type { IDataObject } from 'n8n-workflow';

import { ANSWERS, type RowAnswer } from './answers';
import type { Listing } from './listing';

/** filing.state_status values that say the state did not take the filing. */
const REJECTED = new Set(['rejected', 'refused']);

const n = (value: number) => value.toLocaleString('en-US');

export function reconcileSummary(
	rows: RowAnswer[],
	notOnSheet: IDataObject[],
	listing: Listing,
	/** Invoices not listed because the sheet could not be read, and why. */
	notRead?: { withheld: number; why: string },
): { message: string; json: IDataObject; warning: boolean } {
	const count = (answer: string) => rows.filter((r) => r.json.answer === answer).length;
	const counts = {
		rows: rows.length,
		filed: count(ANSWERS.filed),
		differently: count(ANSWERS.differently),
		notFiled: count(ANSWERS.notFiled),
		cannotTell: count(ANSWERS.cannotTell),
		refused: count(ANSWERS.refused),
		notATransaction: count(ANSWERS.notATransaction),
		notRead: count(ANSWERS.notRead),
		notOnSheet: notOnSheet.length,
	};
	const filings = [...rows.map((r) => r.json.filing_state), ...notOnSheet.map((i) => (i.filing as IDataObject | undefined)?.state_status)];
	const rejected = filings.filter((state) => typeof state === 'string' && REJECTED.has(state)).length;
	const parts = [
		`${n(counts.filed)} rows filed as the sheet says, ${n(counts.differently)} differently, ${n(counts.notFiled)} not filed, ${n(counts.cannotTell)} cannot tell${counts.refused ? `, ${n(counts.refused)} refused by the sheet’s own rules` : ''}${counts.notATransaction ? `, ${n(counts.notATransaction)} not transactions (report lines, or charges of another row’s filing)` : ''}`,
		notRead
			? `the sheet’s columns could not be read, so its ${n(notRead.withheld)} invoices on the service are not listed as missing from it (${notRead.why})`
			: `${n(counts.notOnSheet)} invoices on the service not on the sheet`,
		`${n(rejected)} filings rejected by their state`,
	];
	const read = `${n(listing.calls)} calls (${listing.how === 'account' ? 'the account’s listing, 100 a page' : 'one listing per policy'}; budget ${n(listing.budget)})`;
	const notes = [listing.why, listing.stopped].filter(Boolean).join(' ');
	const behind = counts.notRead ? ` ${n(counts.notRead)} rows not read yet.` : '';
	const message = `${parts.join('; ')}. ${read}.${behind}${notes ? ` ${notes}` : ''}`;
	return {
		message,
		warning: counts.notRead > 0 || counts.differently + counts.notFiled + counts.cannotTell + counts.notOnSheet + rejected > 0,
		json: { ...counts, rejectedByState: rejected, calls: listing.calls, listing: listing.how, resumed: listing.resumed, note: notes || null },
	};
}
