/**
 * The look before filing: which of a policy's transactions a row is compared with, and what this
 * n8n process remembers of the look that follows a change of key derivation.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { earlierKeysMayLive, filedUnderEarlierKey, keyDerivationSince } from './idempotency';
import { policyBook } from './policyBook';
import { getServiceCredential } from '../../shared/credentials';
import { serviceTimeToUtc } from '../../shared/dates';

/** Which of a policy's transactions a row is looked for in before it is filed. */
export interface LookFirstScope {
	keep: (transactions: IDataObject[]) => IDataObject[];
	/** Set for the look after the key-derivation change: rows stored before it count. */
	since?: number;
}

const EVERY_ROW: LookFirstScope = { keep: (transactions) => transactions };

const storedAtMs = (invoice: IDataObject): number | undefined => {
	const utc = serviceTimeToUtc(invoice.created);
	return utc === undefined ? undefined : Date.parse(utc);
};

function workflowStaticData(ctx: IExecuteFunctions): IDataObject | undefined {
	try {
		return ctx.getWorkflowStaticData('global');
	} catch {
		return undefined;
	}
}

/**
 * Where a row with a derived key is looked for before it is filed: on an account without keys,
 * among all its policy's transactions; on one that replays by key, while a key derived by an
 * earlier release may still be replayed (idempotency.ts), among the rows stored before this
 * release took over; otherwise nowhere (the key replays).
 */
export function lookFirstScope(
	ctx: IExecuteFunctions,
	keysHonoured: boolean,
	keyDerived: boolean,
): LookFirstScope | undefined {
	if (!keysHonoured) return EVERY_ROW;
	if (!keyDerived) return undefined;
	const since = keyDerivationSince(workflowStaticData(ctx));
	if (!earlierKeysMayLive(since)) return undefined;
	return {
		since,
		keep: (transactions) =>
			transactions.filter((invoice) => filedUnderEarlierKey(storedAtMs(invoice), since)),
	};
}

/**
 * Policies the look after the key-derivation change found holding no transaction stored before
 * `since`, per account and `since`. A row stored before a past moment cannot appear later, so
 * that answer holds for the rest of the day: a later run of the same rows in this process (the
 * next hour, once a key's calls were spent on the look; another webhook execution) skips those
 * listings. Only this empty answer is kept; a policy that showed such a row is read again.
 */
const nothingEarlier = new Set<string>();
const NOTHING_EARLIER_MOST = 200_000;

/** Tests: another sandbox is another service, where this memory does not hold. */
export function forgetEarlierLooks(): void {
	nothingEarlier.clear();
}

/** The transactions of the policy that `scope` compares a row with. */
export async function transactionsToCompare(
	ctx: IExecuteFunctions,
	scope: LookFirstScope,
	policyNumber: string,
	itemIndex: number,
): Promise<IDataObject[]> {
	const book = policyBook(ctx);
	if (scope.since === undefined) {
		return scope.keep(await book.transactions(policyNumber, itemIndex));
	}
	const { baseUrl, fingerprint } = await getServiceCredential(ctx, itemIndex);
	const memo = [baseUrl, fingerprint, scope.since, policyNumber].join('\u0000');
	if (nothingEarlier.has(memo)) return [];
	const kept = scope.keep(await book.transactions(policyNumber, itemIndex));
	if (!kept.length) {
		if (nothingEarlier.size >= NOTHING_EARLIER_MOST) nothingEarlier.clear();
		nothingEarlier.add(memo);
	}
	return kept;
}
