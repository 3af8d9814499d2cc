import type { INodeProperties } from 'n8n-workflow';

import { toolDescriptionProperties } from '../../../shared/toolUse';
import type { InvoiceView } from '../../output';
import * as checkSheet from './checkSheet.operation';
import * as correctFilings from './correctFilings.operation';
import * as create from './create.operation';
import * as createMany from './createMany.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as preview from './preview.operation';
import * as reconcile from './reconcile.operation';
import * as update from './update.operation';
import * as watchLook from './watchLook.operation';
import * as watchRecord from './watchRecord.operation';

export {
	checkSheet,
	correctFilings,
	create,
	createMany,
	del as delete,
	get,
	getAll,
	preview,
	reconcile,
	update,
	watchLook,
	watchRecord,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		default: 'create',
		options: [
			{
				name: 'Check Sheet',
				value: 'checkSheet',
				action: 'Check how rows will be filed',
				description:
					'Read every row as Create would and file nothing: which column gave each field, the columns not used, the rows that would be refused and why (no API call)',
			},
			{
				name: 'Correct Filings',
				value: 'correctFilings',
				action: 'Correct filings to match a sheet',
				description:
					'For each row Reconcile Sheet finds filed differently, show the Update (or, once accepted, the cancellation and new filing) that makes the service agree with the sheet; sent only when asked (needs t2 to send)',
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create an invoice',
				description: 'File a policy transaction (needs a t2 key)',
			},
			{
				name: 'Create Many',
				value: 'createMany',
				action: 'Create many invoices',
				description:
					'File every input item: batches of 500 with a t3 key, one call per item with t2',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete an invoice',
				description: 'Delete an invoice the state has not accepted (needs t2)',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get an invoice',
				description: 'Read an invoice with its status, documents and filing',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many invoices',
				description: 'List a policy’s transactions, oldest first',
			},
			{
				name: 'Preview',
				value: 'preview',
				action: 'Preview an invoice',
				description: 'Check an invoice and compute its taxes without storing it',
			},
			{
				name: 'Reconcile Sheet',
				value: 'reconcile',
				action: 'Reconcile a sheet with the service',
				description:
					'Compare every row with what the service holds, filing nothing (needs t1): filed as the sheet says, differently, not filed, and the invoices the sheet lacks',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update an invoice',
				description: 'Change fields of an invoice the state has not accepted (needs t2)',
			},
			{
				name: 'Watch List: Look for Changes',
				value: 'watchLook',
				action: 'Look for changes of watched invoices',
				description:
					'Read the watch list’s invoices within a budget, by policy, and say what changed and what settled',
			},
			{
				name: 'Watch List: Rows to Record',
				value: 'watchRecord',
				action: 'Make watch list rows of filed invoices',
				description:
					'Turn what Create, Create Many or Update filed into rows for the watch list’s data table',
			},
		],
	},
	...create.description,
	...createMany.description,
	...checkSheet.description,
	...preview.description,
	...get.description,
	...getAll.description,
	...reconcile.description,
	...correctFilings.description,
	...update.description,
	...del.description,
	...watchLook.description,
	...watchRecord.description,
	...toolDescriptionProperties('invoice', toolTexts('filed'), { '@version': [1, 2] }),
	...toolDescriptionProperties('invoice', toolTexts('sent_to_state'), {
		'@version': [{ _cnd: { gte: 3 } }],
	}),
];

/**
 * What an assistant reads about each tool. The service's `filed` is named as the node's version
 * shows it (output.ts, InvoiceView): `filed` in versions 1 and 2, `sent_to_state` from 3.
 */
