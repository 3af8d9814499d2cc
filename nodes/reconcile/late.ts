/**
 * What is late: each row not filed, and each filing not yet sent (status new) or rejected by the
 * state, gets its state's filing deadline and the days left or overdue (deadlines.ts). A row's
 * filing counts from the transaction's date as the sheet gives it (a change's: the date of the
 * change); an invoice no row accounts for, from the date the service holds.
 */
import type { IDataObject } from 'n8n-workflow';

import { day } from '../filing/formRules';
import { ANSWERS, type RowAnswer, type SheetRow } from './answers';
import { deadlineOf } from './deadlines';
import { REJECTED_STATES } from './nextSteps';

const transactionDay = (source: IDataObject): string | undefined => {
	const value = source.transaction_effective_date ?? source.effective_date;
	return value === undefined || value === null || value === '' ? undefined : day(value);
};

/** Whether an answer's filing still has its deadline ahead of it: not sent yet, or rejected. */
const stillDue = (json: IDataObject) =>
	json.answer === ANSWERS.notFiled ||
	(json.invoice_id !== undefined && json.invoice_id !== null && (json.status === 'new' || REJECTED_STATES.has(String(json.filing_state))));

/** Adds `deadline` to every row answer and invoice that is still due; returns what it added to. */
export function addDeadlines(answers: RowAnswer[], rows: SheetRow[], notOnSheet: Array<{ invoice: IDataObject; json: IDataObject }>, today: string): void {
	const byIndex = new Map(rows.map((row) => [row.index, row]));
	for (const answer of answers) {
		const row = byIndex.get(answer.index);
		if (!row?.body || !stillDue(answer.json)) continue;
		answer.json.deadline = deadlineOf(row.body.state_code, transactionDay(row.body), today);
	}
	for (const { invoice, json } of notOnSheet) {
		if (!stillDue(json)) continue;
		json.deadline = deadlineOf(invoice.state, transactionDay(invoice), today);
	}
}

/**
 * Only what is due within `days` (overdue included), and what carries a deadline the package
 * cannot count (a state whose rule was not found, or sets none in days): it cannot say those are
 * not due.
 */
export function dueWithin(json: IDataObject, days: number): boolean {
	const deadline = json.deadline as IDataObject | undefined;
	if (!deadline) return false;
	return typeof deadline.days_left !== 'number' || deadline.days_left <= days;
}
