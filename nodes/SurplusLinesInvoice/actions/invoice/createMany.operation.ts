import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { errorItem } from '../../../shared/errors';
import { BATCH_MAX_INVOICES } from '../../../shared/service';
import { fileInBatches, fileOneByOne, type Entry, type Outcome } from '../../batch';
import { readInvoiceBody } from '../../body';
import { readIdempotencyChoice } from '../../idempotencyChoice';
import { invoiceJson } from '../../output';
import { bodyProperties, idempotencyProperties, simplifyProperty } from './body.description';

const properties: INodeProperties[] = [
	{
		displayName: `Each input item is one invoice. With a t3 key the items go in calls of up to ${BATCH_MAX_INVOICES} (1,001 items: 3 calls); with a t2 key the node makes one call per item. Every item is checked locally first: without "On Error: Continue" a bad item stops the node before anything is sent. Items the service refuses do not stop the others: every chunk is still sent, then the node fails naming the first refused item and listing the filed IDs; with "On Error: Continue" each refused item comes out as its own error item instead.`,
		name: 'createManyNotice',
		type: 'notice',
		default: '',
	},
	...bodyProperties(false),
	...idempotencyProperties,
	simplifyProperty,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['createMany'] } },
	properties,
);

type Failure = { index: number; error: Error };

function annotate(error: Error, failures: Failure[], filedIds: unknown[], total: number): Error {
	const others = failures.slice(1).map((f) => f.index);
	const lines = [
		`${failures.length} of ${total} items failed${others.length ? ` (also items ${others.slice(0, 20).join(', ')}${others.length > 20 ? ', …' : ''})` : ''}.`,
		filedIds.length
			? `${filedIds.length} invoices were filed (IDs ${filedIds.slice(0, 50).join(', ')}${filedIds.length > 50 ? ', …' : ''}): run only the failed items again.`
			: 'No invoice was filed.',
		'Turn on Settings → On Error → Continue to get one output item per input item, with each failure as its own error item.',
	];
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.description = [error.description, ...lines].filter(Boolean).join('\n');
		error.message = `Item ${failures[0].index}: ${error.message}`;
		return error;
	}
	return error;
}

/**
 * All items at once: local checks for every item, then batch calls (t3) or one call per item (t2).
 * Output: one item per input item, in input order, paired to it.
 */
export async function executeAll(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const count = this.getInputData().length;
	const continueOnFail = this.continueOnFail();
	const credential = await getServiceCredential(this, 0);
	const failures: Failure[] = [];
	const entries: Entry[] = [];
	for (let index = 0; index < count; index++) {
		try {
			requireTier(this, credential, 't2', 'Create Many invoices', index);
			entries.push({
				index,
				body: readInvoiceBody(this, index),
				choice: readIdempotencyChoice(this, index),
			});
		} catch (error) {
			failures.push({ index, error: error as Error });
		}
	}
	// A bad row stops the run before any call: fix it and run again, nothing was half-filed.
	if (failures.length && !continueOnFail) throw annotate(failures[0].error, failures, [], count);

	const outcomes: Outcome[] =
		credential.tier === 't3'
			? await fileInBatches(this, entries)
			: await fileOneByOne(this, entries);
	const simplify = this.getNodeParameter('simplify', 0, false) as boolean;
	const output = new Array<INodeExecutionData>(count);
	const filedIds: unknown[] = [];
	for (const failure of failures) output[failure.index] = errorItem(failure.error, failure.index);
	for (const outcome of outcomes) {
		if ('error' in outcome) {
			failures.push(outcome);
			output[outcome.index] = errorItem(outcome.error, outcome.index);
		} else {
			filedIds.push(outcome.filed.invoice.id);
			output[outcome.index] = {
				json: invoiceJson(outcome.filed.invoice, simplify, outcome.filed),
				pairedItem: { item: outcome.index },
			};
		}
	}
	if (failures.length && !continueOnFail) {
		failures.sort((a, b) => a.index - b.index);
		throw annotate(failures[0].error, failures, filedIds, count);
	}
	return output;
}
