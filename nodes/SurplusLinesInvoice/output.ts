import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import type { FilingOutcome } from './filing/fileInvoice';

import { withUtcTimes } from '../shared/dates';
import { invoiceWithoutLinks } from '../shared/links';

interface FilingMarks {
	/** What happened to the row: the one field a workflow routes on (Create and Create Many alike). */
	outcome?: FilingOutcome;
	/** A plain sentence about the outcome (where the invoice was found, what to check). */
	note?: string;
	/** The service returned an earlier filing for the same Idempotency-Key (`Idempotent-Replayed: true`). */
	replayed?: boolean;
	/** After a lost reply, the filing was found among the policy's transactions instead of filed again. */
	recovered?: boolean;
	/** Found on the policy: the fields compared to decide it was the row, and those that could not be. */
	compared?: { compared: string[]; notComparable: string[] };
	/** What recognised an earlier filing as the row's (fileInvoice.ts, Filed.recognisedBy). */
	recognisedBy?: string;
}

function feesTotal(fees: unknown): number {
	const list = Array.isArray(fees) ? (fees as IDataObject[]) : [];
	const cents = list.reduce((sum, f) => sum + Math.round(Number(f.amount ?? 0) * 100), 0);
	return cents / 100;
}

/** The few fields most flows need; the whole invoice otherwise. */
function simplifyInvoice(invoice: IDataObject): IDataObject {
	return {
		id: invoice.id,
		policy_number: invoice.policy_number,
		type: (invoice.type as IDataObject | undefined)?.name ?? null,
		status: invoice.status,
		filed: invoice.filed,
		state: (invoice.state as IDataObject | undefined)?.code ?? null,
		net_premium: invoice.net_premium,
		fees_total: feesTotal(invoice.fees),
		warnings: Array.isArray(invoice.warnings) ? invoice.warnings : [],
		...filingState(invoice.filing),
	};
}

/** The state's answer to the filing, where the account reports it (read by id). */
function filingState(filing: unknown): IDataObject {
	if (!filing || typeof filing !== 'object') return {};
	const { state_status, confirmation_number, message } = filing as IDataObject;
	return {
		filing_state: state_status ?? null,
		confirmation_number: confirmation_number ?? null,
		filing_message: message ?? null,
	};
}

/**
 * One output item's json. A create's item carries `outcome` (and `outcomeNote` when there is
 * something to say); `_replayed` / `_recovered` are kept, when true, for workflows built on them.
 */
export function invoiceJson(
	invoice: IDataObject,
	simplify: boolean,
	marks: FilingMarks = {},
): IDataObject {
	const json = simplify ? simplifyInvoice(invoice) : invoiceWithoutLinks(withUtcTimes(invoice));
	if (marks.outcome) json.outcome = marks.outcome;
	if (marks.note) json.outcomeNote = marks.note;
	if (marks.replayed) json._replayed = true;
	if (marks.recovered) json._recovered = true;
	if (marks.recognisedBy) json.recognisedBy = marks.recognisedBy;
	if (marks.compared) {
		const { compared, notComparable } = marks.compared;
		json.outcomeCompared = { compared, notComparable };
	}
	return json;
}

interface OutcomeCounts {
	rows: number;
	filed: number;
	replayed: number;
	alreadyFiled: number;
	sentAgain: number;
	notFiled: number;
}

export function emptyCounts(rows: number): OutcomeCounts {
	return { rows, filed: 0, replayed: 0, alreadyFiled: 0, sentAgain: 0, notFiled: 0 };
}

export function countOutcome(counts: OutcomeCounts, outcome: FilingOutcome | 'error'): void {
	if (outcome === 'filed') counts.filed++;
	else if (outcome === 'replayed') counts.replayed++;
	else if (outcome === 'already_filed') counts.alreadyFiled++;
	else if (outcome === 'sent_again') counts.sentAgain++;
	else counts.notFiled++;
}

/**
 * The sentence over the output about rows not filed now: "12 of 25 rows were already filed;
 * nothing was filed twice". Undefined when every row was simply filed (or failed: the error
 * items speak for themselves).
 */
export function outcomeSummary(counts: OutcomeCounts): string | undefined {
	const already = counts.replayed + counts.alreadyFiled;
	if (already === 0 && counts.sentAgain === 0) return undefined;
	const parts: string[] = [];
	if (already > 0) {
		const how = [
			counts.replayed ? `${counts.replayed} replayed by the service` : '',
			counts.alreadyFiled ? `${counts.alreadyFiled} found on their policy` : '',
		]
			.filter(Boolean)
			.join(', ');
		parts.push(
			`${already} of ${counts.rows} rows ${already === 1 ? 'was' : 'were'} already filed (${how})`,
		);
	}
	if (counts.notFiled > 0) {
		parts.push(
			`${counts.notFiled} ${counts.notFiled === 1 ? 'row was' : 'rows were'} refused or not filed (error items, listed in the warning)`,
		);
	}
	if (counts.sentAgain > 0) {
		parts.push(
			`${counts.sentAgain} ${counts.sentAgain === 1 ? 'row was' : 'rows were'} sent again after a reply that never came (outcome sent_again): check those policies for a second filing`,
		);
	} else {
		parts.push('nothing was filed twice');
	}
	return `${parts.join('; ')}.`;
}

// One summary hint per execution for per-item operations: the router runs items one by one (or
// several at once), so the hint object is added once and its text kept up to date; n8n reads
// the hints when the node's run ends.
const running = new WeakMap<object, { counts: OutcomeCounts; hint?: NodeExecutionHint }>();

/** Counts one item's outcome into the execution's summary hint (Create); 'error' for a refused row. */
export function tallyOutcome(ctx: IExecuteFunctions, outcome: FilingOutcome | 'error'): void {
	let entry = running.get(ctx);
	if (!entry) running.set(ctx, (entry = { counts: emptyCounts(ctx.getInputData().length) }));
	countOutcome(entry.counts, outcome);
	const message = outcomeSummary(entry.counts);
	if (!message) return;
	if (entry.hint) {
		entry.hint.message = message;
		return;
	}
	entry.hint = { message, type: 'info', location: 'outputPane' };
	ctx.addExecutionHints?.(entry.hint);
}
