/**
 * The sheet's shape (sheetShape.ts) for a run of the Invoice node: read once per run's input, for
 * Map Automatically only (the other body sources name their fields, so a row is what they say).
 *
 * Enters: the run (its input items, run.ts) and the sheet's settings (Map Automatically or not,
 * Columns Not to File), read by the operation. Leaves: `run.learned.sheet`, the shape every later
 * question here answers from. Create, Create Many, Preview and Check Sheet read it before a row:
 * a row that is not a transaction, or a charge of another row's filing, comes out as an item
 * saying so; the first row of a transaction with one row per charge is read with its charges
 * gathered.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Run } from '../shared/run';
import { rowLabel, rowsLabel, sheetRow, withRowPrefix } from '../shared/sheetRows';
import { leftOutKey } from './columnAccount';
import { type RowShape, type SheetShape, readSheetShape } from './sheetShape';

interface RunShape {
	shape: SheetShape;
	/** The input items as the reader reads them: a gathered transaction's row in its first row's place. */
	items: Array<{ json: IDataObject }>;
}

declare module '../shared/run' {
	interface RunLearned {
		/** The sheet read whole (Map Automatically, more than one row); null where rows are read one by one. */
		sheet?: RunShape | null;
	}
}

/** The sheet's settings for the run, as the operation read them (from item 0). */
export interface SheetSettings {
	/** Map Columns → Map Automatically: the row's own columns are read by their names. */
	automatic: boolean;
	/** Columns Not to File. */
	leftOut: Set<string>;
}

/** Columns Not to File, as saved: the headers, as written, separated by commas or new lines. */
export function columnsLeftOut(raw: unknown): Set<string> {
	const text = typeof raw === 'string' ? raw : '';
	return new Set(text.split(/[,\n]/).map(leftOutKey).filter(Boolean));
}

/** Whether the run's sheet was read (readSheet): an operation reads it once, before its first row. */
export function sheetIsRead(run: Run): boolean {
	return run.learned.sheet !== undefined;
}

/** Reads the run's sheet once (what the later questions answer from); says what it recognised. */
export function readSheet(run: Run, settings: SheetSettings): void {
	if (run.learned.sheet !== undefined) return;
	const input = run.items;
	let read: RunShape | null = null;
	if (input.length > 1 && settings.automatic) {
		const shape = readSheetShape(
			input.map((item) => item.json ?? {}),
			{
				leftOut: settings.leftOut,
				words: { rows: (indexes) => rowsLabel(run, indexes), row: (i) => String(sheetRow(run, i)) },
			},
		);
		const items = input.map((item, index) => {
			const row = shape.rows[index];
			return { json: row.as === 'filing' ? row.json : (item.json ?? {}) };
		});
		read = { shape, items };
		sayShape(run, shape);
	}
	run.learned.sheet = read;
}

/** The run's shape; null where rows are read one by one (or the sheet was not read). */
function runShape(run: Run): RunShape | null {
	return run.learned.sheet ?? null;
}

/** The run's rows as the reader reads them (Map Automatically), or undefined. */
export function shapedItems(run: Run): Array<{ json: IDataObject }> | undefined {
	return runShape(run)?.items;
}

/** Columns whose values name charges, for rows read one by one (none where rows were gathered). */
export function chargeColumnsOf(run: Run): ReadonlySet<string> {
	return new Set(runShape(run)?.shape.chargeNames ?? []);
}

/** What row `index` of the run is, where the sheet was read as one. */
export function rowShape(run: Run, index: number): RowShape | undefined {
	return runShape(run)?.shape.rows[index];
}

/** A refusal for the sheet's shape, in full on the row that says it and pointing there elsewhere. */
export function shapeRefusal(run: Run, index: number): string | undefined {
	const row = rowShape(run, index);
	if (row?.as !== 'refused') return undefined;
	const titled = runShape(run)?.shape.titled;
	if (titled && row.first !== undefined && row.first !== index) {
		const fix = titled.workbook ? 'the Range option' : `Starting Line ${titled.headerLine}`;
		return `not read: the sheet has report lines above its header, so Extract From File did not read its columns (said once, on ${rowLabel(run, row.first)}, with the fix: ${fix})`;
	}
	return row.why;
}

/**
 * The output item of a row that is not read as a transaction: a blank, total or repeated header
 * row (left out), or a charge gathered into another row's filing. Undefined for other rows.
 */
export function notATransaction(run: Run, index: number): IDataObject | undefined {
	const row = rowShape(run, index);
	if (row?.as === 'left out') {
		return {
			outcome: 'left_out',
			outcomeNote: `${rowLabel(run, index)} is a ${row.what}: not a transaction, so it is left out and not filed.`,
			sheetRow: sheetRow(run, index),
			sheetRead: row.what,
		};
	}
	if (row?.as === 'charge') {
		const { name, amount, field } = row.charge;
		return {
			outcome: 'charge',
			outcomeNote: `charge of row ${sheetRow(run, row.of)}'s filing: ${name} ${String(amount)} is read as ${field} of the transaction on ${rowLabel(run, row.of)}, whose item says whether it was filed; this row is not filed on its own.`,
			sheetRow: sheetRow(run, index),
			sheetRead: 'charge',
			chargeOf: sheetRow(run, row.of),
			charge: { name, amount: amount as string, as: field },
		};
	}
	return undefined;
}

/** On a gathered transaction's item: every source row and what it gave (nothing otherwise). */
export function chargesOf(run: Run, index: number): IDataObject | undefined {
	const row = rowShape(run, index);
	if (row?.as !== 'filing') return undefined;
	return {
		_charges: row.charges.map((c) => ({
			sheetRow: sheetRow(run, c.index),
			charge: c.name,
			amount: c.amount as string,
			as: c.field,
		})),
	};
}

/** Said once over the output: what was recognised in the sheet. */
function sayShape(run: Run, shape: SheetShape) {
	if (shape.titled) {
		run.say({
			message: withRowPrefix(run, 0, shape.rows[0].as === 'refused' ? shape.rows[0].why : ''),
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
	const parts = [...byKind.entries()].map(([kind, indexes]) => `${indexes.length} ${kind} (${rowsLabel(run, indexes)})`);
	const charges = shape.charges
		? ` One row per charge: column "${shape.charges.charge}" names the charge and "${shape.charges.amount}" its amount; ${filings} transaction${filings === 1 ? '' : 's'} gathered from them.`
		: '';
	run.say({
		message: `The sheet was read as a report: not filed on their own: ${parts.join('; ')}.${charges}`,
		type: 'info',
		location: 'outputPane',
	});
}
