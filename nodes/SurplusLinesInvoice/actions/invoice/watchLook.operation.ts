import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { nodeVersion } from '../../../shared/params';
import { pageInvoices } from '../../../shared/invoiceSource';
import type { Run } from '../../../shared/run';
import { lookAtRows, type LookSettings } from '../../../watch/look';
import { readWatchRow, type WatchRow } from '../../../watch/rowState';
import { budgetShareProperty } from '../../../shared/descriptions';

const properties: INodeProperties[] = [
	{
		displayName:
			'Input: the watch list’s rows (a Data table node’s Get, Return All). Output: one item per invoice read, with the state to store, whether it changed (last_event) and whether it settled. Store it with a Data table Update under two conditions, the row’s ID equals {{ $json.row_id }} and state equals {{ $json.previous_state }}: the update takes once, so each change is sent once even when looks overlap. Rows not read this time keep their place and come first next time.',
		name: 'watchLookNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Looks per Hour',
		name: 'looksPerHour',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 3600 },
		default: 12,
		description:
			'How often the Schedule Trigger runs this workflow, in runs per hour (every 5 minutes: 12). With Budget Share it sets how many calls one look may spend.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			budgetShareProperty(
				25,
				'Share of the key’s hourly call limit the looks may use; the rest stays for filing and your other workflows. Calls per look = hourly limit × share ÷ looks per hour, at least 1. One call lists a policy’s transactions (100 a page) and covers every watched invoice on it.',
			),
			{
				displayName: 'Remind Every (Hours)',
				name: 'remindEveryHours',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 24,
				description:
					'An invoice whose state filing stays rejected (or whose status stays error) is said again this often, with its reason and next step (reminder: true), until it is settled. 0: never.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['watchLook'] } },
	properties,
);

function readSettings(ctx: IExecuteFunctions): LookSettings {
	const looksPerHour = Number(ctx.getNodeParameter('looksPerHour', 0, 12));
	const share = Number((ctx.getNodeParameter('options.budgetShare', 0, 25) as number) ?? 25);
	if (!(looksPerHour >= 1) || !(share > 0 && share <= 100))
		throw new NodeOperationError(
			ctx.getNode(),
			'Looks per Hour must be at least 1 and Budget Share between 1 and 100',
		);
	const remindEveryHours = Number(
		(ctx.getNodeParameter('options.remindEveryHours', 0, 24) as number) ?? 24,
	);
	if (!(remindEveryHours >= 0))
		throw new NodeOperationError(ctx.getNode(), 'Remind Every (Hours) must be 0 or more');
	return {
		looksPerHour,
		share: share / 100,
		version: nodeVersion(ctx),
		remindEveryMs: remindEveryHours * 3_600_000,
	};
}

/** Said over the output when the input holds no row (an empty table, Always Output Data on). */
const EMPTY_LIST =
	'The watch list is empty: no invoice to look at, nothing to post. Rows are added when invoices are filed (Invoice → Rows to Record, then the Data table Insert), and a row leaves once its invoice settles.';

/**
 * The one sentence that says what the look saw, so a run that posts nothing says why: "20 invoices
 * watched: 2 changed since the last look (1 settled, leaving the list), 18 unchanged."
 */
function lookSentence(results: IDataObject[], watched: number, waiting: number): string {
	const rows = results.filter((json) => json.duplicate_of === undefined);
	const changed = rows.filter((json) => json.changed === true);
	const reminders = rows.filter((json) => json.reminder === true).length;
	const settled = changed.filter((json) => json.settled === true).length;
	const unchanged = rows.length - changed.length;
	const parts = [
		changed.length
			? `${changed.length} changed since the last look${settled ? ` (${settled} settled, leaving the list)` : ''}`
			: 'none changed since the last look',
		unchanged && changed.length ? `${unchanged} unchanged` : '',
		waiting ? `${waiting} waiting for a later look` : '',
		reminders ? `${reminders} still waiting for someone (reminded)` : '',
	].filter(Boolean);
	const head = `${watched} ${watched === 1 ? 'invoice' : 'invoices'} watched: ${parts.join(', ')}.`;
	if (changed.length || reminders) return head;
	// A row starts from the invoice as filed: a move after the filing is a change for the first
	// workflow that looks, and only for it (the update takes once).
	return `${head} Nothing to post: each row starts from its invoice as it was recorded, so a move made since was already seen by an earlier look (this workflow's or another's on the same table).`;
}

/** All rows at once: which to read is chosen over the whole list. */
export async function executeAll(this: IExecuteFunctions, run: Run): Promise<INodeExecutionData[]> {
	const settings = readSettings(this);
	const rows: WatchRow[] = [];
	const unreadable: number[] = [];
	const input = this.getInputData();
	for (const [index, item] of input.entries()) {
		const row = readWatchRow(item.json, index);
		if (row) rows.push(row);
		// The empty item an empty table gives with Always Output Data is no row, not a bad one.
		else if (Object.keys(item.json).length) unreadable.push(index + 1);
	}
	if (!rows.length && !unreadable.length) {
		this.addExecutionHints?.({ message: EMPTY_LIST, type: 'info', location: 'outputPane' });
		return [];
	}
	// The policy pager over n8n's context (shared/invoiceSource.ts).
	const { results, summary } = await lookAtRows(run, rows, settings, (options) =>
		pageInvoices(this, options),
	);
	const said = lookSentence(
		results.map((result) => result.json),
		Number(summary.json.watched_invoices),
		Number(summary.json.invoices_waiting),
	);
	this.addExecutionHints?.({ message: said, type: 'info', location: 'outputPane' });
	const hints = [summary.behind, summary.stopped, ...summary.cuts].filter(
		(h): h is string => h !== undefined,
	);
	if (unreadable.length)
		hints.push(
			`${unreadable.length} input items name no invoice_id (items ${unreadable.slice(0, 20).join(', ')}${unreadable.length > 20 ? ', …' : ''}): they are not watch-list rows and were left out.`,
		);
	for (const message of hints)
		this.addExecutionHints?.({ message, type: 'warning', location: 'outputPane' });
	const look = { ...summary.json, said, notes: hints };
	return results
		.sort((a, b) => a.itemIndexes[0] - b.itemIndexes[0])
		.map((result) => ({
			json: { ...result.json, look },
			pairedItem: result.itemIndexes.map((item) => ({ item })),
		}));
}
