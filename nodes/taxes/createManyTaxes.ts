/**
 * Create Many's Bill Taxes From Preview and Sheet Tax Check: the same figures and verdicts as
 * Create with a preview gives each row, obtained for the whole run at batch cost
 * (batchTaxes.ts). Both options default to what Create Many did before them: no tax line added,
 * nothing compared.
 *
 * Enters: the run (its service), the rows to file and how they were read, the run's tax settings.
 * Leaves: each row's taxes and the run's hint, then each row billed and checked (or refused).
 */
import type { IDataObject, INodeProperties, NodeExecutionHint } from 'n8n-workflow';

import type { Run } from '../shared/run';
import type { InvoiceInput } from '../sheet';
import type { Entry } from '../filing/entry';
import { taxesAtBatchCost, type BatchTaxes } from './batchTaxes';
import { billTaxLines } from './preview';
import { applyTaxCheck, hasSheetTaxes, taxCheckOptions, type TaxCheckSettings } from './sheetCheck';

export const createManyTaxOptions: INodeProperties[] = [
	{
		displayName: 'Bill Taxes From Preview',
		name: 'billTaxesFromPreview',
		type: 'boolean',
		default: false,
		description:
			'Whether to add the taxes and fees the service computes (Surplus Lines Tax, stamping fee…) to each row’s fees, as Create does, at batch cost: one calculator estimate per state and rate period, each group confirmed by a preview of one of its rows, a preview of its own for a row that needs one. Codes already in the fees are kept as sent. Without the calculator on the key, one preview per row.',
	},
	...taxCheckOptions('createMany'),
];

/** What a filed (or refused) row says about its taxes, as Create's item does. */
export interface EntryTaxes {
	how: string;
	taxCheck?: IDataObject;
	previewNotes?: string[];
}

export interface RunTaxes {
	byIndex: Map<number, EntryTaxes>;
	hint: NodeExecutionHint;
	bill: boolean;
	check?: TaxCheckSettings;
	batch: BatchTaxes;
}

/** The run's taxes, or undefined when neither option asks for them (no call made). */
/** Create Many's tax settings: one for the whole run (its rows are taxed together), from item 0. */
export interface CreateManyTaxSettings {
	/** Options → Bill Taxes From Preview. */
	bill: boolean;
	check: TaxCheckSettings;
}

export async function taxesForEntries(
	run: Run,
	entries: Entry[],
	inputs: InvoiceInput[],
	{ bill, check: settings }: CreateManyTaxSettings,
): Promise<RunTaxes | undefined> {
	const compares =
		settings.mode !== 'off' && (bill || settings.mode === 'always' || settings.mode === 'fail');
	const rows = entries
		.filter((entry) => bill || (compares && hasSheetTaxes(inputs[entry.index])))
		.map((entry) => ({ index: entry.index, body: entry.body, input: inputs[entry.index] }));
	if (!rows.length) return undefined;
	const check = compares ? settings : undefined;
	const batch = await taxesAtBatchCost(run, rows, check);
	const hint: NodeExecutionHint = batch.warning
		? { message: `${batch.warning} ${batch.summary}`, type: 'warning', location: 'outputPane' }
		: { message: batch.summary, type: 'info', location: 'outputPane' };
	return { byIndex: new Map(), hint, bill, check, batch };
}

/**
 * Each entry with its tax lines billed and its sheet's taxes checked, as Create does them; a row
 * the billing or the check refuses is a failure, and is not filed.
 */
export function billTaxes(
	run: Run,
	entries: Entry[],
	inputs: InvoiceInput[],
	taxes: RunTaxes,
): { entries: Entry[]; failures: Array<{ index: number; error: Error }> } {
	const kept: Entry[] = [];
	const failures: Array<{ index: number; error: Error }> = [];
	for (const entry of entries) {
		const row = taxes.batch.rows.get(entry.index);
		if (!row) {
			kept.push(entry);
			continue;
		}
		try {
			if ('error' in row) throw row.error;
			let body = entry.body;
			let previewNotes: string[] | undefined;
			if (taxes.bill) {
				const billed = billTaxLines(run, entry.body, row.reply, entry.index);
				body = billed.body;
				previewNotes = billed.notes;
			}
			const taxCheck = taxes.check
				? applyTaxCheck(run, entry.index, inputs[entry.index], row.reply.data, taxes.check)
				: undefined;
			taxes.byIndex.set(entry.index, { how: row.how, taxCheck, previewNotes });
			kept.push({ ...entry, body });
		} catch (error) {
			failures.push({ index: entry.index, error: error as Error });
		}
	}
	return { entries: kept, failures };
}
