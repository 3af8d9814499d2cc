/**
 * Reconcile Sheet's answers: each row of the sheet against the invoices listed for it, and the
 * listed invoices no row accounts for. A row is recognised first by the mark the package writes
 * on each filing (filing/mark.ts: an exact match, then its fields compared to say whether it is
 * as the sheet says); the rest by the one rule of filing (filing/sameFiling.ts through
 * findSameTransaction), so what this calls "filed as the sheet says" a re-run of Create calls
 * "already filed", and what this calls "not filed" Create files.
 */
import type { IDataObject } from 'n8n-workflow';

import { filingOf } from '../shared/invoiceState';
import { findSameTransaction } from '../filing/fileInvoice';
import { referenceForm } from '../filing/formRules';
import { isDerivedMark, sameMark } from '../filing/mark';
import { compareMarkedWithStored, compareWithStored, sameSentFiling } from '../filing/sameFiling';
import { correctionOf } from './corrections';
import { actionNeeded } from './nextSteps';
import { differencesInSheetWords, differencesText, type SheetDifference } from './sheetWords';

export const ANSWERS = {
	filed: 'filed as the sheet says',
	differently: 'filed differently',
	notFiled: 'not filed',
	cannotTell: 'cannot tell',
	refused: 'refused',
	/** A report's blank, total or repeated-header row, or a charge row gathered into another row's filing. */
	notATransaction: 'not a transaction',
	notRead: 'not read yet',
	notOnSheet: 'on the service, not on the sheet',
} as const;
export type Answer = (typeof ANSWERS)[keyof typeof ANSWERS];

/** One row as the sheet reader read it. */
export interface SheetRow {
	index: number;
	/** The sheet's own row number. */
	row: number;
	policy?: string;
	/** Check Sheet's reasons for a refused row. */
	reasons?: string[];
	/** How the sheet reader read a row that is no transaction of its own (body/sheetRead.ts). */
	asRead?: IDataObject;
	/** The canonical create body (as Create compares it) and the row's mark. */
	body?: IDataObject;
	mark?: string;
	/** Body field path → sheet column (Map Columns). */
	sources?: Record<string, string>;
	/** The input item as read, and each fee's sheet column (the differences' words: sheetWords.ts). */
	cells?: IDataObject;
	feeColumns?: Record<string, string>;
	/** The change date compared as effective_date, as an account without the feature stores it (accountKind.ts). */
	changeDateMoved?: boolean;
}

export interface RowAnswer {
	index: number;
	json: IDataObject;
	/** A "filed differently" row's invoice and the rule's differing fields (for Correct Filings). */
	differently?: { invoice: IDataObject; fields: string[]; differences: SheetDifference[] };
	/** A row whose filing a correction cancelled and that is not filed again yet. */
	cancelled?: IDataObject;
}

/** The policy key rows and listings are grouped by (the rule's form of a reference). */
export const policyKey = (value: unknown): string => referenceForm(value);

/** What the state did with the filing, where the account shows it. */
export function invoiceFacts(invoice: IDataObject): IDataObject {
	const filing = filingOf(invoice);
	return {
		invoice_id: invoice.id ?? null,
		invoice_number: invoice.invoice_number ?? null,
		status: invoice.status ?? null,
		filing_state: filing?.state_status ?? null,
		confirmation_number: filing?.confirmation_number ?? null,
		filing_message: filing?.message ?? null,
		...(actionNeeded(invoice) ?? {}),
	};
}

export interface Reconciled {
	rows: RowAnswer[];
	/** Listed invoices no row accounts for. */
	notOnSheet: IDataObject[];
	/** Of those, each that is the same filing as a row's invoice (a duplicate): id → what it duplicates. */
	duplicates: Map<string, IDataObject>;
}

/**
 * Every row's answer. `listed`: the invoices read, by policy key (a policy absent was not read
 * this run: its rows are "not read yet"). `extra`: invoices listed outside the sheet's policies
 * (a period), which no row can account for.
 */
