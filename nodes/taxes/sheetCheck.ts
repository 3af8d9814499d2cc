/**
 * The tax check: a row that carries its own tax figures (SL Tax, Stamping Fee, Fire Marshal Tax,
 * a total...) is compared line by line with the service's computation for the same state and
 * date (the preview's `tax_calculation`), as filing platforms do before a filing goes out. The
 * item says where they differ (`_taxCheck`, and a line in `_warnings` per difference); an option
 * fails the row instead of filing it when a difference is over the tolerance.
 *
 * Cost: Preview, and Create with Bill Taxes From Preview, already have the preview's reply, so
 * the check costs no call there. Create without Bill Taxes From Preview compares only when the
 * option asks for it, with one preview call (stores nothing, counts toward the hourly limit).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { localError } from '../shared/errors';
import type { Run } from '../shared/run';
import { addInvoiceWarnings, type InvoiceInput, type SheetTotals } from '../sheet';
import { BILLED_TAX_OF } from '../shared/rules';
import { feeTypeName } from '../shared/service';
import { readAmount } from '../shared/values';

type TaxCheckMode = 'whenPreviewed' | 'always' | 'fail' | 'off';

export interface TaxCheckSettings {
	mode: TaxCheckMode;
	tolerance: number;
}

const DEFAULT_TOLERANCE = 0.01;

/**
 * From Invoice version 4 a sheet's tax figure that differs from the computation refuses the row
 * unless the user chose to warn: a broker files the tax the state computes, and a figure off by
 * 10 % filed with one warning in the far-right column is the defect. Versions 1-3 keep warning.
 */
const FAIL_FROM_VERSION = 4;
const defaultMode = (version: number): TaxCheckMode =>
	version >= FAIL_FROM_VERSION ? 'fail' : 'whenPreviewed';

/** The Sheet Tax Check option twice: each version's default shown where the user adds it. */
function byVersion(check: INodeProperties): INodeProperties[] {
	return [
		{ ...check, displayOptions: { show: { '@version': [1, 2, 3] } } },
		{
			...check,
			default: 'fail',
			displayOptions: { show: { '@version': [{ _cnd: { gte: FAIL_FROM_VERSION } }] } },
			description: `${String(check.description)} From version 4 a difference over the tolerance fails the row by default: nothing is filed for it.`,
		},
	];
}

/** The two options, for Create's and Preview's Options (`create` says what a check costs there). */
export function taxCheckOptions(operation: 'create' | 'createMany' | 'preview'): INodeProperties[] {
	if (operation === 'createMany') return createManyTaxCheckOptions();
	const modes = [
		{
			name: 'Warn When a Preview Is Made',
			value: 'whenPreviewed',
			description:
				operation === 'create'
					? 'Compare when Bill Taxes From Preview is on (its preview is used: no extra call)'
					: 'Compare with the preview’s computation (no extra call)',
		},
		...(operation === 'create'
			? [
					{
						name: 'Warn, Previewing When Needed',
						value: 'always',
						description:
							'Compare on every row that carries tax figures; without Bill Taxes From Preview that is one preview call more per such row',
					},
				]
			: []),
		{
			name: 'Fail the Row Over the Tolerance',
			value: 'fail',
			description:
				operation === 'create'
					? 'A difference over the tolerance fails the row and nothing is filed (one preview call more per row with tax figures when Bill Taxes From Preview is off)'
					: 'A difference over the tolerance makes the row an error item',
		},
		{ name: 'Off', value: 'off', description: 'Do not compare' },
	];
	const [check, tolerance] = [
		{
			displayName: 'Sheet Tax Check',
			name: 'sheetTaxCheck',
			type: 'options',
			default: 'whenPreviewed',
			options: modes,
			description:
				'When a row carries its own tax or fee figures (SL Tax, Stamping Fee, Fire Marshal Tax, Total Taxes, Total Due…), compare them line by line with the service’s computation for the same state and date. Differences are listed in _taxCheck and _warnings on the item.',
		},
		{
			displayName: 'Sheet Tax Tolerance (USD)',
			name: 'sheetTaxTolerance',
			type: 'number',
			default: DEFAULT_TOLERANCE,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description:
				'Differences up to this amount are rounding, not a difference (whole-dollar states round each line to the dollar)',
		},
	] satisfies INodeProperties[];
	return [...byVersion(check as INodeProperties), tolerance as INodeProperties];
}

/**
 * Create Many's: the same modes and tolerance, whose figures come from the sheet's taxes computed
 * at batch cost (batchTaxes.ts); the default compares only when Bill Taxes From Preview is on.
 */
