/**
 * The sheet's and the body's settings, read from the node by the operations that read a sheet
 * (Create, Create Many, Preview, Update, Check Sheet, Reconcile Sheet): the one place those node
 * parameters are read. The stages (nodes/sheet/) take the values these return.
 */
import type { IDataObject, IExecuteFunctions, ResourceMapperValue } from 'n8n-workflow';

import { itemParameter, nodeVersion, rawParameter } from '../../shared/params';
import { isBlankValue } from '../../shared/values';
import type { Run } from '../../shared/run';
import {
	columnsLeftOut,
	FIELD_GROUPS,
	isWholeItem,
	readSheet,
	REQUIRED_UI_FIELDS,
	sheetIsRead,
	type BodySettings,
	type SheetSettings,
} from '../../sheet';
import { FOLDED_GROUPS } from '../../sheet/foldedGroups';

/** The run's sheet settings, from item 0: Map Automatically or not, Columns Not to File. */
export function readSheetSettings(ctx: IExecuteFunctions): SheetSettings {
	if (itemParameter<string>(ctx, 'inputMode', 0, 'fields') !== 'columns')
		return { automatic: false, leftOut: new Set() };
	const columns = ctx.getNodeParameter('columns', 0, {}) as Partial<ResourceMapperValue>;
	if (columns.mappingMode === 'defineBelow') return { automatic: false, leftOut: new Set() };
	return {
		automatic: true,
		leftOut: columnsLeftOut(ctx.getNodeParameter('columnsLeftOut', 0, '')),
	};
}

/** Dates in the Sheet: an order the user chose, or undefined where the sheet decides. */
const sheetDateOrder = (value: unknown): 'dayFirst' | 'monthFirst' | undefined =>
	value === 'dayFirst' || value === 'monthFirst' ? value : undefined;

/** Reads the run's sheet once (sheetRead.ts), before its first row is read. */
export function readRunSheet(ctx: IExecuteFunctions, run: Run): void {
	if (!sheetIsRead(run)) readSheet(run, readSheetSettings(ctx));
}

/** Item `i`'s body settings: what its body source needs, and nothing else, read from the node. */
export function readBodySettings(
	ctx: IExecuteFunctions,
	i: number,
	mode: 'full' | 'partial',
): BodySettings {
	const inputMode = itemParameter<string>(ctx, 'inputMode', i, 'fields');
	if (inputMode === 'json') {
		if (isWholeItem(rawParameter(ctx, 'invoiceJson', ''))) return { from: 'json', wholeItem: true };
		return { from: 'json', wholeItem: false, value: ctx.getNodeParameter('invoiceJson', i) };
	}
	if (inputMode === 'inputItem') return { from: 'inputItem' };
	if (inputMode === 'columns') {
		const columns = ctx.getNodeParameter('columns', i, {}) as Partial<ResourceMapperValue>;
		const leftOut =
			columns.mappingMode === 'defineBelow'
				? new Set<string>()
				: columnsLeftOut(ctx.getNodeParameter('columnsLeftOut', i, ''));
		return {
			from: 'columns',
			columns,
			leftOut,
			unprovenDates: nodeVersion(ctx) >= 4 ? 'refuse' : 'monthFirst',
			dateOrder: sheetDateOrder(ctx.getNodeParameter('sheetDateOrder', i, 'sheet')),
		};
	}
	const extra = ctx.getNodeParameter(
		mode === 'full' ? 'additionalFields' : 'updateFields',
		i,
		{},
	) as IDataObject;
	// Workflows saved before Type was a top-level field hold it in Additional Fields, where it wins.
	const typeCode =
		mode === 'full' && isBlankValue(extra.typeCode)
			? (ctx.getNodeParameter('typeCode', i, 'NEW') as string)
			: undefined;
	const required: Record<string, unknown> = {};
	if (mode === 'full')
		for (const name of REQUIRED_UI_FIELDS) required[name] = ctx.getNodeParameter(name, i, '');
	const version = nodeVersion(ctx);
	const groups: Record<string, unknown> = {};
	for (const name of FIELD_GROUPS) {
		if (version >= 2 && FOLDED_GROUPS.includes(name)) continue;
		groups[name] = ctx.getNodeParameter(name, i, {});
	}
	return { from: 'fields', required, extra, typeCode, version, groups };
}
