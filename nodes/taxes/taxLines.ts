/**
 * Taxes that are easy to miss. Brokers file to report and pay surplus lines tax, yet create stores
 * fees as sent and computes nothing: an invoice filled in field by field goes out with no tax line.
 * From version 2 Create bills the preview's taxes unless switched off, and any invoice created or
 * previewed without a Surplus Lines Tax line says so on its item and over the output.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Run } from '../shared/run';

import { feeTypeName, SURPLUS_LINES_TAX_CODE } from '../shared/service';

/** Version 2's switch, on by default (version 1 keeps its Options entry, off unless added). */
export const billTaxesSwitch: INodeProperties = {
	displayName: 'Bill Taxes From Preview',
	name: 'billTaxesFromPreview',
	type: 'boolean',
	default: true,
	displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
	description:
		'Whether to preview first and add the computed taxes and fees (Surplus Lines Tax, stamping fee…) to the fees, then create. One extra call. Codes already in the fees are kept as sent, a 0 included (the item then says what the preview computed). Nothing is created when the preview reports problems. Turn off only when the fees already carry the taxes.',
};

const fees = (value: unknown) => (Array.isArray(value) ? (value as IDataObject[]) : []);
const hasTaxLine = (list: IDataObject[]) =>
	list.some((f) => f.type === SURPLUS_LINES_TAX_CODE && Number(f.amount ?? 0) !== 0);
const stateOf = (invoice: IDataObject) =>
	String((invoice.state as IDataObject | undefined)?.code ?? invoice.state_code ?? 'its state');

/** For an invoice as the service stored it: no Surplus Lines Tax line on a premium that is not 0. */
export function filedTaxWarning(invoice: IDataObject): string | undefined {
	if (Number(invoice.net_premium ?? 0) === 0 || hasTaxLine(fees(invoice.fees))) return undefined;
	return `Filed without a ${feeTypeName(SURPLUS_LINES_TAX_CODE)} (${SURPLUS_LINES_TAX_CODE}) line: every state levies surplus lines tax, and ${stateOf(invoice)} gets none from this invoice. Turn on Bill Taxes From Preview, or add the tax lines Preview or the Calculator gives, then Update the invoice.`;
}

/** For a preview: the tax lines it computed that the body's fees do not carry, when it has no tax line. */
export function previewTaxWarning(body: IDataObject, preview: IDataObject): string | undefined {
	const sent = fees(body.fees);
	if (hasTaxLine(sent)) return undefined;
	const tax = (preview.tax_calculation ?? {}) as IDataObject;
	const computed = fees(tax.line_items).filter((l) => Number(l.amount ?? 0) !== 0);
	if (!computed.some((l) => l.code === SURPLUS_LINES_TAX_CODE)) return undefined;
	const sentCodes = new Set(sent.map((f) => String(f.type)));
	const missing = computed
		.filter((l) => !sentCodes.has(String(l.code)))
		.map((l) => `${feeTypeName(String(l.code), l.name)} (${String(l.code)}) ${String(l.amount)}`);
	return `The fees carry no tax line; the preview computes ${missing.join(', ')} for ${String(body.state_code ?? 'the state')}. Create files the invoice without them unless Bill Taxes From Preview is on or they are added to the fees.`;
}

declare module '../shared/run' {
	interface RunLearned {
		/** The missing-tax warning was said over the output (once per run). */
		taxWarningSaid?: boolean;
	}
}

/**
 * Puts the warning on the item and, once per run, over the output pane (Create Many has its own
 * summary over the output, so it passes `hint: false`).
 */
export function markTaxWarning(
	run: Pick<Run, 'learned' | 'say'>,
	json: IDataObject,
	warning: string | undefined,
	{ hint = true } = {},
): IDataObject {
	if (!warning) return json;
	json._taxWarning = warning;
	if (hint && !run.learned.taxWarningSaid) {
		run.learned.taxWarningSaid = true;
		run.say({
			message:
				'Some invoices have no Surplus Lines Tax line (see _taxWarning on their items): brokers file to report and pay that tax.',
			type: 'warning',
			location: 'outputPane',
		});
	}
	return json;
}