function createManyTaxCheckOptions(): INodeProperties[] {
	const [check, , tolerance] = taxCheckOptions('create');
	const modes: Array<{ name: string; value: TaxCheckMode; description: string }> = [
		{
			name: 'Warn When Taxes Are Billed',
			value: 'whenPreviewed',
			description: 'Compare when Bill Taxes From Preview is on (its figures are used)',
		},
		{
			name: 'Warn, Computing When Needed',
			value: 'always',
			description:
				'Compare on every row that carries tax figures, computing the taxes for them at batch cost when Bill Taxes From Preview is off',
		},
		{
			name: 'Fail the Row Over the Tolerance',
			value: 'fail',
			description:
				'A difference over the tolerance, confirmed by the row’s own preview, fails the row and nothing is filed for it',
		},
		{ name: 'Off', value: 'off', description: 'Do not compare' },
	];
	return [...byVersion({ ...check, displayOptions: undefined, options: modes }), tolerance];
}

/** Whether any of the row's tax figures differs from these over the tolerance. */
export function sheetTaxesDiffer(
	input: Pick<InvoiceInput, 'body' | 'totals' | 'sources' | 'converted'>,
	taxCalculation: IDataObject,
	tolerance: number,
): boolean {
	return compareSheetTaxes(input, taxCalculation, tolerance).differences > 0;
}

/** The tax check in an operation's Options, as its operation read them (actions/settings.ts). */
export function taxCheckSettings(options: IDataObject, version = 1): TaxCheckSettings {
	const tolerance = Number(options.sheetTaxTolerance ?? DEFAULT_TOLERANCE);
	return {
		mode: (options.sheetTaxCheck as TaxCheckMode | undefined) ?? defaultMode(version),
		tolerance: Number.isFinite(tolerance) && tolerance >= 0 ? tolerance : DEFAULT_TOLERANCE,
	};
}

interface SheetFigure {
	/** The calculation's code, or `total_taxes_and_fees` / `total_due`. */
	code: string;
	sheet: number;
	column?: string;
}

const CHANGES = new Set(['ENDORSEMENT', 'CANCELLATION']);

const TOTALS: Record<keyof SheetTotals, string> = {
	sheet_total_taxes: 'total_taxes_and_fees',
	sheet_total_due: 'total_due',
};

/** The row's own tax figures: its billed-tax fee lines and the totals its sheet gives. */
function sheetFigures(input: Pick<InvoiceInput, 'body' | 'totals' | 'sources' | 'converted'>): {
	figures: SheetFigure[];
	unread: string[];
} {
	const figures: SheetFigure[] = [];
	const unread: string[] = [];
	const fees = Array.isArray(input.body.fees) ? (input.body.fees as IDataObject[]) : [];
	fees.forEach((fee, n) => {
		const code = BILLED_TAX_OF.get(String(fee.type));
		if (code && typeof fee.amount === 'number')
			figures.push({ code, sheet: fee.amount, column: input.sources[`fees[${n}]`] });
	});
	// On a change with premium returned, unsigned amounts were filed negative (transactionTypes.ts);
	// its totals, never sent, are read the same way.
	const returned =
		CHANGES.has(String(input.body.type_code)) && Number(input.body.net_premium) < 0;
	for (const [id, code] of Object.entries(TOTALS)) {
		const value = input.totals[id as keyof SheetTotals];
		const read = readAmount(value);
		if (read.ok && read.value !== undefined) {
			const unsigned = !(typeof value === 'string' && /^\s*\+/.test(value));
			const sheet = returned && unsigned && read.value > 0 ? -read.value : read.value;
			figures.push({ code, sheet, ...(input.sources[id] ? { column: input.sources[id] } : {}) });
		} else if (!read.ok) unread.push(`${id}: "${String(value)}" is not an amount; not checked`);
	}
	return { figures, unread };
}

/** Whether the row carries any tax figure to compare. */
export function hasSheetTaxes(
	input: Pick<InvoiceInput, 'body' | 'totals' | 'sources' | 'converted'>,
): boolean {
	return sheetFigures(input).figures.length > 0;
}

interface TaxCheckLine {
	code: string;
	name: string;
	column?: string;
	sheet: number;
	computed: number | null;
	difference: number;
}

interface TaxCheck {
	state?: unknown;
	date?: unknown;
	tolerance: number;
	lines: TaxCheckLine[];
	/** Lines whose difference is over the tolerance. */
	differences: number;
}

const TOTALS_NAMES: Record<string, string> = {
	total_taxes_and_fees: 'Total Taxes and Fees',
	total_due: 'Total Due',
};

const round = (n: number) => Math.round(n * 100) / 100;
const money = (n: number) => n.toFixed(2);

