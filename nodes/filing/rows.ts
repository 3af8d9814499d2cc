/**
 * What every Invoice output item says about its row beyond the reply: an error item names the row
 * it stands for (its row, policy number, type, effective date, where known), so a "not filed" branch can
 * write the reason back to the right row; a filed or previewed item carries the body's sanity
 * warnings (`_warnings`), and a filed one its row too (`sheetRow`), so a results sheet built from
 * both branches names every row the same way, whatever the sheet's own headers.
 *
 * Enters: the run (what the stages noted of each item) and an item. Leaves: the item with its
 * row, its warnings and its column notes. The operations' wrapper that applies these to every
 * item is actions/rowResults.ts.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Run } from '../shared/run';
import { sheetRow } from '../shared/sheetRows';
import { chargesOf, takeColumnNotes, takeInvoiceWarnings } from '../sheet';

const IDENTITY_FIELDS = ['policy_number', 'type_code', 'effective_date'];

/** The row's identity from its raw body (`raw`: undefined where it could not be read). */
export function rowIdentity(run: Run, itemIndex: number, raw: unknown, mode: 'full' | 'partial') {
	// The row as the sheet numbers it (sheetRows.ts), beside n8n's item index.
	const identity: IDataObject = { sheetRow: sheetRow(run, itemIndex) };
	// A body that cannot be read (e.g. not JSON) names nothing; the error item says why.
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return identity;
	for (const field of IDENTITY_FIELDS) {
		const value = (raw as IDataObject)[field];
		if (typeof value === 'string' || typeof value === 'number')
			identity[field] = typeof value === 'string' ? value.trim() : value;
	}
	if (mode === 'full' && identity.type_code === undefined) identity.type_code = 'NEW';
	return identity;
}

/** The item with its body's warnings and what was decided about its row's columns. */
export function withWarnings(
	run: Run,
	item: INodeExecutionData,
	itemIndex: number,
	numbered: boolean,
): INodeExecutionData {
	const warnings = takeInvoiceWarnings(run, itemIndex);
	const columns = { ...takeColumnNotes(run, itemIndex), ...chargesOf(run, itemIndex) };
	// A tool's call has no sheet: its row would be a number without meaning to the model.
	if (numbered && !run.tool) item.json = { ...item.json, sheetRow: sheetRow(run, itemIndex) };
	if (warnings.length) item.json = { ...item.json, _warnings: warnings };
	if (Object.keys(columns).length) item.json = { ...item.json, ...columns };
	return item;
}

/** Forgets what was noted about an item that failed. */
export function forget(run: Run, itemIndex: number) {
	takeInvoiceWarnings(run, itemIndex);
	takeColumnNotes(run, itemIndex);
}
