/**
 * Rows of one run that would file one invoice. A row that derives the key of an earlier row of
 * the run but differs from it in an input column is refused, naming the columns: the service
 * would return the earlier row's invoice for it (`replayed`), and a column the body does not
 * carry (an unused column, or one read to the same value) would be lost in silence.
 *
 * Identical rows in one Create Many batch run. Each row is looked for on its policy before the
 * batch is sent, and an identical row later in the same run is not there yet, so on an account
 * without keys both would be filed (where keys exist, both derive one key and the service would
 * file once): the later row is set aside and gets the first row's result, on every account.
 *
 * Enters: the run (its input items) and each row's key or body, in row order. Leaves: a refusal,
 * or the row recorded in the run (`run.learned.sameRun`) for the rows after it.
 */
import type { IDataObject } from 'n8n-workflow';

import { readErrorInfo, localError } from '../shared/errors';
import type { Run } from '../shared/run';
import { sheetRow } from '../shared/sheetRows';
import { isBlankValue } from '../shared/values';
import { canonicalJson } from './canonical';
import type { Entry, Outcome } from './entry';
import { alreadyFiled } from './fileInvoice';
import type { LookAlike } from './options';
import { filingBucket, sameSentFiling, secondOfTermInRun } from './sameFiling';

// n8n's Google Sheets node adds the sheet's row number to each item: two rows alike but for it
// are the same transaction written twice, filed once as before.
const POSITION_COLUMNS = new Set(['row_number']);

const cell = (value: unknown) =>
	isBlankValue(value) || (typeof value === 'string' && value.trim() === '')
		? ''
		: typeof value === 'string'
			? value.trim()
			: JSON.stringify(value);

/** The input columns whose values differ between two items (blank cells are alike). */
export function differingColumns(a: IDataObject, b: IDataObject): string[] {
	const names = new Set([...Object.keys(a), ...Object.keys(b)]);
	return [...names].filter(
		(name) => !POSITION_COLUMNS.has(name) && cell(a[name]) !== cell(b[name]),
	);
}

const shown = (value: unknown) => (cell(value) === '' ? 'empty' : cell(value));

declare module '../shared/run' {
	interface RunLearned {
		/** The rows of the run checked so far (call in row order, before any filing call). */
		sameRun?: {
			/** The first row of the run under each derived key. */
			firsts: Map<string, number>;
			/** By policy, each row's body (for one New or Renewal per policy term). */
			terms: Map<string, Map<number, IDataObject>>;
		};
	}
}

/** What this stage needs of the run: its items, its node (for errors), what it learned. */
type SameRun = Pick<Run, 'items' | 'getNode' | 'learned' | 'parents' | 'say'>;

const checkedOf = (run: SameRun) =>
	(run.learned.sameRun ??= { firsts: new Map(), terms: new Map() });

/**
 * Refuses row `index` when an earlier row of the run derived the same key from a row whose input
 * columns differ; records it otherwise. Call in row order, before any filing call.
 */
export function refuseSameKeyOtherRow(run: SameRun, key: string | undefined, index: number): void {
	if (key === undefined) return;
	const { firsts } = checkedOf(run);
	const first = firsts.get(key);
	if (first === undefined || first === index) {
		firsts.set(key, index);
		return;
	}
	const items = run.items;
	const earlier = items[first]?.json ?? {};
	const row = items[index]?.json ?? {};
	const differ = differingColumns(earlier, row);
	if (!differ.length) return;
	const listed = differ
		.map(
			(name) => `"${name}" (${shown(earlier[name])} in row ${sheetRow(run, first)}, ${shown(row[name])} here)`,
		)
		.join(', ');
	throw localError(
		run,
		'SAME_INVOICE_AS_EARLIER_ROW',
		`Row ${sheetRow(run, index)} would file the same invoice as row ${sheetRow(run, first)} of this run, but its columns differ: ${listed}`,
		{
			itemIndex: index,
			description: `Nothing was filed for this row. Both rows give the same invoice body, so they derive one Idempotency-Key and the service would return row ${sheetRow(run, first)}'s invoice for this one (replayed): the difference would be lost. If they are two transactions, keep them apart in a field the invoice is filed with (an Invoice Number column, or an Endorsement # / Transaction ID column, which is sent as the invoice number when no Invoice Number column is given); if it is the same transaction written twice, make the rows alike or remove one.`,
		},
	);
}

