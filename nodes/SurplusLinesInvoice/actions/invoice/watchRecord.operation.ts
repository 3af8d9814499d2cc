import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { stateAsFiled, stateOfInvoice } from '../../../watch/rowState';

const properties: INodeProperties[] = [
	{
		displayName:
			'Input: the output of Create, Create Many or Update. Output: one watch-list row per invoice in it, whatever its outcome (filed, replayed, already filed, sent again), for a Data table node’s Insert right after this one: a re-run records what an earlier run filed and did not record, each from the invoice as filed, so the first look posts every change since (a rejection before this run too). An invoice already on the list is recorded again; Look for Changes keeps its oldest row and lets the copy go. Error items and items without an invoice ID are left out (the hint says how many). No call is made.',
		name: 'watchRecordNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['watchRecord'] } },
	properties,
);

/** Outcomes of an invoice this run did not file: its row starts from the invoice as filed. */
const NOT_FILED_NOW = new Set(['already_filed', 'replayed']);

/** Words of the hint per outcome; an item without one (Update's) counts as recorded. */
const OUTCOME_WORDS: Record<string, string> = {
	filed: 'filed',
	replayed: 'replayed',
	already_filed: 'already filed',
	sent_again: 'sent again',
};

function recordedHint(rows: number, byOutcome: Map<string, number>): string {
	const parts = [...byOutcome].map(([outcome, n]) => `${n} ${OUTCOME_WORDS[outcome] ?? outcome}`);
	return `${rows} rows to record${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/**
 * Every item that names an invoice becomes a row, whatever its outcome: a run stopped between
 * Create and the data table's Insert, or a watch list added after the filing, leaves invoices
 * unwatched that only a re-run (replayed, already filed) can still name. Two items of one
 * invoice give one row, paired with both. A row already on the list from an earlier run is the
 * look's to drop (it keeps the oldest row of an invoice): this operation reads no table.
 */
export async function executeAll(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const rows: Array<{ json: IDataObject; items: number[] }> = [];
	const rowOf = new Map<number, { json: IDataObject; items: number[] }>();
	const byOutcome = new Map<string, number>();
	const left = { errors: 0, noInvoice: 0, copies: 0 };
	for (const [item, { json }] of this.getInputData().entries()) {
		const invoiceId = Number(json.id);
		if (json.error !== undefined) left.errors++;
		else if (!(Number.isInteger(invoiceId) && invoiceId > 0)) left.noInvoice++;
		else if (rowOf.has(invoiceId)) {
			left.copies++;
			rowOf.get(invoiceId)!.items.push(item);
		} else {
			const row: IDataObject = {
				invoice_id: invoiceId,
				policy_number: typeof json.policy_number === 'string' ? json.policy_number : '',
				// Not filed by this run: from the filing, so a rejection since is posted (rowState.ts).
				state: NOT_FILED_NOW.has(String(json.outcome)) ? stateAsFiled(json) : stateOfInvoice(json),
				checked_at: '',
				last_event: '',
				settled: false,
			};
			const recorded = { json: row, items: [item] };
			rowOf.set(invoiceId, recorded);
			rows.push(recorded);
			if (typeof json.outcome === 'string')
				byOutcome.set(json.outcome, (byOutcome.get(json.outcome) ?? 0) + 1);
		}
	}
	const skipped = [
		left.copies &&
			`${left.copies} items of an invoice already in this input (one row each invoice, paired with every item)`,
		left.errors && `${left.errors} error items (not filed)`,
		left.noInvoice && `${left.noInvoice} items without an invoice id`,
	].filter(Boolean);
	const recorded = recordedHint(rows.length, byOutcome);
	if (skipped.length || byOutcome.size > 1 || (byOutcome.size === 1 && !byOutcome.has('filed')))
		this.addExecutionHints?.({
			message: `${recorded}${skipped.length ? `; left out: ${skipped.join(', ')}` : ''}. Invoices already on the watch list from an earlier run are recorded again: Look for Changes keeps the oldest row of each invoice and lets the copy go.`,
			type: 'info',
			location: 'outputPane',
		});
	return rows.map(({ json, items }) => ({
		json,
		pairedItem: items.length === 1 ? { item: items[0] } : items.map((item) => ({ item })),
	}));
}
