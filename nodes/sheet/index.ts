/**
 * Reading a sheet: the filing core's first stage, shared by the operations that read rows
 * (Create, Create Many, Preview, Update, Check Sheet, Reconcile Sheet).
 *
 * Enters: the run (its input items, shared/run.ts), the sheet's settings (Map Automatically,
 * Columns Not to File: SheetSettings) once, then each row's body settings (BodySettings: the body
 * source and its values), all read from the node by the operation (actions/sheetSettings.ts).
 * Leaves: the sheet read whole in the run (what each row is: a transaction, a total, a charge of
 * another row), and per row a checked body with its conversions, totals and source columns
 * (InvoiceInput) or an input error naming every column at fault; the row's warnings and column
 * notes wait in the run for its output item (warnings.ts).
 *
 * Inside: sheetShape.ts (the sheet whole), sheetRow.ts (one row by its column names), columns*.ts
 * (header words, rules, what became of each column), validation.ts (the one schema), input.ts
 * (the four body sources), dateColumns.ts, transactionTypes.ts.
 */
export { readSheet, sheetIsRead, notATransaction, chargesOf, columnsLeftOut } from './sheetRead';
export type { SheetSettings } from './sheetRead';
export {
	FIELD_GROUPS,
	REQUIRED_UI_FIELDS,
	isWholeItem,
	noteConversions,
	readInvoiceInput,
	readRawBody,
	refusalInSheetWords,
	sourceOf,
} from './input';
export type { BodySettings, InvoiceInput } from './input';
export {
	addInvoiceWarning,
	addInvoiceWarnings,
	takeColumnNotes,
	takeInvoiceWarnings,
} from './warnings';
// What the other stages and the editor read of the sheet's rules and columns.
export { validateInvoice } from './validation';
export { mapperFields, type SheetTotals } from './columns';