export function reconcileRows(
	rows: SheetRow[],
	listed: Map<string, IDataObject[]>,
	extra: IDataObject[] = [],
): Reconciled {
	const answers = new Map<number, IDataObject>();
	const differently = new Map<number, NonNullable<RowAnswer['differently']>>();
	// Correcting transactions (corrections.ts) and the invoices they cancelled: the row's, never
	// another row's filing, and never missing from the sheet.
	const everyInvoice = [...listed.values(), extra].flat();
	const cancelledBy = new Map<string, IDataObject[]>();
	for (const invoice of everyInvoice) {
		const of = correctionOf(invoice);
		if (of !== undefined) cancelledBy.set(of, [...(cancelledBy.get(of) ?? []), invoice]);
	}
	const retired = new Set<string>([...cancelledBy.keys(), ...[...cancelledBy.values()].flat().map((i) => String(i.id))]);
	/** Stored invoice id → the body of the row it is taken to be. */
	const claims = new Map<string, IDataObject>();
	const named = new Set<string>();
	const base = (row: SheetRow): IDataObject => ({ row: row.row, policy_number: row.policy ?? null });

	for (const row of rows) {
		if (row.asRead) answers.set(row.index, { ...base(row), answer: ANSWERS.notATransaction, ...row.asRead });
		else if (row.reasons) answers.set(row.index, { ...base(row), answer: ANSWERS.refused, reasons: row.reasons });
		else if (!listed.has(policyKey(row.policy)))
			answers.set(row.index, {
				...base(row),
				answer: ANSWERS.notRead,
				note: 'The hour’s budget ran out before this row’s policy was read: the next run reads it first.',
			});
	}
	const open = rows.filter((row) => !answers.has(row.index));
	const invoicesOf = (row: SheetRow) => listed.get(policyKey(row.policy)) ?? [];
	const byMark = (row: SheetRow) =>
		invoicesOf(row)
			.filter((invoice) => sameMark(row.mark, invoice.invoice_number) && !claims.has(String(invoice.id)) && !retired.has(String(invoice.id)))
			.sort((a, b) => Number(a.id) - Number(b.id));

	// The mark first: an invoice carrying it that is as the sheet says, then any invoice carrying it.
	for (const exact of [true, false]) {
		for (const row of open) {
			if (answers.has(row.index)) continue;
			const body = { ...row.body!, invoice_number: row.mark };
			for (const invoice of byMark(row)) {
				const comparison = compareMarkedWithStored(invoice, body);
				if (exact && !comparison.same) continue;
				claims.set(String(invoice.id), row.body!);
				const differences = differencesInSheetWords(comparison, row, invoice);
				if (!comparison.same) differently.set(row.index, { invoice, fields: comparison.differs, differences });
				answers.set(row.index, {
					...base(row),
					answer: comparison.same ? ANSWERS.filed : ANSWERS.differently,
					recognised_by: 'mark',
					...invoiceFacts(invoice),
					...(comparison.same ? {} : { differences: differences as unknown as IDataObject[], note: `Invoice ${String(invoice.id)} carries this row’s mark but differs: ${differencesText(differences)}.` }),
				});
				break;
			}
		}
	}

	// The rest by the rule of filing, in row order, each stored invoice taken by one row (rows
	// that send the same filing share it, as Create's re-run does).
	for (const row of open) {
		if (answers.has(row.index)) continue;
		const body = row.body!;
		const usable = (invoice: IDataObject) => {
			if (retired.has(String(invoice.id))) return false;
			const by = claims.get(String(invoice.id));
			return !by || by === body || sameSentFiling(by, body);
		};
		const invoices = invoicesOf(row);
		const found = findSameTransaction(invoices, body, [], usable);
		if (found?.comparison.same) {
			claims.set(String(found.invoice.id), body);
			answers.set(row.index, {
				...base(row),
				answer: ANSWERS.filed,
				recognised_by: 'forms',
				...invoiceFacts(found.invoice),
			});
			continue;
		}
		if (found) {
			const candidates = invoices
				.filter(usable)
				.map((invoice) => ({ invoice, comparison: compareWithStored(invoice, body) }))
				.filter(({ comparison }) => comparison.answer === 'cannotTell')
				.map(({ invoice, comparison }) => {
					named.add(String(invoice.id));
					return { invoice, ...invoiceFacts(invoice), differences: differencesInSheetWords(comparison, row, invoice) };
				});
			// The package's own filing of this row before the sheet changed (a tax corrected since):
			// its mark is a digest of the row as it was, and no row of the sheet carries it now.
			const before = candidates.length === 1 && isDerivedMark(candidates[0].invoice.invoice_number) ? candidates[0] : undefined;
			if (before) {
				const { invoice } = before;
				// Its mark is the row's as it was: no difference of the sheet's (Correct Filings writes the new one).
				const differences = before.differences.filter((d) => d.field !== 'invoice_number');
				claims.set(String(invoice.id), body);
				differently.set(row.index, { invoice, fields: compareWithStored(invoice, body).differs, differences });
				answers.set(row.index, {
					...base(row),
					answer: ANSWERS.differently,
					recognised_by: 'forms',
					...invoiceFacts(invoice),
					differences: differences as unknown as IDataObject[],
					note: `Invoice ${String(invoice.id)} is the package’s filing of this row as the sheet was when it was filed (it carries the package’s mark, which no row of the sheet carries now, and agrees in all that tells transactions apart): the sheet has changed since in ${differencesText(differences)}. Invoice → Correct Filings makes the service agree with the sheet.`,
				});
				continue;
			}
			answers.set(row.index, {
				...base(row),
				answer: ANSWERS.cannotTell,
				candidates: candidates.map((c) => Object.fromEntries(Object.entries(c).filter(([key]) => key !== 'invoice'))) as unknown as IDataObject[],
				note: `Invoices ${candidates.map((c) => String(c.invoice.id)).join(', ')} agree with this row in all that tells transactions apart but differ in: ${candidates.map((c) => differencesText(c.differences)).join(' | ')}. Create would refuse this row (Options → Look-Alike on the Policy decides).`,
			});
			continue;
		}
		answers.set(row.index, {
			...base(row),
			answer: ANSWERS.notFiled,
			note: `No invoice of policy ${row.policy ?? ''} carries this row’s mark or is this filing: Create would file it.`,
		});
	}

	// A refused row is still a row of the sheet: the invoices of its policy no other row took may
	// be its filing, so they are named on it, not listed as on the service and not on the sheet.
	for (const row of rows) {
		if (!row.reasons || row.policy === undefined || !listed.has(policyKey(row.policy))) continue;
		const open = invoicesOf(row).filter((invoice) => !claims.has(String(invoice.id)));
		if (!open.length) continue;
		for (const invoice of open) named.add(String(invoice.id));
		const json = answers.get(row.index)!;
		json.service_invoices = open.map((invoice) => invoiceFacts(invoice));
		json.note = `Refused by the sheet’s own rules, so not compared: the service holds ${open.length === 1 ? 'invoice' : 'invoices'} ${open.map((i) => String(i.id)).join(', ')} of policy ${row.policy} that no other row accounts for, which may be this row’s filing. Correct the row as its reasons say and run again.`;
	}

	// A cancelled filing carrying a row's mark, and its cancellation, are that row's.
	const cancelled = new Map<number, IDataObject>();
	for (const [id, corrections] of cancelledBy) {
		const invoice = everyInvoice.find((i) => String(i.id) === id);
		const row = invoice && rows.find((r) => r.mark && answers.get(r.index)?.answer !== ANSWERS.refused && sameMark(r.mark, invoice.invoice_number) && policyKey(r.policy) === policyKey(invoice.policy_number));
		if (!invoice || !row) continue;
		for (const i of [invoice, ...corrections]) named.add(String(i.id));
		const json = answers.get(row.index)!;
		json.corrected = [...((json.corrected as IDataObject[]) ?? []), { invoice_id: invoice.id ?? null, cancelled_by: corrections.map((c) => c.id ?? null) }];
		if (json.answer === ANSWERS.notFiled) {
			cancelled.set(row.index, invoice);
			json.note = `Invoice ${id}, this row’s filing, was cancelled by a correction (invoice ${corrections.map((c) => String(c.id)).join(', ')}) and the row is not filed again yet: Invoice → Correct Filings files it as the sheet says.`;
		}
	}

	const accounted = (invoice: IDataObject) => claims.has(String(invoice.id)) || named.has(String(invoice.id));
	const seen = new Set<string>();
	const notOnSheet = everyInvoice
		.filter((invoice) => {
			const id = String(invoice.id);
			if (seen.has(id) || accounted(invoice)) return false;
			seen.add(id);
			return true;
		})
		.sort((a, b) => Number(a.id) - Number(b.id));
	// An invoice no row accounts for that is the same filing as a row's own: a duplicate to void.
	const duplicates = new Map<string, IDataObject>();
	const filedByPolicy = new Map<string, SheetRow[]>();
	for (const r of rows) {
		if (!r.body || answers.get(r.index)?.invoice_id === undefined) continue;
		const key = policyKey(r.policy);
		if (!filedByPolicy.has(key)) filedByPolicy.set(key, []);
		filedByPolicy.get(key)!.push(r);
	}
	for (const invoice of notOnSheet) {
		const row = filedByPolicy.get(policyKey(invoice.policy_number))?.find((r) => compareWithStored(invoice, r.body!).same);
		if (!row) continue;
		const kept = answers.get(row.index)!;
		duplicates.set(String(invoice.id), {
			duplicate_of: { row: row.row, invoice_id: kept.invoice_id ?? null },
			note: `The same filing as sheet row ${row.row}’s invoice ${String(kept.invoice_id)}: a duplicate. Delete it with Invoice → Delete while the state has not accepted it (status ${String(invoice.status ?? 'unknown')}); once accepted, ask the service’s operator to void it.`,
		});
	}
	return {
		rows: rows.map((row) => ({
			index: row.index,
			json: answers.get(row.index)!,
			...(differently.has(row.index) ? { differently: differently.get(row.index) } : {}),
			...(cancelled.has(row.index) ? { cancelled: cancelled.get(row.index) } : {}),
		})),
		notOnSheet,
		duplicates,
	};
}