/** The comparison of the row's figures with the preview's `tax_calculation`. */
function compareSheetTaxes(
	input: Pick<InvoiceInput, 'body' | 'totals' | 'sources' | 'converted'>,
	taxCalculation: IDataObject,
	tolerance: number,
): TaxCheck & { unread: string[] } {
	const { figures, unread } = sheetFigures(input);
	const items = Array.isArray(taxCalculation.line_items)
		? (taxCalculation.line_items as IDataObject[])
		: [];
	const linesOf = (code: string) => items.filter((l) => l.code === code);
	// A pass-through twin sent (filing_fee) is the tax line the calculation computes (flat_fee),
	// one stored column; the calculation adds it to total_due once as a fee and once as its tax
	// line, which the sheet's Total Due does not. It is counted once, as the tax.
	const twinsCounted = (Array.isArray(input.body.fees) ? (input.body.fees as IDataObject[]) : [])
		.filter((fee) => {
			const tax = BILLED_TAX_OF.get(String(fee.type));
			return tax && tax !== fee.type && linesOf(tax).length > 0;
		})
		.reduce((sum, fee) => sum + (Number(fee.amount) || 0), 0);
	const computedOf = (code: string): number | null => {
		if (TOTALS_NAMES[code]) {
			const total = Number(taxCalculation[code]);
			if (!Number.isFinite(total)) return null;
			return code === 'total_due' ? total - twinsCounted : total;
		}
		const lines = linesOf(code);
		return lines.length ? lines.reduce((sum, l) => sum + Number(l.amount ?? 0), 0) : null;
	};
	const lines = figures.map((f) => {
		const computed = computedOf(f.code);
		const name = TOTALS_NAMES[f.code] ?? feeTypeName(f.code);
		return {
			code: f.code,
			name,
			...(f.column ? { column: f.column } : {}),
			sheet: f.sheet,
			computed: computed === null ? null : round(computed),
			difference: round(f.sheet - (computed ?? 0)),
		};
	});
	const echoed = (taxCalculation.input ?? {}) as IDataObject;
	const state = (taxCalculation.state as IDataObject | undefined)?.code ?? input.body.state_code;
	return {
		state,
		date: echoed.effective_date ?? input.body.effective_date,
		tolerance,
		lines,
		differences: lines.filter((l) => Math.abs(l.difference) > tolerance + 1e-9).length,
		unread,
	};
}

/** What a row refused over its taxes may do: both ways leave a sheet the check then reads as meant. */
export const TAX_CHECK_WAYS_OUT =
	'Two ways out: correct the figure in the sheet to the computed one (or, with Bill Taxes From Preview on, empty the cell so the computed tax is billed) and run again; or, to file the sheet’s figure as it is, set Options → Sheet Tax Check to Warn When a Preview Is Made (Create Many: Warn When Taxes Are Billed), and the item lists the difference. Only a preview was sent; nothing was filed.';

/** One line per difference over the tolerance: sheet amount, computed amount, difference. */
function taxCheckWarnings(check: TaxCheck): string[] {
	return check.lines
		.filter((l) => Math.abs(l.difference) > check.tolerance + 1e-9)
		.map((l) => {
			const where = l.column ? ` (column "${l.column}")` : '';
			const computed =
				l.computed === null
					? `the service computes no ${l.code} for ${String(check.state)} on ${String(check.date)}`
					: `computed ${money(l.computed)} for ${String(check.state)} on ${String(check.date)}`;
			return `Tax check: ${l.name}${where}: sheet ${money(l.sheet)}, ${computed}, difference ${money(l.difference)}`;
		});
}

/**
 * Compares a row with the preview's reply and says so on the item: `_taxCheck` on `json`, the
 * differences in `_warnings`. In the Fail mode a difference over the tolerance throws instead.
 */
export function applyTaxCheck(
	run: Run,
	itemIndex: number,
	input: Pick<InvoiceInput, 'body' | 'totals' | 'sources' | 'converted'>,
	preview: IDataObject | undefined,
	settings: TaxCheckSettings,
): IDataObject | undefined {
	const tax = preview?.tax_calculation as IDataObject | null | undefined;
	if (settings.mode === 'off' || !tax || !hasSheetTaxes(input)) return undefined;
	const { unread, ...check } = compareSheetTaxes(input, tax, settings.tolerance);
	const warnings = taxCheckWarnings(check);
	if (settings.mode === 'fail' && warnings.length) {
		throw localError(
			run,
			'TAX_CHECK_FAILED',
			`The sheet's taxes differ from the service's computation by more than ${money(settings.tolerance)}, nothing was filed: ${warnings[0]}`,
			{
				itemIndex,
				fields: warnings,
				description: [...warnings, TAX_CHECK_WAYS_OUT].join('\n'),
			},
		);
	}
	addInvoiceWarnings(run, itemIndex, [...warnings, ...unread.map((u) => `Tax check: ${u}`)]);
	return check as unknown as IDataObject;
}
