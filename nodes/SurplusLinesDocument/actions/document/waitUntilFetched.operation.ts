import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inputError, serviceError } from '../../../shared/errors';
import { readInvoiceId } from '../../../shared/params';
import { PATHS } from '../../../shared/service';
import { clock } from '../../../shared/timing';
import { apiRequest } from '../../../shared/transport';
import { documentJson } from '../../../shared/links';
import { documentPathRef } from '../../reference';
import type { Run } from '../../../shared/run';
import { readDocumentReference } from './referenceSettings';
import { invoiceField, referenceFields } from './fields';

/** fetch_status values after which nothing changes by itself. */
const SETTLED = new Set(['fetched', 'failed', 'none']);

const properties: INodeProperties[] = [
	invoiceField,
	...referenceFields,
	{
		displayName: 'Max Wait (Seconds)',
		name: 'maxWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 3600 },
		default: 300,
		description:
			'How long to keep checking before giving up. Each check is one call toward the key’s hourly limit.',
	},
	{
		displayName: 'Check Every (Seconds)',
		name: 'intervalSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 3600 },
		default: 15,
		description: 'Time between checks',
	},
	{
		displayName: 'On Timeout',
		name: 'onTimeout',
		type: 'options',
		default: 'error',
		options: [
			{
				name: 'Fail the Item',
				value: 'error',
				description: 'Stop with an error naming the last fetch status',
			},
			{
				name: 'Return the Document',
				value: 'return',
				description: 'Return the document as last seen, with wait.outcome "timed_out"',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['waitUntilFetched'] } },
	properties,
);

function readBounds(ctx: IExecuteFunctions, itemIndex: number) {
	const maxWaitSeconds = ctx.getNodeParameter('maxWaitSeconds', itemIndex, 300) as number;
	const intervalSeconds = ctx.getNodeParameter('intervalSeconds', itemIndex, 15) as number;
	const problems: string[] = [];
	if (!Number.isFinite(maxWaitSeconds) || maxWaitSeconds < 0 || maxWaitSeconds > 3600) {
		problems.push(`Max Wait (Seconds): from 0 to 3600 (got ${maxWaitSeconds})`);
	}
	if (!Number.isFinite(intervalSeconds) || intervalSeconds < 1 || intervalSeconds > 3600) {
		problems.push(`Check Every (Seconds): from 1 to 3600 (got ${intervalSeconds})`);
	}
	if (problems.length) throw inputError(ctx, problems, { itemIndex });
	return { maxWaitMs: maxWaitSeconds * 1000, intervalMs: intervalSeconds * 1000 };
}

export const onlyReads = true;

/**
 * Polls the document until the service has fetched it (or failed to), within the user's bound.
 * Waits go through `clock.sleep` (n8n's sleep), so tests drive them with a fake clock.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: Run,
): Promise<INodeExecutionData[]> {
	const invoiceId = readInvoiceId(this, itemIndex);
	const { maxWaitMs, intervalMs } = readBounds(this, itemIndex);
	const ref = await documentPathRef(
		run,
		readDocumentReference(this, itemIndex),
		itemIndex,
		invoiceId,
	);
	const started = clock.now();
	let checks = 0;
	for (;;) {
		const reply = await apiRequest.call(this, {
			method: 'GET',
			path: PATHS.document(invoiceId, ref),
			itemIndex,
		});
		checks++;
		const doc = reply.data as IDataObject;
		const status = String(doc.fetch_status);
		const waitedMs = clock.now() - started;
		const wait = (outcome: string): IDataObject => ({
			outcome,
			checks,
			waited_seconds: Math.round(waitedMs / 1000),
		});
		if (SETTLED.has(status)) return [{ json: { ...documentJson(doc), wait: wait(status) } }];

		const leftMs = maxWaitMs - waitedMs;
		if (leftMs <= 0) {
			if (this.getNodeParameter('onTimeout', itemIndex, 'error') === 'return') {
				return [{ json: { ...documentJson(doc), wait: wait('timed_out') } }];
			}
			throw serviceError(
				this,
				{
					code: 'WAIT_TIMED_OUT',
					message: `document ${String(doc.id)} was still "${status}" after ${Math.round(waitedMs / 1000)} s (${checks} checks)`,
					requestId: reply.requestId,
				},
				{
					itemIndex,
					hint: 'The service fetches files from your document store once a connection to it is set up; raise Max Wait, or ask the operator whether the connection exists.',
				},
			);
		}
		await clock.sleep(Math.min(intervalMs, leftMs));
	}
}
