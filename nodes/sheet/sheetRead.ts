/**
 * The sheet's shape (sheetShape.ts) for a run of the Invoice node: read once per run's input, for
 * Map Automatically only (the other body sources name their fields, so a row is what they say).
 * Create, Create Many, Preview and Check Sheet ask it before reading a row: a row that is not a
 * transaction, or a charge of another row's filing, comes out as an item saying so; the first row
 * of a transaction with one row per charge is read with its charges gathered.
 */
import type { IDataObject, IExecuteFunctions, ResourceMapperValue } from 'n8n-workflow';

import { itemParameter } from '../shared/params';
import { rowLabel, rowsLabel, sheetRow, withRowPrefix } from '../shared/sheetRows';
import { leftOutKey } from './columnAccount';
import { type RowShape, type SheetShape, readSheetShape } from './sheetShape';

interface RunShape {
	shape: SheetShape;
	/** The input items as the reader reads them: a gathered transaction's row in its first row's place. */
	items: Array<{ json: IDataObject }>;
}

/** Columns Not to File: the headers, as written, separated by commas or new lines. */
export function columnsLeftOut(ctx: IExecuteFunctions, i: number): Set<string> {
	const raw = ctx.getNodeParameter('columnsLeftOut', i, '') as unknown;
	const text = typeof raw === 'string' ? raw : '';
	return new Set(text.split(/[,\n]/).map(leftOutKey).filter(Boolean));
}

const SHAPES = new WeakMap<object, RunShape | null>();

function mapsAutomatically(ctx: IExecuteFunctions): boolean {
	if (itemParameter<string>(ctx, 'inputMode', 0, 'fields') !== 'columns') return false;
	const columns = ctx.getNodeParameter('columns', 0, {}) as Partial<ResourceMapperValue>;
	return columns.mappingMode !== 'defineBelow';
}

/** The run's shape, read once; null where rows are read one by one. */
function runShape(ctx: IExecuteFunctions): RunShape | null {
	const input = ctx.getInputData();
	const known = SHAPES.get(input);
	if (known !== undefined) return known;
	let run: RunShape | null = null;
	if (input.length > 1 && mapsAutomatically(ctx)) {
		const shape = readSheetShape(
			input.map((item) => item.json ?? {}),
			{
				leftOut: columnsLeftOut(ctx, 0),
				words: { rows: (indexes) => rowsLabel(ctx, indexes), row: (i) => String(sheetRow(ctx, i)) },
			},
		);
		const items = input.map((item, index) => {
			const row = shape.rows[index];
			return { json: row.as === 'filing' ? row.json : (item.json ?? {}) };
		});
		run = { shape, items };
		sayShape(ctx, shape);
	}
	SHAPES.set(input, run);
	return run;
}

/** The run's rows as the reader reads them (Map Automatically), or undefined. */
export function shapedItems(ctx: IExecuteFunctions): Array<{ json: IDataObject }> | undefined {
	return runShape(ctx)?.items;
}

/** Columns whose values name charges, for rows read one by one (none where rows were gathered). */
export function chargeColumnsOf(ctx: IExecuteFunctions): ReadonlySet<string> {
	return new Set(runShape(ctx)?.shape.chargeNames ?? []);
}

/** What row `index` of the run is, where the sheet was read as one. */
export function rowShape(ctx: IExecuteFunctions, index: number): RowShape | undefined {
	return runShape(ctx)?.shape.rows[index];
}

/** A refusal for the sheet's shape, in full on the row that says it and pointing there elsewhere. */
export function shapeRefusal(ctx: IExecuteFunctions, index: number): string | undefined {
	const row = rowShape(ctx, index);
	if (row?.as !== 'refused') return undefined;
	const titled = runShape(ctx)?.shape.titled;
	if (titled && row.first !== undefined && row.first !== index) {
		const fix = titled.workbook ? 'the Range option' : `Starting Line ${titled.headerLine}`;
		return `not read: the sheet has report lines above its header, so Extract From File did not read its columns (said once, on ${rowLabel(ctx, row.first)}, with the fix: ${fix})`;
	}
	return row.why;
}

/**
 * The output item of a row that is not read as a transaction: a blank, total or repeated header
 * row (left out), or a charge gathered into another row's filing. Undefined for other rows.
 */
export function notATransaction(ctx: IExecuteFunctions, index: number): IDataObject | undefined {
	const row = rowShape(ctx, index);
	if (row?.as === 'left out') {
		return {
			outcome: 'left_out',
			outcomeNote: `${rowLabel(ctx, index)} is a ${row.what}: not a transaction, so it is left out and not filed.`,
			sheetRow: sheetRow(ctx, index),
			sheetRead: row.what,
		};
	}
	if (row?.as === 'charge') {
		const { name, amount, field } = row.charge;
		return {
			outcome: 'charge',
			outcomeNote: `charge of row ${sheetRow(ctx, row.of)}'s filing: ${name} ${String(amount)} is read as ${field} of the transaction on ${rowLabel(ctx, row.of)}, whose item says whether it was filed; this row is not filed on its own.`,
			sheetRow: sheetRow(ctx, index),
			sheetRead: 'charge',
			chargeOf: sheetRow(ctx, row.of),
			charge: { name, amount: amount as string, as: field },
		};
	}
	return undefined;
}

/** On a gathered transaction's item: every source row and what it gave (nothing otherwise). */
export function chargesOf(ctx: IExecuteFunctions, index: number): IDataObject | undefined {
	const row = rowShape(ctx, index);
	if (row?.as !== 'filing') return undefined;
	return {
		_charges: row.charges.map((c) => ({
			sheetRow: sheetRow(ctx, c.index),
			charge: c.name,
			amount: c.amount as string,
			as: c.field,
		})),
	};
}

/** Said once over the output: what was recognised in the sheet. */
function sayShape(ctx: IExecuteFunctions, shape: SheetShape) {
	if (shape.titled) {
		ctx.addExecutionHints?.({
			message: withRowPrefix(ctx, 0, shape.rows[0].as === 'refused' ? shape.rows[0].why : ''),
			type: 'warning',
			location: 'outputPane',
		});
		return;
	}
	const byKind = new Map<string, number[]>();
	shape.rows.forEach((row, index) => {
		const kind = row.as === 'left out' ? `${row.what}s` : row.as === 'charge' ? 'charge rows gathered into another row’s filing' : undefined;
		if (kind) byKind.set(kind, [...(byKind.get(kind) ?? []), index]);
	});
	if (!byKind.size) return;
	const filings = shape.rows.filter((r) => r.as === 'filing').length;
	const parts = [...byKind.entries()].map(([kind, indexes]) => `${indexes.length} ${kind} (${rowsLabel(ctx, indexes)})`);
	const charges = shape.charges
		? ` One row per charge: column "${shape.charges.charge}" names the charge and "${shape.charges.amount}" its amount; ${filings} transaction${filings === 1 ? '' : 's'} gathered from them.`
		: '';
	ctx.addExecutionHints?.({
		message: `The sheet was read as a report: not filed on their own: ${parts.join('; ')}.${charges}`,
		type: 'info',
		location: 'outputPane',
	});
}
