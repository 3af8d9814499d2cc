/**
 * The preview and Bill Taxes From Preview's tax lines. Enters: the run (its service), a body.
 * Leaves: the preview's reply, or the body with the computed tax lines in its fees (the kept 0s
 * said in the run's warnings for the item).
 */
import type { IDataObject } from 'n8n-workflow';

import { inputError, serviceError } from '../shared/errors';
import type { Run } from '../shared/run';
import { feeTypeName } from '../shared/service';
import { FEE_ALIAS_PAIRS } from '../shared/rules';
import type { ApiReply } from '../shared/transport';
import { addInvoiceWarnings, validateInvoice } from '../sheet';

/** POST /invoices/preview: stores nothing, so it is safe to resend. */
export async function previewInvoice(
	run: Run,
	body: IDataObject,
	itemIndex: number,
): Promise<ApiReply<IDataObject>> {
	return await run.service.preview(body, itemIndex);
}

// Create accepts a state without direct e-filing (the filing is prepared for the state's own
// process), so this preview message is a note, not a reason to stop.
const NOT_BLOCKING = /^State \w+ is not supported for filing$/;

const twinOf = (code: string) =>
	FEE_ALIAS_PAIRS.flatMap(([a, b]) => (a === code ? [b] : b === code ? [a] : []))[0];

/**
 * Adds the preview's tax lines to fees[]: codes already sent (or their alias twin) are kept as
 * sent, a 0 included. The kept 0s the preview computes otherwise are returned, to be said.
 */
function mergeTaxLines(
	body: IDataObject,
	lineItems: IDataObject[],
): { body: IDataObject; keptZeros: string[] } {
	const fees = Array.isArray(body.fees) ? [...(body.fees as IDataObject[])] : [];
	const present = new Set(fees.map((f) => String(f.type)));
	const keptZeros: string[] = [];
	for (const line of lineItems) {
		const code = String(line.code ?? '');
		const sent = fees.findIndex((f) => f.type === code || f.type === twinOf(code));
		if (sent >= 0 && fees[sent].amount === 0 && Number(line.amount ?? 0) !== 0) {
			keptZeros.push(
				`${feeTypeName(String(fees[sent].type))} (${String(fees[sent].type)}): the row gives 0 and 0 is filed; the preview computed ${Number(line.amount).toFixed(2)} for ${String(body.state_code)}. Bill Taxes From Preview keeps a tax the row gives: leave the cell empty (or the line out) to bill the computed amount`,
			);
		}
		if (!code || present.has(code) || present.has(twinOf(code) ?? '')) continue;
		fees.push({ type: code, amount: line.amount as number });
		present.add(code);
	}
	return { body: { ...body, fees }, keptZeros };
}

/**
 * Preview first, then the body to create with the computed tax lines in fees[]. Throws (nothing
 * created) when the preview reports validation errors.
 */
export async function billTaxesFromPreview(
	run: Run,
	body: IDataObject,
	itemIndex: number,
): Promise<{ body: IDataObject; notes: string[]; preview: IDataObject }> {
	return billTaxLines(run, body, await previewInvoice(run, body, itemIndex), itemIndex);
}

/**
 * The body to create with the tax lines of a preview's reply (Create's own preview, or the lines
 * Create Many computed for the row, shaped as one) in fees[]. Throws (nothing created) when the
 * preview reports validation errors.
 */
export function billTaxLines(
	run: Run,
	body: IDataObject,
	reply: Pick<ApiReply<IDataObject>, 'data' | 'requestId'>,
	itemIndex: number,
): { body: IDataObject; notes: string[]; preview: IDataObject } {
	const preview = reply.data;
	const validation = (preview.validation ?? {}) as IDataObject;
	const messages = Array.isArray(validation.errors) ? validation.errors.map(String) : [];
	const blocking = messages.filter((m) => !NOT_BLOCKING.test(m));
	if (blocking.length) {
		throw serviceError(
			run,
			{
				code: 'PREVIEW_INVALID',
				message: 'the preview reported problems, so nothing was created',
				fields: blocking,
				requestId: reply.requestId,
			},
			{
				itemIndex,
				hint: 'Fix the item and run again (Bill Taxes From Preview creates only after a clean preview).',
			},
		);
	}
	const tax = (preview.tax_calculation ?? {}) as IDataObject;
	const lineItems = Array.isArray(tax.line_items) ? (tax.line_items as IDataObject[]) : [];
	const { body: billed, keptZeros } = mergeTaxLines(body, lineItems);
	const merged = validateInvoice(billed);
	if (!merged.ok) {
		throw inputError(run, merged.problems, {
			itemIndex,
			summary: `With the preview's tax lines the invoice breaks a rule, nothing was created: ${merged.problems[0]}`,
		});
	}
	addInvoiceWarnings(run, itemIndex, keptZeros);
	return { body: merged.body, notes: messages.filter((m) => NOT_BLOCKING.test(m)), preview };
}
