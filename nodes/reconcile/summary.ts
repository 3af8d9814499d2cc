/**
 * The sentence over Reconcile Sheet's output a lead acts on: how many rows got each answer, the
 * invoices on the service not on the sheet, the filings their state rejected, and what the run
 * read and spent (and, where it stopped, that the next run goes on).
 */
import type { IDataObject } from 'n8n-workflow';

import { ANSWERS, type RowAnswer } from './answers';
import type { Listing } from './listing';
import { actionNeeded, REJECTED_STATES } from './nextSteps';

const REJECTED = REJECTED_STATES;

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
	// Every rejection and error, each with the state's reason and the next step (nextSteps.ts).
	const acted: IDataObject[] = [
		...rows.filter((r) => r.json.next_step).map((r) => ({ row: r.json.row ?? null, invoice_id: r.json.invoice_id ?? null, why: r.json.why, state_reason: r.json.state_reason, next_step: r.json.next_step })),
		...notOnSheet.flatMap((invoice) => {
			const needed = actionNeeded(invoice);
			return needed ? [{ row: null, invoice_id: invoice.id ?? null, ...needed } as IDataObject] : [];
		}),
	];
	const inError = acted.filter((a) => a.why === 'error').length;
	const parts = [
		`${n(counts.filed)} rows filed as the sheet says, ${n(counts.differently)} differently, ${n(counts.notFiled)} not filed, ${n(counts.cannotTell)} cannot tell${counts.refused ? `, ${n(counts.refused)} refused by the sheet’s own rules` : ''}${counts.notATransaction ? `, ${n(counts.notATransaction)} not transactions (report lines, or charges of another row’s filing)` : ''}`,
		notRead
			? `the sheet’s columns could not be read, so its ${n(notRead.withheld)} invoices on the service are not listed as missing from it (${notRead.why})`
			: `${n(counts.notOnSheet)} invoices on the service not on the sheet`,
		`${n(rejected)} filings rejected by their state`,
		...(inError ? [`${n(inError)} invoices in error`] : []),
	];
	const actions = acted.length
		? ` To act on: ${acted.map((a) => `invoice ${String(a.invoice_id)}${a.row ? ` (row ${String(a.row)})` : ' (not on the sheet)'}, ${String(a.why)}: ${String(a.state_reason)} → ${String(a.next_step)}`).join(' | ')}`
		: '';
	const read = `${n(listing.calls)} calls (${listing.how === 'account' ? 'the account’s listing, 100 a page' : 'one listing per policy'}; budget ${n(listing.budget)})`;
	const notes = [listing.why, listing.stopped].filter(Boolean).join(' ');
	const behind = counts.notRead ? ` ${n(counts.notRead)} rows not read yet.` : '';
	const message = `${parts.join('; ')}. ${read}.${behind}${notes ? ` ${notes}` : ''}${actions}`;
	return {
		message,
		warning: counts.notRead > 0 || counts.differently + counts.notFiled + counts.cannotTell + counts.notOnSheet + acted.length > 0,
		json: { ...counts, rejectedByState: rejected, inError, toActOn: acted, calls: listing.calls, listing: listing.how, resumed: listing.resumed, note: notes || null },
	};
}
