/**
 * A row as the account stores its filing, before it is compared with the stored invoices: on an
 * account without the transaction_effective_date feature, a change's effective_date is the date
 * of the change (account/changeDate.ts, as Create sends it there). Without this a legacy
 * account's endorsements would be compared with the policy term's date: the package's own come
 * back "filed differently", and those entered by hand "not filed" while Create calls them filed.
 */

import { DEFAULT_TYPE_CODE } from '../shared/rules';
import { FEATURES } from '../shared/service';
import { changeDateAsEffective } from '../account/changeDate';
import type { SheetRow } from './answers';

/** Whether any row gives a change date (only then is the account asked which features it has). */
export const givesChangeDate = (rows: readonly SheetRow[]): boolean =>
	rows.some((row) => row.body && !blankDate(row.body.transaction_effective_date));

const blankDate = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

/** The rows as an account with `features` stores them; rows the account keeps as sent are unchanged. */
export function rowsAsStored(rows: SheetRow[], features: readonly string[]): SheetRow[] {
	if (features.includes(FEATURES.transactionEffectiveDate)) return rows;
	return rows.map((row) => {
		if (!row.body) return row;
		const type = String(row.body.type_code ?? DEFAULT_TYPE_CODE).trim().toUpperCase();
		const body = changeDateAsEffective(row.body, type);
		if (body === row.body) return row;
		// The effective date compared is now the change date: differences name its column.
		const sources = { ...(row.sources ?? {}) };
		if (sources.transaction_effective_date) sources.effective_date = sources.transaction_effective_date;
		delete sources.transaction_effective_date;
		return { ...row, body, sources, changeDateMoved: true };
	});
}
