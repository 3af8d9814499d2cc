import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { forget, rowIdentity, withWarnings } from '../../filing/rows';
import { addToErrorItem, isErrorItem, withRow } from '../../shared/errors';
import type { OperationModule } from '../../shared/router';
import type { Run } from '../../shared/run';
import { notATransaction, readRawBody } from '../../sheet';
import { readBodySettings, readRunSheet } from './sheetSettings';

function pairedIndex(item: INodeExecutionData, fallback: number): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'object' && paired ? paired.item : fallback;
}

/** The raw body of a failed item, read again for its identity (never throws). */
function rawBodyOf(ctx: IExecuteFunctions, run: Run, itemIndex: number, mode: 'full' | 'partial') {
	try {
		return readRawBody(run, readBodySettings(ctx, itemIndex, mode), itemIndex, mode);
	} catch {
		return undefined;
	}
}

/**
 * An operation whose items carry their row's identity (errors) and warnings (results); `numbered`:
 * its results carry their row as well (the filing operations). The run's sheet is read once
 * before its first row (sheetRead.ts).
 */
export function withRowResults(
	module: OperationModule,
	mode: 'full' | 'partial',
	numbered = false,
): OperationModule {
	const { execute, executeAll, check } = module;
	const identity = (ctx: IExecuteFunctions, run: Run, itemIndex: number) =>
		rowIdentity(run, itemIndex, rawBodyOf(ctx, run, itemIndex, mode), mode);
	// A row the sheet's shape says is not a transaction (sheetRead.ts) is not checked or sent: its
	// item says what it is. (Create Many, which reads all rows itself, asks the same.)
	const notFiled = (ctx: IExecuteFunctions, run: Run, itemIndex: number) => {
		readRunSheet(ctx, run);
		return mode === 'full' ? notATransaction(run, itemIndex) : undefined;
	};
	// Everything else the module says (order, words, items in flight, reads) is kept as it is.
	return {
		...module,
		check:
			check &&
			async function (this: IExecuteFunctions, itemIndex: number, run: Run) {
				if (notFiled(this, run, itemIndex)) return;
				try {
					await check.call(this, itemIndex, run);
				} catch (error) {
					forget(run, itemIndex);
					throw withRow(error, identity(this, run, itemIndex));
				}
			},
		execute:
			execute &&
			async function (this: IExecuteFunctions, itemIndex: number, run: Run) {
				const asRead = notFiled(this, run, itemIndex);
				if (asRead) return [{ json: asRead }];
				try {
					const items = await execute.call(this, itemIndex, run);
					return items.map((item) => withWarnings(run, item, itemIndex, numbered));
				} catch (error) {
					forget(run, itemIndex);
					throw withRow(error, identity(this, run, itemIndex));
				}
			},
		executeAll:
			executeAll &&
			async function (this: IExecuteFunctions, run: Run) {
				readRunSheet(this, run);
				const items = await executeAll.call(this, run);
				return items.map((item, position) => {
					const index = pairedIndex(item, position);
					if (!isErrorItem(item)) return withWarnings(run, item, index, numbered);
					forget(run, index);
					addToErrorItem(item, identity(this, run, index));
					return item;
				});
			},
	};
}
