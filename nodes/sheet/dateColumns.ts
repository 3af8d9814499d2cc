/**
 * Map Automatically: a column of dates is read in one form for all its rows. A sheet that writes
 * 19/05/2026 in a column writes the day first in every row of it, so 04/05/2026 there is May 4,
 * not April 5. A column whose rows show both forms (05/19/2026 and 19/05/2026) cannot be decided
 * and refuses each row that has a date in it, naming the column. A column whose dates all read
 * both ways keeps the US month/day reading the package documents.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ColumnRule } from './columnRules';

const SLASHED = /^\s*(\d{1,2})[/-](\d{1,2})[/-](\d{4})(?:\s+00:00(?::00)?)?\s*$/;

interface Example {
	row: number;
	value: string;
}

/** A column's form, decided from all its rows. */
type DateForm = { dayFirst: Example } | { both: { dayFirst: Example; monthFirst: Example } };

/** The run's date columns that are not written month first, by column. */
export type DateForms = Map<string, DateForm>;

/**
 * The forms of the run's date columns that are not month first, from all its rows (read once
 * per run: the run keeps them, input.ts).
 */
export function readDateForms(items: Array<{ json: IDataObject }>): DateForms {
	const dayFirst = new Map<string, Example>();
	const monthFirst = new Map<string, Example>();
	items.forEach(({ json }, index) => {
		for (const [column, value] of Object.entries(json ?? {})) {
			const parts = typeof value === 'string' ? SLASHED.exec(value) : null;
			if (!parts) continue;
			const example = { row: index + 1, value: value as string };
			if (Number(parts[1]) > 12 && !dayFirst.has(column)) dayFirst.set(column, example);
			if (Number(parts[2]) > 12 && !monthFirst.has(column)) monthFirst.set(column, example);
		}
	});
	const forms = new Map<string, DateForm>();
	for (const [column, example] of dayFirst) {
		const other = monthFirst.get(column);
		forms.set(
			column,
			other ? { both: { dayFirst: example, monthFirst: other } } : { dayFirst: example },
		);
	}
	return forms;
}

interface DayFirstRow {
	/** The row with its day-first dates written as YYYY-MM-DD. */
	item: IDataObject;
	rules: ColumnRule[];
	problems: string[];
}

const pad = (n: string) => n.padStart(2, '0');

/** Row `index` of the run with its date columns read in their column's form. */
export function readDateColumns(
	items: Array<{ json: IDataObject }>,
	index: number,
	forms: DateForms = readDateForms(items),
): DayFirstRow {
	const item = { ...(items[index]?.json ?? {}) };
	const out: DayFirstRow = { item, rules: [], problems: [] };
	for (const [column, form] of forms) {
		const raw = item[column];
		const parts = typeof raw === 'string' ? SLASHED.exec(raw) : null;
		if (!parts) continue;
		const value = raw as string;
		if ('both' in form) {
			const { dayFirst, monthFirst } = form.both;
			out.problems.push(
				`column "${column}" (${value.trim()}): its dates are written month first in row ${monthFirst.row} ("${monthFirst.value}") and day first in row ${dayFirst.row} ("${dayFirst.value}"), so the column's form cannot be decided and the row is not filed; write the column's dates as YYYY-MM-DD (2026-05-19)`,
			);
			continue;
		}
		const iso = `${parts[3]}-${pad(parts[2])}-${pad(parts[1])}`;
		item[column] = iso;
		out.rules.push({
			field: column,
			column,
			value,
			rule: `the column writes the day first (row ${form.dayFirst.row}: "${form.dayFirst.value}"), so every date in it is read day first: ${value.trim()} is ${iso}`,
		});
	}
	return out;
}
