import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { FilingOutcome } from '../filing/fileInvoice';

import { withUtcTimes } from '../shared/dates';
import { isErrorItem } from '../shared/errors';
import { invoiceWithoutLinks } from '../shared/links';
import type { Run } from '../shared/run';

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

/**
 * How an operation shows invoices. From typeVersion 3 the service's `filed` (true once the invoice
 * was sent to the state) is shown as `sent_to_state`: beside a row's `outcome: "filed"` (filed with
 * the service), `filed: false` read as a contradiction. Versions 1 and 2 keep `filed`, for the IF
 * nodes of saved workflows.
 */
export interface InvoiceView {
	simplify: boolean;
	/** The name the service's `filed` goes under. */
	sentToStateField: 'filed' | 'sent_to_state';
}

export function invoiceView(version: number, simplify: boolean): InvoiceView {
	return { simplify, sentToStateField: version >= 3 ? 'sent_to_state' : 'filed' };
}

/** The invoice with its `filed` under the view's name, in the same place among its fields. */
function withSentToStateField(invoice: IDataObject, view: InvoiceView): IDataObject {
	if (view.sentToStateField === 'filed' || !('filed' in invoice)) return invoice;
	return Object.fromEntries(
		Object.entries(invoice).map(([key, value]) => [
			key === 'filed' ? view.sentToStateField : key,
			value,
		]),
	);
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
	view: InvoiceView,
	marks: FilingMarks = {},
): IDataObject {
	const json = withSentToStateField(
		view.simplify ? simplifyInvoice(invoice) : invoiceWithoutLinks(withUtcTimes(invoice)),
		view,
	);
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

/** The figures of a filing run's summary, by outcome (what outcomeSummary says in words). */
export interface OutcomeCounts {
	rows: number;
	filed: number;
	replayed: number;
	alreadyFiled: number;
	sentAgain: number;
	refused: number;
	/** The states of rows filed with the service that their state does not receive electronically. */
	notElectronic: string[];
	/** Rows whose sheet taxes differ from the computation: filed with the sheet's figure, or refused. */
	taxesDiffer?: { filed: number; refused: number };
}

// The preview's note on a state the service files for but not electronically (taxes/preview.ts
// keeps it as a note): the filing is prepared for the state's own process.
const NOT_ELECTRONIC = /^State (\w+) is not supported for filing$/;

/** The summary's figures from a run's output items (`rows`: the run's input rows). */
export function countItems(items: INodeExecutionData[], rows: number): OutcomeCounts {
	const counts: OutcomeCounts = {
		rows,
		filed: 0,
		replayed: 0,
		alreadyFiled: 0,
		sentAgain: 0,
		refused: 0,
		notElectronic: [],
		taxesDiffer: { filed: 0, refused: 0 },
	};
	for (const item of items) {
		const { json } = item;
		if (isErrorItem(item)) {
			counts.refused++;
			if (json.code === 'TAX_CHECK_FAILED') counts.taxesDiffer!.refused++;
			continue;
		}
		if (Number((json._taxCheck as IDataObject | undefined)?.differences) > 0) counts.taxesDiffer!.filed++;
		const outcome = json.outcome as FilingOutcome | undefined;
		if (outcome === 'filed') counts.filed++;
		else if (outcome === 'replayed') counts.replayed++;
		else if (outcome === 'already_filed') counts.alreadyFiled++;
		else if (outcome === 'sent_again') counts.sentAgain++;
		const notes = Array.isArray(json._previewNotes) ? (json._previewNotes as unknown[]) : [];
		for (const note of notes) {
			const state = NOT_ELECTRONIC.exec(String(note))?.[1];
			if (state) counts.notElectronic.push(state);
		}
	}
	return counts;
}

const rowsWord = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;

/**
 * The one sentence over a filing run's output (Create and Create Many alike), counting what a lead
 * must act on: "Of 25 rows: 15 filed, 5 already filed (5 replayed by the service), 5 refused
 * (error items, listed in the warning); nothing was filed twice." Undefined when every row was
 * simply filed: then there is nothing to act on.
 */
export function outcomeSummary(counts: OutcomeCounts): string | undefined {
	const already = counts.replayed + counts.alreadyFiled;
	const quiet = already === 0 && counts.sentAgain === 0 && counts.refused === 0;
	const differ = counts.taxesDiffer ?? { filed: 0, refused: 0 };
	if (quiet && counts.notElectronic.length === 0 && differ.filed === 0) return undefined;
	const parts: string[] = [];
	if (counts.filed) parts.push(`${counts.filed} filed`);
	if (already > 0) {
		const how = [
			counts.replayed ? `${counts.replayed} replayed by the service` : '',
			counts.alreadyFiled ? `${counts.alreadyFiled} found on their policy` : '',
		]
			.filter(Boolean)
			.join(', ');
		parts.push(`${already} already filed (${how})`);
	}
	if (counts.sentAgain > 0) {
		parts.push(
			`${counts.sentAgain} sent again after a reply that never came (outcome sent_again): check ${counts.sentAgain === 1 ? 'that policy' : 'those policies'} for a second filing`,
		);
	}
	if (counts.refused > 0)
		parts.push(`${counts.refused} refused (error items, listed in the warning)`);
	const states = [...new Set(counts.notElectronic)].sort();
	if (states.length) {
		const one = counts.notElectronic.length === 1;
		parts.push(
			`${counts.notElectronic.length} not filed electronically in ${one ? 'its' : 'their'} state (${states.join(', ')}): the service prepares ${one ? 'that filing' : 'those filings'} for the state's own process`,
		);
	}
	if (differ.filed + differ.refused > 0) {
		const how = [
			differ.filed ? `${differ.filed} filed at the sheet's figures, each listed in _taxCheck` : '',
			differ.refused ? `${differ.refused} refused (TAX_CHECK_FAILED)` : '',
		]
			.filter(Boolean)
			.join(' and ');
		parts.push(`${rowsWord(differ.filed + differ.refused)} whose sheet taxes differ from the computation: ${how}`);
	}
	const twice = counts.sentAgain > 0 ? '' : '; nothing was filed twice';
	return `Of ${rowsWord(counts.rows)}: ${parts.join(', ')}${twice}.`;
}

/** Says the run's summary over the output of Create and Create Many (the router calls it). */
export function sayOutcomeSummary(run: Run, items: INodeExecutionData[]): void {
	const message = outcomeSummary(countItems(items, run.items.length));
	if (message) run.say({ message, type: 'info', location: 'outputPane' });
}
