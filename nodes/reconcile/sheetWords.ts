/**
 * A difference between a row and its filing in the words a broker reads: the sheet's own column,
 * the cell as the sheet writes it, and the service's value as the service shows it. The rule of
 * filing (filing/sameFiling.ts) compares values in one form (cents, lower-case codes, fee lines
 * as `code:amount`); this turns each of its differences back into the sheet's words. Fee lines are
 * told apart by column: only the fees whose totals differ are named, and a fee the service sets
 * itself in some states (the stamping fee) is no difference.
 */
import type { IDataObject } from 'n8n-workflow';

import { FEE_ALIAS_PAIRS, FEE_CODES } from '../shared/rules';
import { feeTypeName } from '../shared/service';
import { micros, microsWithinCent } from '../filing/formRules';
import type { Comparison } from '../filing/sameFiling';

/** One difference as the item shows it. */
export interface SheetDifference {
	/** The sheet's column(s) the value came from, else the service field's name. */
	column: string;
	/** The service's field (fees: the fee's code). */
	field: string;
	/** The cell as the sheet writes it (the value read where no single cell gave it). */
	sheet: string;
	/** The value as the service shows it. */
	service: string;
}

/** What a row gives the words: its cells, body, and the column of each body path and fee. */
export interface RowCells {
	body?: IDataObject;
	sources?: Record<string, string>;
	/** The input item as the reader read it (a gathered report transaction: its gathered row). */
	cells?: IDataObject;
	/** A fee's column (fee code, in the one column of its alias pair) → the sheet column. */
	feeColumns?: Record<string, string>;
}

/** The body path(s) each compared field comes from, to name it by the sheet's column. */
const FIELD_PATHS: Record<string, string[]> = {
	state: ['state_code'],
	type: ['type_code'],
	lob: ['lob_id', 'lob_name'],
	tax_lines: ['fees'],
	coverages_and_insurers_as_sent: ['coverages', 'insurers'],
};

const COLUMN = new Map(FEE_ALIAS_PAIRS.map(([alias, target]) => [alias, target]));
const TAX_COLUMNS = new Set(FEE_CODES.tax.map((code) => COLUMN.get(code) ?? code));
/** Set by the service itself in some states: never a difference (as the rule leaves it out). */
const SET_BY_SERVICE = 'stamping_fee';

const list = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? (value.filter((v) => v && typeof v === 'object') as IDataObject[]) : [];
/** A fee's code in the one column of its alias pair (as the rule of filing compares fees). */
export const feeColumnCode = (type: unknown) => feeColumn(type);
function feeColumn(type: unknown): string {
	const code = String(type ?? '').trim().toLowerCase();
	return COLUMN.get(code) ?? code;
}

/** The sheet columns a field was read from. */
export function columnsOf(field: string, sources: Record<string, string> = {}): string[] {
	const paths = FIELD_PATHS[field] ?? [field];
	const columns = new Set<string>();
	for (const [path, column] of Object.entries(sources))
		if (paths.some((p) => path === p || path.startsWith(`${p}[`) || path.startsWith(`${p}.`)))
			columns.add(column);
	return [...columns];
}

/** Each fee column's total in millionths (the stamping fee and zero lines left out). */
function feeTotals(fees: unknown, taxes: boolean): Map<string, bigint> {
	const totals = new Map<string, bigint>();
	for (const fee of list(fees)) {
		const column = feeColumn(fee.type);
		if (TAX_COLUMNS.has(column) !== taxes || column === SET_BY_SERVICE) continue;
		totals.set(column, (totals.get(column) ?? 0n) + (micros(fee.amount) ?? 0n));
	}
	for (const [column, total] of totals) if (total === 0n) totals.delete(column);
	return totals;
}

const amountText = (value: bigint | undefined): string => {
	if (value === undefined) return 'none';
	const negative = value < 0n;
	const cents = ((negative ? -value : value) + 5_000n) / 10_000n;
	return `${negative ? '-' : ''}${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
};

const cell = (row: RowCells, column: string | undefined): string | undefined => {
	const value = column ? row.cells?.[column] : undefined;
	return value === undefined || value === null || value === '' ? undefined : String(value);
};

/** Fee differences column by column: the sheet's tax columns only (`taxes`), else the other fees. */
function feeDifferences(row: RowCells, invoice: IDataObject, taxes: boolean): SheetDifference[] {
	const mine = feeTotals(row.body?.fees, taxes);
	const theirs = feeTotals(invoice.fees, taxes);
	// A service adds tax lines of its own: only the row's tax columns are compared.
	const codes = taxes ? [...mine.keys()] : [...new Set([...mine.keys(), ...theirs.keys()])];
	return codes
		.filter((code) => {
			const a = mine.get(code);
			const b = theirs.get(code);
			return a === undefined || b === undefined || !microsWithinCent(a, b);
		})
		.map((code) => {
			const column = row.feeColumns?.[code];
			return {
				column: column ?? feeTypeName(code),
				field: code,
				sheet: cell(row, column) ?? amountText(mine.get(code)),
				service: amountText(theirs.get(code)),
			};
		});
}

/** The service's value of a field as it shows it. */
function serviceValue(field: string, invoice: IDataObject, ruleForm: string): string {
	const value = invoice[field];
	if (field === 'state') {
		const code = value && typeof value === 'object' ? (value as IDataObject).code : value;
		return String(code ?? 'none').toUpperCase();
	}
	if (field === 'type' || field === 'lob') {
		const named = value && typeof value === 'object' ? ((value as IDataObject).name ?? (value as IDataObject).id) : value;
		return named === undefined || named === null ? 'none' : String(named);
	}
	if (value === undefined || value === null || value === '') return ruleForm || 'none';
	return typeof value === 'object' ? ruleForm : String(value);
}

/** Every difference of `comparison` in the sheet's words. */
export function differencesInSheetWords(comparison: Comparison, row: RowCells, invoice: IDataObject): SheetDifference[] {
	return comparison.differences.flatMap((d): SheetDifference[] => {
		if (d.field === 'fees' || d.field === 'tax_lines') {
			const fees = feeDifferences(row, invoice, d.field === 'tax_lines');
			if (fees.length) return fees;
		}
		const columns = columnsOf(d.field, row.sources);
		const written = columns.length === 1 ? cell(row, columns[0]) : undefined;
		return [
			{
				column: columns.length ? columns.join(', ') : d.field,
				field: d.field,
				sheet: written ?? d.row,
				service: d.stored.includes('either of two days') ? d.stored : serviceValue(d.field, invoice, d.stored),
			},
		];
	});
}

/** "Gross Premium (800.00 on the sheet, 850 on the service); …" */
export const differencesText = (differences: readonly SheetDifference[]) =>
	differences.map((d) => `${d.column} (${d.sheet} on the sheet, ${d.service} on the service)`).join('; ');
