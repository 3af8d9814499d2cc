/**
 * Where an account without the transaction_effective_date feature keeps the date of a change: an
 * endorsement's or cancellation's effective_date is the date of the change there (the policy
 * term's date is not kept). Create sends a change that way (adapt.ts), and Reconcile Sheet reads
 * a stored change that way: one function, so the two never disagree about a legacy account's row.
 */
import type { IDataObject } from 'n8n-workflow';

export const CHANGE_TYPES: ReadonlySet<string> = new Set(['ENDORSEMENT', 'CANCELLATION']);

const text = (v: unknown) => (v === undefined || v === null || v === '' ? '' : String(v).trim());

/**
 * The body as such an account is sent (and stores) it: for a change with a change date, that date
 * as effective_date and no transaction_effective_date; otherwise the body itself. `type`: the
 * transaction's type code, upper case.
 */
export function changeDateAsEffective(body: IDataObject, type: string): IDataObject {
	const date = text(body.transaction_effective_date);
	if (!date || !CHANGE_TYPES.has(type)) return body;
	const moved: IDataObject = { ...body, effective_date: date };
	delete moved.transaction_effective_date;
	return moved;
}
