import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readErrorInfo } from '../../../shared/errors';
import type { Run } from '../../../shared/run';
import { PATHS } from '../../../shared/service';
import { refusedRowsMessage, sheetRow } from '../../../shared/sheetRows';
import {
	chargesOf,
	notATransaction,
	readInvoiceInput,
	readRawBody,
	takeColumnNotes,
	takeInvoiceWarnings,
	type InvoiceInput,
} from '../../../sheet';
import { canonicalInvoice } from '../../../filing/canonical';
import { idempotencyKeyFor } from '../../../filing/idempotency';
import { refuseSameKeyOtherRow } from '../../../filing/sameRun';
import { bodyProperties } from './body.description';
import { readBodySettings, readRunSheet } from '../sheetSettings';

/** What this operation leaves out, said on the panel and on every item. */
const NOT_CHECKED =
	'No call is made: the account is not asked, so insurers by NAIC or name and line-of-business names are not looked up on legacy accounts, taxes are not computed and the service’s own checks do not run (Preview does those, one call per row).';

const properties: INodeProperties[] = [
	{
		displayName: `Reads every input item as Create and Create Many would, and files nothing: one item per row saying whether it would be sent or refused and why, which column gave each field, the columns not used and the rules that decided between columns. ${NOT_CHECKED}`,
		name: 'checkSheetNotice',
		type: 'notice',
		default: '',
	},
	...bodyProperties(false),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['checkSheet'] } },
	properties,
);

/** The reasons an error gives for a row: its field lines, or its message. */
function reasons(error: unknown): string[] {
	const fields = readErrorInfo(error)?.fields;
	return fields?.length ? fields : [(error as Error).message];
}

/** A row as Create reads it (call in row order): its input, or the reasons it is refused. */
export type SheetRowReading =
	| { input: InvoiceInput; body: IDataObject; reasons?: undefined }
	| { reasons: string[] };

/** Reads one row as Create would, before the account's look-ups and any call (Reconcile Sheet too). */
export function readRowAsCreate(ctx: IExecuteFunctions, run: Run, index: number): SheetRowReading {
	try {
		const input = readInvoiceInput(run, readBodySettings(ctx, index, 'full'), index);
		const body = canonicalInvoice(input.body);
		// As Create derives keys by default: a later row with an earlier row's key but other columns.
		refuseSameKeyOtherRow(run, idempotencyKeyFor({ mode: 'derived' }, PATHS.invoices, body), index);
		return { input, body };
	} catch (error) {
		return { reasons: reasons(error) };
	}
}

/** One row as Create would read it, before the account's look-ups and any call. */
function checkRow(ctx: IExecuteFunctions, run: Run, index: number): IDataObject {
	const json: IDataObject = { row: sheetRow(run, index) };
	const asRead = notATransaction(run, index);
	if (asRead) {
		const result =
			asRead.outcome === 'charge' ? `charge of row ${String(asRead.chargeOf)}'s filing` : 'left out';
		return { ...json, result, reasons: [asRead.outcomeNote], sheetRead: asRead.sheetRead, notChecked: NOT_CHECKED };
	}
	const read = readRowAsCreate(ctx, run, index);
	if (read.reasons) Object.assign(json, { result: 'refused', reasons: read.reasons });
	else {
		const { input, body } = read;
		Object.assign(json, { result: 'would be sent', body, columns: input.sources, ...chargesOf(run, index) });
		if (input.converted.length) json._converted = input.converted as unknown as IDataObject[];
	}
	const warnings = takeInvoiceWarnings(run, index);
	if (warnings.length) json._warnings = warnings;
	return { ...json, ...takeColumnNotes(run, index, true), notChecked: NOT_CHECKED };
}

/**
 * Every row, in order, each paired to its input item; a refused row is an item, not an error, and
 * the count of refused rows is said over the output as Create says it after a run.
 */
export async function executeAll(this: IExecuteFunctions, run: Run): Promise<INodeExecutionData[]> {
	readRunSheet(this, run);
	const count = run.items.length;
	const output: INodeExecutionData[] = [];
	const refused: Array<{ index: number; policy: unknown }> = [];
	for (let index = 0; index < count; index++) {
		const json = checkRow(this, run, index);
		if (json.result === 'refused') refused.push({ index, policy: policyOf(this, run, index) });
		output.push({ json, pairedItem: { item: index } });
	}
	if (refused.length) {
		run.say({
			message: `${refusedRowsMessage(run, refused, count, 'would be refused')} Each row's reasons say the column and the rule; nothing was sent.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	return output;
}

/** The row's policy number as read for the request, where it reads (a refused row may not). */
export function policyOf(ctx: IExecuteFunctions, run: Run, index: number): unknown {
	try {
		return (readRawBody(run, readBodySettings(ctx, index, 'full'), index, 'full') as IDataObject | undefined)?.policy_number;
	} catch {
		return undefined;
	}
}
