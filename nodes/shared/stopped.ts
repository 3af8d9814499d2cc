import type { INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isErrorItem } from './errors';
import { rowsLabel, type Rows } from './sheetRows';

/** Words for the items done before a failure stopped a run (default: their numbers). */
export type DescribeDone = (
	done: Array<{ itemIndex: number; items: INodeExecutionData[] }>,
	run: Rows,
) => string;

/**
 * A run stopped by one item's failure after other items were done (up to Concurrency were in
 * flight): the error lists them, so nobody takes "this failed" for "nothing happened". An
 * error that says nothing was sent says it of its own item only.
 */
export function noteDoneBeforeStop(
	run: Rows,
	error: Error,
	results: INodeExecutionData[][],
	describeDone: DescribeDone | undefined,
): Error {
	const done = results.flatMap((items, itemIndex) =>
		items && !items.some(isErrorItem) ? [{ itemIndex, items }] : [],
	);
	if (!done.length || !(error instanceof NodeApiError || error instanceof NodeOperationError))
		return error;
	error.message = error.message
		.replace('nothing was sent', 'this item was not sent')
		.replace('so nothing was filed', 'so this item was not filed');
	const description = (error.description ?? '').replace(
		'No call to the service was made.',
		'No call was made for this item.',
	);
	const list = describeDone
		? describeDone(done, run)
		: `Done before the run stopped: ${rowsLabel(
				run,
				done.map((d) => d.itemIndex),
			)}.`;
	error.description = [description, list].filter(Boolean).join('\n');
	return error;
}

/** The first item refused by the local checks, naming the others; no item was sent. */
export function noteRefusedBeforeAnyCall(
	run: Rows,
	refused: Array<{ itemIndex: number; error: Error }>,
	total: number,
): Error {
	const { error } = refused[0];
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	const others = refused.slice(1).map((r) => r.itemIndex);
	const lines = [
		`${refused.length} of ${total} rows failed the checks made before any call${others.length ? ` (also ${rowsLabel(run, others)})` : ''}; no row was sent.`,
		'Turn on Settings → On Error → Continue to run the good items and get each bad one as its own error item.',
	];
	error.description = [error.description, ...lines].filter(Boolean).join('\n');
	return error;
}
