import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { lookAtRows, type LookSettings } from '../../watch/look';
import { readWatchRow, type WatchRow } from '../../watch/rowState';

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
			{
				displayName: 'Budget Share (%)',
				name: 'budgetShare',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100 },
				default: 25,
				description:
					'Share of the key’s hourly call limit the looks may use; the rest stays for filing and your other workflows. Calls per look = hourly limit × share ÷ looks per hour, at least 1. One call lists a policy’s transactions (100 a page) and covers every watched invoice on it.',
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
	return { looksPerHour, share: share / 100 };
}

/** All rows at once: which to read is chosen over the whole list. */
export async function executeAll(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const settings = readSettings(this);
	const rows: WatchRow[] = [];
	const unreadable: number[] = [];
	for (const [index, item] of this.getInputData().entries()) {
		const row = readWatchRow(item.json, index);
		if (row) rows.push(row);
		else unreadable.push(index + 1);
	}
	const { results, summary } = await lookAtRows(this, rows, settings);
	const hints = [summary.behind, summary.stopped, ...summary.cuts].filter(
		(h): h is string => h !== undefined,
	);
	if (unreadable.length)
		hints.push(
			`${unreadable.length} input items name no invoice_id (items ${unreadable.slice(0, 20).join(', ')}${unreadable.length > 20 ? ', …' : ''}): they are not watch-list rows and were left out.`,
		);
	for (const message of hints)
		this.addExecutionHints?.({ message, type: 'warning', location: 'outputPane' });
	const look = { ...summary.json, notes: hints };
	return results
		.sort((a, b) => a.itemIndexes[0] - b.itemIndexes[0])
		.map((result) => ({
			json: { ...result.json, look },
			pairedItem: result.itemIndexes.map((item) => ({ item })),
		}));
}
