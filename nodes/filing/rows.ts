/**
 * What every Invoice output item says about its row beyond the reply: an error item names the row
 * it stands for (its row, policy number, type, effective date, where known), so a "not filed" branch can
 * write the reason back to the right row; a filed or previewed item carries the body's sanity
 * warnings (`_warnings`), and a filed one its row too (`sheetRow`), so a results sheet built from
 * both branches names every row the same way, whatever the sheet's own headers.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { addToErrorItem, isErrorItem, withRow } from '../shared/errors';
import type { OperationModule } from '../shared/router';
import { sheetRow } from '../shared/sheetRows';
import { isToolUse } from '../shared/toolUse';
import { takeColumnNotes, takeInvoiceWarnings } from '../sheet/warnings';
import { readRawBody } from '../sheet/input';
import { chargesOf, notATransaction } from '../sheet/sheetRead';

const IDENTITY_FIELDS = ['policy_number', 'insured_name', 'type_code', 'effective_date'];

/** The row's identity from its raw body (read again only for a failed item; never throws). */
function rowIdentity(ctx: IExecuteFunctions, itemIndex: number, mode: 'full' | 'partial') {
	// The row as the sheet numbers it (sheetRows.ts), beside n8n's item index.
	const identity: IDataObject = { sheetRow: sheetRow(ctx, itemIndex) };
	try {
		const raw = readRawBody(ctx, itemIndex, mode);
		if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return identity;
		for (const field of IDENTITY_FIELDS) {
			const value = (raw as IDataObject)[field];
			if (typeof value === 'string' || typeof value === 'number')
				identity[field] = typeof value === 'string' ? value.trim() : value;
		}
		if (mode === 'full' && identity.type_code === undefined) identity.type_code = 'NEW';
	} catch {
		// A body that cannot be read (e.g. not JSON) names nothing; the error item says why.
	}
	return identity;
}

/** The item with its body's warnings and what was decided about its row's columns. */
function withWarnings(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	numbered: boolean,
): INodeExecutionData {
	const warnings = takeInvoiceWarnings(ctx, itemIndex);
	const columns = { ...takeColumnNotes(ctx, itemIndex), ...chargesOf(ctx, itemIndex) };
	// A tool's call has no sheet: its row would be a number without meaning to the model.
	if (numbered && !isToolUse(ctx)) item.json = { ...item.json, sheetRow: sheetRow(ctx, itemIndex) };
	if (warnings.length) item.json = { ...item.json, _warnings: warnings };
	if (Object.keys(columns).length) item.json = { ...item.json, ...columns };
	return item;
}

/** Forgets what was noted about an item that failed. */
function forget(ctx: IExecuteFunctions, itemIndex: number) {
	takeInvoiceWarnings(ctx, itemIndex);
	takeColumnNotes(ctx, itemIndex);
}

function pairedIndex(item: INodeExecutionData, fallback: number): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'object' && paired ? paired.item : fallback;
}

/**
 * An operation whose items carry their row's identity (errors) and warnings (results); `numbered`:
 * its results carry their row as well (the filing operations).
 */
export function withRowResults(
	module: OperationModule,
	mode: 'full' | 'partial',
	numbered = false,
): OperationModule {
	const { execute, executeAll, check } = module;
	// A row the sheet's shape says is not a transaction (sheetRead.ts) is not checked or sent: its
	// item says what it is. (Create Many, which reads all rows itself, asks the same.)
	const notFiled = (ctx: IExecuteFunctions, itemIndex: number) =>
		mode === 'full' ? notATransaction(ctx, itemIndex) : undefined;
	// Everything else the module says (order, words, items in flight, reads) is kept as it is.
	return {
		...module,
		check:
			check &&
			async function (this: IExecuteFunctions, itemIndex: number) {
				if (notFiled(this, itemIndex)) return;
				try {
					await check.call(this, itemIndex);
				} catch (error) {
					forget(this, itemIndex);
					throw withRow(error, rowIdentity(this, itemIndex, mode));
				}
			},
		execute:
			execute &&
			async function (this: IExecuteFunctions, itemIndex: number) {
				const asRead = notFiled(this, itemIndex);
				if (asRead) return [{ json: asRead }];
				try {
					const items = await execute.call(this, itemIndex);
					return items.map((item) => withWarnings(this, item, itemIndex, numbered));
				} catch (error) {
					forget(this, itemIndex);
					throw withRow(error, rowIdentity(this, itemIndex, mode));
				}
			},
		executeAll:
			executeAll &&
			async function (this: IExecuteFunctions) {
				const items = await executeAll.call(this);
				return items.map((item, position) => {
					const index = pairedIndex(item, position);
					if (!isErrorItem(item)) return withWarnings(this, item, index, numbered);
					forget(this, index);
					addToErrorItem(item, rowIdentity(this, index, mode));
					return item;
				});
			},
	};
}