function toolTexts(field: InvoiceView['sentToStateField']): Record<string, string> {
	return {
		preview:
			'Checks a policy transaction and computes its surplus lines taxes as the service would file it, without storing anything. ' +
			'Inputs: the policy number (the same on every transaction of a policy); the insured’s name; the state as its two-letter code (e.g. TX); the net premium in US dollars as a plain number (e.g. 12000; negative for returned premium on an endorsement or cancellation); the effective and expiration dates as YYYY-MM-DD; the transaction type: NEW, RENEWAL, ENDORSEMENT or CANCELLATION. ' +
			'Returns whether the service would accept it (valid; errors lists what it would refuse; the message that a state is not supported for filing only means its filing is prepared for the state’s own process), the tax lines (code, rate, amount in dollars), the totals and a disclaimer to pass on. ' +
			'Safe to call again; each call uses one of the API key’s hourly calls. An error names the input at fault and the rule: correct it and call again.',
		get:
			'Reads one filed invoice by its numeric invoice ID (e.g. 1042; listing the policy’s transactions gives the IDs). ' +
			`Returns its status (new: received; sent: filed with the state; success: accepted, it can no longer change; error: the filing failed; re-submitted), ${field === 'filed' ? 'filed (true once sent)' : 'sent_to_state (true once the service has sent it to the state)'}, the state, the premium, the fees total, warnings and, where the account reports it, the state’s answer: filing_state (not_sent, sent, accepted, confirmed, rejected or refused), confirmation_number and filing_message (the reason for a rejection). ` +
			'Reads only; safe to call again. An unknown ID gives a not-found error: check the ID against the policy’s transactions.',
		getAll:
			'Lists every transaction (invoice) of one policy, oldest first: new policy, endorsements, cancellation, renewal. ' +
			`Input: the policy number exactly as filed. Returns one entry per invoice with its ID, type, status, ${field}, state, premium, fees total and warnings; an empty result means nothing was filed under that number. ` +
			'Reads only; safe to call again.',
		create:
			'Files a policy transaction with the surplus lines service as a new invoice: this files a real tax document with the state, so call it only when the user has asked for the filing and confirmed the values, after a preview. ' +
			'Inputs: the policy number (the same on every transaction of a policy); the insured’s name; the state as its two-letter code (e.g. TX); the net premium in US dollars as a plain number (e.g. 12000; negative for returned premium on an endorsement or cancellation); the effective and expiration dates as YYYY-MM-DD; the transaction type: NEW, RENEWAL, ENDORSEMENT or CANCELLATION. The surplus lines taxes are computed by a preview and billed with the invoice. ' +
			`Returns the invoice (ID, status new, ${field} false, state, premium, fees total) and outcome: filed (${field === 'filed' ? 'stored now' : 'stored with the service now; sent_to_state turns true once the service sends it to the state'}), replayed or already_filed (the same transaction was filed before; nothing was filed twice). ` +
			'Calling again with the same inputs returns the first filing instead of a second one, so after a timeout or an unclear reply it is safe to call again with exactly the same inputs. ' +
			'An error names the input at fault and the rule; nothing was filed: correct it and call again.',
		checkSheet:
			'Reads policy transactions the way the create tool would and files nothing, with no call to the service. ' +
			'Returns for each input whether it would be sent or refused (reasons names the input and the rule), the request it would send, which input gave each field, inputs not used and why, and the rules that decided between two inputs giving one field. ' +
			'Safe to call again. It does not compute taxes nor ask the service’s own checks: use preview for those.',
		createMany:
			'Files every input item as an invoice in one run. Meant for workflows, not for an assistant: file one transaction at a time with the create tool instead.',
		correctFilings:
			'Corrects filings so that the service agrees with a sheet of policy transactions. Meant for month-end workflows, not for an assistant.',
		reconcile:
			'Compares a sheet of policy transactions with the invoices the service holds and files nothing. Meant for month-end workflows, not for an assistant: to read one policy, use the getAll tool.',
		watchLook:
			'Reads the invoices of a watch list (rows from a data table) and says what changed since each row was stored. Meant for scheduled workflows, not for an assistant: to check one invoice, use the get tool with its invoice ID.',
		watchRecord:
			'Turns the output of a filing into rows for a watch list data table; makes no call. Meant for workflows, not for an assistant.',
		update:
			'Changes fields of a filed invoice the state has not accepted yet, by its numeric invoice ID. Only the fields given change. ' +
			'Returns the invoice as stored. An invoice in status success cannot change (a conflict error): tell the user.',
		delete:
			'Deletes an invoice the state has not accepted yet, by its numeric invoice ID. It cannot be undone: call it only when the user asked for it. An invoice in status success cannot be deleted (a conflict error).',
	};
}
