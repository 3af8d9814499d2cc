import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { stateOfInvoice } from '../../watch/rowState';

const properties: INodeProperties[] = [
	{
		displayName:
			'Input: the output of Create, Create Many or Update. Output: one watch-list row per invoice filed or resent (invoice_id, policy_number, state, checked_at, last_event, settled), for a Data table node’s Insert right after this one. Rows replayed or already filed, and error items, are left out (the hint says how many). No call is made.',
		name: 'watchRecordNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['watchRecord'] } },
	properties,
);

/** Already on the list since the run that filed them (the same transaction is never filed twice). */
const NOT_NEW = new Set(['replayed', 'already_filed']);

export async function executeAll(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const rows: INodeExecutionData[] = [];
	const left = { errors: 0, notNew: 0, noInvoice: 0 };
	for (const [item, { json }] of this.getInputData().entries()) {
		if (json.error !== undefined) left.errors++;
		else if (NOT_NEW.has(String(json.outcome))) left.notNew++;
		else if (!(Number(json.id) > 0)) left.noInvoice++;
		else {
			const row: IDataObject = {
				invoice_id: Number(json.id),
				policy_number: typeof json.policy_number === 'string' ? json.policy_number : '',
				state: stateOfInvoice(json),
				checked_at: '',
				last_event: '',
				settled: false,
			};
			rows.push({ json: row, pairedItem: { item } });
		}
	}
	const skipped = [
		left.notNew && `${left.notNew} replayed or already filed (recorded when first filed)`,
		left.errors && `${left.errors} error items (not filed)`,
		left.noInvoice && `${left.noInvoice} items without an invoice id`,
	].filter(Boolean);
	if (skipped.length)
		this.addExecutionHints?.({
			message: `${rows.length} rows to record; left out: ${skipped.join(', ')}.`,
			type: 'info',
			location: 'outputPane',
		});
	return rows;
}
