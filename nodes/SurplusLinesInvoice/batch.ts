/**
 * Create Many: files every input item, in calls of at most BATCH_MAX_INVOICES to
 * `POST /invoices/batch` with a t3 key, or one create per item with a t2 key. Each result is
 * paired back to its input item through the batch reply's `index`.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { getServiceCredential } from '../shared/credentials';
import { fieldMessages } from '../shared/envelope';
import { serviceError } from '../shared/errors';
import { deriveIdempotencyKey } from '../shared/idempotency';
import {
	BATCH_MAX_INVOICES,
	LIST_KEYS,
	PATHS,
	readKeptInvoiceId,
	readList,
} from '../shared/service';
import { apiRequest, isOutcomeUnknown, type ApiReply } from '../shared/transport';
import {
	fileInvoice,
	findSameTransaction,
	idempotencyKeyFor,
	isTimeout,
	lookAfterUnknownOutcome,
	outcomeUnknown,
	type Filed,
	type IdempotencyChoice,
} from './filing';
import { listInvoices } from '../shared/invoiceList';

export interface Entry {
	/** Input item index. */
	index: number;
	body: IDataObject;
	choice: IdempotencyChoice;
}

export type Outcome = { index: number; filed: Filed } | { index: number; error: Error };

/** t2: one create per item, each with its own Idempotency-Key and lost-reply handling. */
export async function fileOneByOne(ctx: IExecuteFunctions, entries: Entry[]): Promise<Outcome[]> {
	const outcomes: Outcome[] = [];
	for (const entry of entries) {
		try {
			const key = await idempotencyKeyFor(
				ctx,
				entry.choice,
				PATHS.invoices,
				entry.body,
				entry.index,
			);
			outcomes.push({
				index: entry.index,
				filed: await fileInvoice(ctx, entry.body, { idempotencyKey: key, itemIndex: entry.index }),
			});
		} catch (error) {
			outcomes.push({ index: entry.index, error: error as Error });
		}
	}
	return outcomes;
}

function resultError(
	ctx: IExecuteFunctions,
	raw: IDataObject | undefined,
	reply: ApiReply<unknown>,
	index: number,
): Error {
	const error = (raw ?? {}) as IDataObject;
	const details = error.details as IDataObject | undefined;
	const kept = readKeptInvoiceId(details);
	return serviceError(
		ctx,
		{
			code: typeof error.code === 'string' ? error.code : 'BATCH_ITEM_FAILED',
			message:
				typeof error.message === 'string' ? error.message : 'the service did not file this invoice',
			httpStatus: error.code === 'VALIDATION_ERROR' ? 422 : undefined,
			fields: fieldMessages(details),
			requestId: reply.requestId,
			extra: kept === undefined ? undefined : { keptInvoiceId: kept },
		},
		{ itemIndex: index },
	);
}

/**
 * After a lost batch reply nothing says which invoices were stored, and the batch call carries no
 * per-invoice key. Each item is looked up among its policy's transactions first; only an item not
 * found there is filed again, on its own. After a timeout the service may still be storing the
 * batch: the looks wait as a timed-out single create does (lookAfterUnknownOutcome), and only
 * rows missing from the last look are filed again.
 */
async function reconcileChunk(
	ctx: IExecuteFunctions,
	chunk: Entry[],
	timedOut: boolean,
): Promise<Outcome[]> {
	const settled = new Map<number, Outcome>();
	let open = chunk;
	// One pass over the rows not yet accounted for; each pass lists every policy afresh.
	const look = async (last: boolean): Promise<Entry[]> => {
		const byPolicy = new Map<string, Promise<IDataObject[]>>();
		const missing: Entry[] = [];
		for (const entry of open) {
			const policyNumber = String(entry.body.policy_number);
			let transactions: IDataObject[];
			try {
				if (!byPolicy.has(policyNumber))
					byPolicy.set(policyNumber, listInvoices(ctx, { policyNumber, itemIndex: entry.index }));
				transactions = await byPolicy.get(policyNumber)!;
			} catch (error) {
				const hint = `The batch call got no usable reply and the policy's transactions could not be read. The invoice may have been filed: check the transactions of policy ${policyNumber} (Get Many) before running this item again.`;
				settled.set(entry.index, {
					index: entry.index,
					error: outcomeUnknown(ctx, error, { itemIndex: entry.index, hint }),
				});
				continue;
			}
			try {
				const match = findSameTransaction(transactions, entry.body);
				if (match) {
					settled.set(entry.index, {
						index: entry.index,
						filed: { invoice: match, replayed: false, recovered: true },
					});
				} else if (last) {
					settled.set(entry.index, (await fileOneByOne(ctx, [entry]))[0]);
				} else {
					missing.push(entry);
				}
			} catch (error) {
				settled.set(entry.index, { index: entry.index, error: error as Error });
			}
		}
		open = missing;
		return missing;
	};
	await lookAfterUnknownOutcome(
		ctx,
		{ itemIndex: chunk[0].index, timedOut },
		look,
		(missing) => missing.length === 0,
	);
	return chunk.map((entry) => settled.get(entry.index)!);
}

async function fileChunk(ctx: IExecuteFunctions, chunk: Entry[]): Promise<Outcome[]> {
	const body = { invoices: chunk.map((e) => e.body) };
	const useKey = chunk.every((e) => e.choice.mode !== 'off');
	const { fingerprint } = await getServiceCredential(ctx, chunk[0].index);
	let reply: ApiReply<unknown>;
	try {
		reply = await apiRequest.call(ctx, {
			method: 'POST',
			path: PATHS.invoiceBatch,
			body,
			idempotencyKey: useKey
				? deriveIdempotencyKey(fingerprint, PATHS.invoiceBatch, body)
				: undefined,
			// Never resent blindly: the service does not describe keys on batch.
			retry: false,
			itemIndex: chunk[0].index,
		});
	} catch (error) {
		if (isOutcomeUnknown(error)) return await reconcileChunk(ctx, chunk, isTimeout(error));
		return chunk.map((e) => ({ index: e.index, error: error as Error }));
	}
	const results = readList(reply.data, LIST_KEYS.batchResults);
	const byPosition = new Map(results.map((r) => [Number(r.index), r]));
	return chunk.map((entry, position): Outcome => {
		const result = byPosition.get(position);
		if (result?.success === true && result.invoice) {
			return {
				index: entry.index,
				filed: {
					invoice: result.invoice as IDataObject,
					replayed: reply.replayed,
					recovered: false,
				},
			};
		}
		if (!result) {
			const missing = {
				code: 'BATCH_NO_RESULT',
				message: `the batch reply has no result for this invoice (position ${position})`,
			};
			return { index: entry.index, error: resultError(ctx, missing, reply, entry.index) };
		}
		return {
			index: entry.index,
			error: resultError(ctx, result.error as IDataObject | undefined, reply, entry.index),
		};
	});
}

/** t3: the entries in calls of at most BATCH_MAX_INVOICES; every chunk is sent whatever earlier chunks gave. */
export async function fileInBatches(ctx: IExecuteFunctions, entries: Entry[]): Promise<Outcome[]> {
	const outcomes: Outcome[] = [];
	for (let start = 0; start < entries.length; start += BATCH_MAX_INVOICES) {
		outcomes.push(...(await fileChunk(ctx, entries.slice(start, start + BATCH_MAX_INVOICES))));
	}
	return outcomes;
}
