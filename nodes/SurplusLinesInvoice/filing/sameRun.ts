/**
 * Identical rows in one Create Many batch run, on an account without keys. Each row is looked for
 * on its policy before the batch is sent, and an identical row later in the same run is not there
 * yet, so both would be filed. Where keys exist both rows derive one key and the service files
 * the invoice once; here the later row is set aside and gets the first row's result.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { readErrorInfo, localError } from '../../shared/errors';
import { canonicalJson } from './canonical';
import type { Entry, Outcome } from './batch';
import { alreadyFiled } from './fileInvoice';
import { filingBucket, sameSentFiling } from './sameFiling';

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
	ctx: IExecuteFunctions,
	repeats: Map<number, number>,
	outcomes: Map<number, Outcome>,
): void {
	for (const [index, first] of repeats) {
		const row = first + 1;
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
			error: localError(ctx, 'SAME_AS_EARLIER_ROW', message, {
				itemIndex: index,
				description: `This row was not sent: it is the same invoice as row ${row}, and sending it would have filed it twice had row ${row} been filed. Fix row ${row} and run again.`,
			}),
		});
	}
}
