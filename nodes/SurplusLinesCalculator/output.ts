import type { IDataObject } from 'n8n-workflow';

function lineItems(result: IDataObject): IDataObject[] {
	return Array.isArray(result.line_items) ? (result.line_items as IDataObject[]) : [];
}

function context(result: IDataObject): IDataObject {
	const state = (result.state ?? {}) as IDataObject;
	const input = (result.input ?? {}) as IDataObject;
	return {
		state: state.code,
		state_name: state.name,
		effective_date: input.effective_date,
		premium: input.premium,
		policy_fees: input.policy_fees,
		tax_base: result.tax_base,
	};
}

/** One flat row: state, premium, tax base, each line item's code → amount, totals. */
export function simplify(result: IDataObject): IDataObject {
	const row = context(result);
	for (const item of lineItems(result)) {
		const code = String(item.code);
		const amount = Number(item.amount);
		// Two lines with one code (not seen, but not excluded) add up rather than overwrite.
		row[code] =
			typeof row[code] === 'number'
				? Math.round(((row[code] as number) + amount) * 100) / 100
				: amount;
	}
	row.total_taxes_and_fees = result.total_taxes_and_fees;
	row.total_due = result.total_due;
	if (Array.isArray(result.warnings) && result.warnings.length) row.warnings = result.warnings;
	return row;
}

/** One row per line item, each carrying the state, date, premium and tax base (for spreadsheets). */
export function perLineItem(result: IDataObject): IDataObject[] {
	const shared = context(result);
	return lineItems(result).map((item) => ({
		...shared,
		code: item.code,
		name: item.name,
		rate: item.rate,
		rate_type: item.rate_type,
		amount: item.amount,
		unrounded_amount: item.unrounded_amount,
	}));
}

/**
 * For a model: the figures it must quote with the rates that make them and the disclaimer it must
 * pass on; what only a spreadsheet needs (unrounded amounts, timestamps) is left out.
 */
export function forAssistant(result: IDataObject): IDataObject {
	const json: IDataObject = {
		...context(result),
		lines: lineItems(result).map((item) => ({
			code: item.code,
			name: item.name,
			rate: item.rate,
			rate_type: item.rate_type,
			amount: item.amount,
		})),
		total_taxes_and_fees: result.total_taxes_and_fees,
		total_due: result.total_due,
	};
	if (result.fee_breakdown) json.fee_breakdown = result.fee_breakdown;
	if (result.special_notes) json.special_notes = result.special_notes;
	if (Array.isArray(result.warnings) && result.warnings.length) json.warnings = result.warnings;
	json.disclaimer = result.disclaimer;
	return json;
}
