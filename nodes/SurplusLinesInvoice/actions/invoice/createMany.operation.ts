import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { addToErrorItem, errorItem } from '../../../shared/errors';
import { BATCH_MAX_INVOICES } from '../../../shared/service';
import { isOutcomeUnknown } from '../../../shared/transport';
import { fileInBatches, fileOneByOne, type Entry, type Outcome } from '../../batch';
import { noteConversions, readInvoiceInput, type InvoiceInput } from '../../body';
import { readIdempotencyChoice } from '../../idempotencyChoice';
import { invoiceJson } from '../../output';
import { filedTaxWarning, markTaxWarning } from '../../taxes';
import { bodyProperties, idempotencyProperties, simplifyProperty } from './body.description';

/**
 * The notice over Create Many, in one place: short, and true on every account and tier. Say here
 * what a re-run does once that is the same on every account.
 */
export const CREATE_MANY_NOTICE = `One invoice per input item: up to ${BATCH_MAX_INVOICES} a call with a t3 key, one call per item with t2. Each item comes out as its invoice or as an error item: run only the error items again.`;

const properties: INodeProperties[] = [
	{
		displayName: CREATE_MANY_NOTICE,
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

/** The first local failure, with every failed item listed (before any call: nothing was filed). */
function annotateLocal(error: Error, failures: Failure[], total: number): Error {
	const others = failures.slice(1).map((f) => f.index + 1);
	const lines = [
		`${failures.length} of ${total} rows failed${others.length ? ` (also rows ${others.join(', ')})` : ''}.`,
		'No invoice was filed.',
		'Turn on Settings → On Error → Continue to file the good items and get each bad item as its own error item.',
	];
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.description = [error.description, ...lines].filter(Boolean).join('\n');
		error.message = `Row ${failures[0].index + 1}: ${error.message}`;
	}
	return error;
}

/** The warning shown over the output after calls were made and some items were not filed. */
function notFiledSummary(notFiled: number[], filed: number, total: number): string {
	return `${notFiled.length} of ${total} rows were not filed or not confirmed (rows ${notFiled.map((i) => i + 1).join(', ')}); ${filed} filed. They come out as error items: fix and run only those rows again (running every row again would file the filed ones a second time).`;
}

/** Items with their own Idempotency Key are filed one by one: a batch call cannot carry per-invoice keys. */
async function fileAll(
	ctx: IExecuteFunctions,
	tier: string | undefined,
	entries: Entry[],
): Promise<Outcome[]> {
	if (tier !== 't3') return await fileOneByOne(ctx, entries);
	const ownKeys = entries.filter((e) => e.choice.mode === 'own');
	const batched = entries.filter((e) => e.choice.mode !== 'own');
	return [...(await fileInBatches(ctx, batched)), ...(await fileOneByOne(ctx, ownKeys))];
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
	const converted: Array<InvoiceInput['converted']> = [];
	for (let index = 0; index < count; index++) {
		try {
			requireTier(this, credential, 't2', 'Create Many invoices', index);
			const input = readInvoiceInput(this, index);
			converted[index] = input.converted;
			entries.push({
				index,
				body: input.body,
				choice: readIdempotencyChoice(this, index),
			});
		} catch (error) {
			failures.push({ index, error: error as Error });
		}
	}
	// A bad row stops the run before any call: fix it and run again, nothing was half-filed.
	if (failures.length && !continueOnFail) throw annotateLocal(failures[0].error, failures, count);

	const outcomes = entries.length ? await fileAll(this, credential.tier, entries) : [];
	// Nothing filed and nothing in doubt (e.g. a 403 for the whole batch): a re-run cannot file
	// twice, so this fails like any node would.
	const refusals = outcomes.flatMap((o) => ('error' in o ? [o.error] : []));
	if (!continueOnFail && refusals.length === outcomes.length && refusals.length > 0) {
		if (!refusals.some(isOutcomeUnknown)) throw refusals[0];
	}
	const output = new Array<INodeExecutionData>(count);
	for (const failure of failures) output[failure.index] = errorItem(failure.error, failure.index, this.getNode());
	const notFiled = failures.map((f) => f.index);
	let filed = 0;
	for (const outcome of outcomes) {
		if ('error' in outcome) {
			notFiled.push(outcome.index);
			output[outcome.index] = errorItem(outcome.error, outcome.index, this.getNode());
			continue;
		}
		filed++;
		const simplify = this.getNodeParameter('simplify', outcome.index, false) as boolean;
		output[outcome.index] = {
			json: noteConversions(
				markTaxWarning(
					this,
					invoiceJson(outcome.filed.invoice, simplify, outcome.filed),
					filedTaxWarning(outcome.filed.invoice),
					{ hint: false },
				),
				converted[outcome.index],
			),
			pairedItem: { item: outcome.index },
		};
	}
	if (notFiled.length) {
		notFiled.sort((a, b) => a - b);
		// Each error item says how the run went (counts); the warning lists every item not filed.
		const counts = `${notFiled.length} of ${count} rows not filed; ${filed} filed`;
		for (const index of notFiled) addToErrorItem(output[index], { summary: counts });
		this.addExecutionHints?.({
			message: notFiledSummary(notFiled, filed, count),
			type: 'warning',
			location: 'outputPane',
		});
	}
	return output;
}