/** Rows that are the same filing: the same derived key, or the same own key and body. */
function identity(entry: Entry): string | undefined {
	if (entry.key === undefined) return undefined; // Idempotency Off: every row is filed
	return entry.keyDerived ? entry.key : `${entry.key}\n${canonicalJson(entry.body)}`;
}

/** The rows to send, and each later identical row → the input index of its first. */
export function setAsideRepeats(entries: Entry[]): {
	toSend: Entry[];
	repeats: Map<number, number>;
} {
	const firsts = new Map<string, number>();
	const repeats = new Map<number, number>();
	const toSend: Entry[] = [];
	// Rows the one rule of sameFiling.ts calls the same filing, though their keys differ.
	const sent = new Map<string, Entry[]>();
	for (const entry of entries) {
		const id = identity(entry);
		const bucket = filingBucket(entry.body);
		const first =
			id === undefined
				? undefined
				: (firsts.get(id) ??
					sent.get(bucket)?.find((earlier) => sameSentFiling(earlier.body, entry.body))?.index);
		if (first !== undefined) {
			repeats.set(entry.index, first);
			continue;
		}
		if (id !== undefined) {
			firsts.set(id, entry.index);
			const alike = sent.get(bucket);
			if (alike) alike.push(entry);
			else sent.set(bucket, [entry]);
		}
		toSend.push(entry);
	}
	return { toSend, repeats };
}

/** Each repeat's outcome from its first row's: the same invoice, not filed twice; or why not. */
export function settleRepeats(
	run: Pick<Run, 'getNode' | 'items' | 'parents' | 'say'>,
	repeats: Map<number, number>,
	outcomes: Map<number, Outcome>,
): void {
	for (const [index, first] of repeats) {
		const row = sheetRow(run, first);
		const settled = outcomes.get(first);
		if (settled && 'filed' in settled) {
			outcomes.set(index, {
				index,
				filed: alreadyFiled(
					settled.filed.invoice,
					`Identical to row ${row} of this run, which ${settled.filed.outcome === 'already_filed' ? 'found it already filed' : 'filed it'}, so it was not filed twice (on an account with the idempotency feature the service replays such a row).`,
				),
			});
			continue;
		}
		const why = settled ? (readErrorInfo(settled.error)?.message ?? settled.error.message) : '';
		const message = `Identical to row ${row} of this run, which did not come back filed${why ? `: ${why}` : ''}`;
		outcomes.set(index, {
			index,
			error: localError(run, 'SAME_AS_EARLIER_ROW', message, {
				itemIndex: index,
				description: `This row was not sent: it is the same invoice as row ${row}, and sending it would have filed it twice had row ${row} been filed. Fix row ${row} and run again.`,
			}),
		});
	}
}

const policyOf = (body: IDataObject) =>
	String(body.policy_number ?? '')
		.trim()
		.toUpperCase();

/**
 * Refuses row `index` when an earlier row of the run is a New (or Renewal) of the same policy
 * and term that differs from it (another premium or invoice number): two such rows are never
 * filed in silence. Options → Look-Alike on the Policy: File Anyway files both. Call in row
 * order, before any filing call, with the row's body as read.
 */
export function refuseSecondOfTerm(
	run: SameRun,
	body: IDataObject,
	index: number,
	lookAlike: LookAlike,
): void {
	if (lookAlike === 'file') return;
	const byPolicy = checkedOf(run).terms;
	if (!byPolicy.has(policyOf(body))) byPolicy.set(policyOf(body), new Map());
	const rows = byPolicy.get(policyOf(body))!;
	for (const [earlierIndex, earlier] of rows) {
		if (earlierIndex === index) continue;
		const second = secondOfTermInRun(earlier, body);
		if (!second) continue;
		const differs = second.differences
			.filter((d) => d.field !== 'type')
			.map((d) => `${d.field} (${d.row} here, ${d.stored} in row ${sheetRow(run, earlierIndex)})`)
			.join(', ');
		throw localError(
			run,
			'SECOND_OF_TERM_IN_RUN',
			`Row ${sheetRow(run, index)} would be a second ${String(body.type_code ?? 'NEW')} of policy ${String(body.policy_number)} for the same term as row ${sheetRow(run, earlierIndex)} of this run (one per policy term), differing in ${differs}`,
			{
				itemIndex: index,
				description: `Nothing was filed for this row. A policy term has one New (or Renewal): if both rows are right (for example one per insurer group the service does not show), set Options → Look-Alike on the Policy to File Anyway; if one is a correction of the other, keep the right one and remove the other.`,
			},
		);
	}
	rows.set(index, body);
}
