import type { IDataObject } from 'n8n-workflow';

import { withUtcTimes } from '../shared/dates';
import { invoiceWithoutLinks } from '../shared/links';

export interface FilingMarks {
	/** The service returned an earlier filing for the same Idempotency-Key (`Idempotent-Replayed: true`). */
	replayed?: boolean;
	/** After a lost reply, the filing was found among the policy's transactions instead of filed again. */
	recovered?: boolean;
}

function feesTotal(fees: unknown): number {
	const list = Array.isArray(fees) ? (fees as IDataObject[]) : [];
	const cents = list.reduce((sum, f) => sum + Math.round(Number(f.amount ?? 0) * 100), 0);
	return cents / 100;
}

/** The few fields most flows need; the whole invoice otherwise. */
export function simplifyInvoice(invoice: IDataObject): IDataObject {
	return {
		id: invoice.id,
		policy_number: invoice.policy_number,
		type: (invoice.type as IDataObject | undefined)?.name ?? null,
		status: invoice.status,
		filed: invoice.filed,
		state: (invoice.state as IDataObject | undefined)?.code ?? null,
		net_premium: invoice.net_premium,
		fees_total: feesTotal(invoice.fees),
		warnings: Array.isArray(invoice.warnings) ? invoice.warnings : [],
	};
}

/** One output item's json; `_replayed` / `_recovered` appear only when true. */
export function invoiceJson(
	invoice: IDataObject,
	simplify: boolean,
	marks: FilingMarks = {},
): IDataObject {
	const json = simplify ? simplifyInvoice(invoice) : invoiceWithoutLinks(withUtcTimes(invoice));
	if (marks.replayed) json._replayed = true;
	if (marks.recovered) json._recovered = true;
	return json;
}
