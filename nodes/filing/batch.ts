/**
 * Create Many: files every input item, in calls of at most BATCH_MAX_INVOICES to
 * `POST /invoices/batch` with a t3 key, or one create per item with a t2 key. Each result is
 * paired back to its input item through the batch reply's `index`.
 *
 * Each batch item carries its row's Idempotency-Key as `idempotency_key` (an assumption, see
 * docs/assumptions.md), derived exactly as a single create derives it, so a row filed before, by
 * either operation, comes back replayed. Accounts without the idempotency feature ignore the field: there each row is looked
 * for on its policy first, as a single create does.
 *
 * Enters: the run (its service, its listings), the rows to file (Entry: index, canonical body,
 * key) and the filing settings. Leaves: one Outcome per row, in the rows' order.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldMessages } from '../shared/envelope';
import { readErrorInfo, serviceError } from '../shared/errors';
import type { Run } from '../shared/run';
import { BATCH_MAX_INVOICES, LIST_KEYS, readKeptInvoiceId, readList } from '../shared/service';
import { isOutcomeUnknown, type ApiReply } from '../shared/transport';
import {
	BY_KEY,
	FOUND_ON_POLICY,
	alreadyFiled,
	fileInvoice,
	findConflictingFiling,
	attemptFrom,
	findSame,
	findSameTransaction,
	honoursKeys,
	isNothingSent,
	isTimeout,
	lookAfterUnknownOutcome,
	lookAlikeNote,
	lookFirstFailed,
	lookedSeconds,
	markSentAgain,
	nothingSentError,
	outcomeUnknown,
	recoveredByKey,
	recoveredFromPolicy,
	settleLookAlike,
	listPolicy,
	storedDuring,
	type Attempt,
	type Listing,
} from './fileInvoice';
import { pairBatchResults } from './replyMatch';
import { sameSentFiling } from './sameFiling';
import type { FilingSettings } from './options';
import { policiesOf } from './policies';
import { setAsideRepeats, settleRepeats } from './sameRun';
import type { Entry, Outcome } from './entry';

const fileOptions = (entry: Entry, settings: FilingSettings) => ({
	idempotencyKey: entry.key,
	keyDerived: entry.keyDerived,
	itemIndex: entry.index,
	settings,
});

/** t2: one create per item, each with its own Idempotency-Key, look-first and lost-reply handling. */
export async function fileOneByOne(
	run: Run,
	entries: Entry[],
	settings: FilingSettings,
): Promise<Outcome[]> {
	const outcomes: Outcome[] = [];
	for (const entry of entries) {
		try {
			outcomes.push({
				index: entry.index,
				filed: await fileInvoice(run, entry.body, fileOptions(entry, settings)),
			});
		} catch (error) {
			outcomes.push({ index: entry.index, error: error as Error });
		}
	}
	return outcomes;
}

function resultError(
	run: Run,
	raw: IDataObject | undefined,
	reply: ApiReply<unknown>,
	index: number,
): Error {
	const error = (raw ?? {}) as IDataObject;
	const details = error.details as IDataObject | undefined;
	const kept = readKeptInvoiceId(details);
	const httpStatus =
		error.code === 'VALIDATION_ERROR' ? 422 : error.code === 'CONFLICT' ? 409 : undefined;
	return serviceError(
		run,
		{
			code: typeof error.code === 'string' ? error.code : 'BATCH_ITEM_FAILED',
			message:
				typeof error.message === 'string' ? error.message : 'the service did not file this invoice',
			httpStatus,
			fields: fieldMessages(details),
			requestId: reply.requestId,
			extra: kept === undefined ? undefined : { keptInvoiceId: kept },
		},
		{ itemIndex: index },
	);
}

/**
 * After a lost batch reply on an account that cannot replay by key (or with rows sent without
 * one), nothing says which invoices were stored. Each row is looked up among its policy's
 * transactions first; only a row not found there is filed again, on its own, and marked so.
 * After a timeout the service may still be storing the batch: the looks wait as a timed-out
 * single create does (lookAfterUnknownOutcome), and only rows missing from the last look are
 * filed again.
 */
async function reconcileChunk(
	run: Run,
	chunk: Entry[],
	timedOut: boolean,
	settings: FilingSettings,
	keysHonoured: boolean,
	attempt: Attempt,
): Promise<Outcome[]> {
	const settled = new Map<number, Outcome>();
	// Each row of the lost batch gets its own invoice: one another row took is not this row's,
	// unless the two rows are one filing as sent.
	const taken = new Map<string, IDataObject>();
	const looked = lookedSeconds(timedOut, settings.lostCreateWaitSeconds);
	// A resend here must not look first again: the look just made is fresher.
	const resendSettings = { ...settings, lookFirst: false };
	let open = chunk;
	// One pass over the rows not yet accounted for; each pass lists every policy afresh.
	const look = async (last: boolean): Promise<Entry[]> => {
		const byPolicy = new Map<string, Promise<Listing>>();
		const missing: Entry[] = [];
		for (const entry of open) {
			const policyNumber = String(entry.body.policy_number);
			let listing: Listing;
			try {
				if (!byPolicy.has(policyNumber))
					byPolicy.set(policyNumber, listPolicy(run, policyNumber, entry.index));
				listing = await byPolicy.get(policyNumber)!;
			} catch (error) {
				const hint = `The batch call got no usable reply and the policy's transactions could not be read. The invoice may have been filed: check the transactions of policy ${policyNumber} (Get Many) before running this item again.`;
				settled.set(entry.index, {
					index: entry.index,
					error: outcomeUnknown(run, error, { itemIndex: entry.index, hint }),
				});
				continue;
			}
			const stored = storedDuring(attempt, listing);
			const match = findSame(listing.invoices, entry.body, [], (invoice) => {
				const by = taken.get(String(invoice.id));
				return stored(invoice) && (!by || sameSentFiling(by, entry.body));
			});
			if (match) {
				taken.set(String(match.invoice.id), entry.body);
				settled.set(entry.index, { index: entry.index, filed: recoveredFromPolicy(match) });
			} else if (last) {
				const [outcome] = await fileOneByOne(run, [entry], resendSettings);
				// A resend with a key the account honours is safe; any other is marked.
				const safe = keysHonoured && entry.key !== undefined;
				settled.set(
					entry.index,
					'filed' in outcome && !safe
						? { index: entry.index, filed: markSentAgain(outcome.filed, policyNumber, looked) }
						: outcome,
				);
			} else {
				missing.push(entry);
			}
		}
		open = missing;
		return missing;
	};
	await lookAfterUnknownOutcome(
		run,
		{ itemIndex: chunk[0].index, timedOut, maxWaitSeconds: settings.lostCreateWaitSeconds },
		look,
		(missing) => missing.length === 0,
	);
	return chunk.map((entry) => settled.get(entry.index)!);
}

const batchItem = (entry: Entry): IDataObject =>
	entry.key === undefined ? entry.body : { ...entry.body, idempotency_key: entry.key };

async function sendChunk(run: Run, chunk: Entry[]): Promise<ApiReply<unknown>> {
	// Never resent blindly: on accounts without keys a resend files every row again.
	return await run.service.createBatch(chunk.map(batchItem), chunk[0].index);
}

/**
 * Pairs the batch reply's results to the chunk's rows by what they describe (replyMatch.ts); a
 * row no result is told to be its own is settled through its policy's listing (`settle`). A
 * CONFLICT on a derived key finds the earlier filing.
 */
async function readResults(
	run: Run,
	chunk: Entry[],
	reply: ApiReply<unknown>,
	settle: (unpaired: Entry[]) => Promise<Outcome[]>,
): Promise<Outcome[]> {
	const results = readList(reply.data, LIST_KEYS.batchResults);
	const byPosition = pairBatchResults(
		chunk.map((entry) => entry.body),
		results,
	);
	const unpaired = chunk.filter((_entry, position) => !byPosition.has(position));
	const outcomes: Outcome[] = unpaired.length ? await settle(unpaired) : [];
	for (const [position, entry] of chunk.entries()) {
		if (!byPosition.has(position)) continue;
		const result = byPosition.get(position);
		if (result?.success === true && result.invoice) {
			const replayed = result.replayed === true;
			outcomes.push({
				index: entry.index,
				filed: {
					invoice: result.invoice as IDataObject,
					outcome: replayed ? 'replayed' : 'filed',
					replayed,
					recovered: false,
					...(replayed ? { recognisedBy: BY_KEY } : {}),
				},
			});
			continue;
		}
		const raw = result
			? (result.error as IDataObject | undefined)
			: {
					code: 'BATCH_NO_RESULT',
					message: `the batch reply has no result for this invoice (position ${position})`,
				};
		if (entry.keyDerived && raw?.code === 'CONFLICT') {
			const earlier = await findConflictingFiling(run, entry.body, entry.index).catch(
				() => undefined,
			);
			if (earlier) {
				outcomes.push({ index: entry.index, filed: earlier });
				continue;
			}
		}
		outcomes.push({ index: entry.index, error: resultError(run, raw, reply, entry.index) });
	}
	return outcomes;
}

async function fileChunk(
	run: Run,
	chunk: Entry[],
	settings: FilingSettings,
	seen?: IDataObject[],
	listed?: string[],
): Promise<Outcome[]> {
	let firstError: unknown;
	const attempt = attemptFrom(seen, listed);
	// A row the reply gives no result of its own: stored or not, its policy's listing tells.
	const settleUnpaired = async (unpaired: Entry[]) =>
		await reconcileChunk(run, unpaired, false, settings, false, attempt);
	try {
		return await readResults(run, chunk, await sendChunk(run, chunk), settleUnpaired);
	} catch (error) {
		firstError = error;
	}
	const everyRow = (error: Error) => chunk.map((e) => ({ index: e.index, error }));
	if (isNothingSent(firstError)) return everyRow(nothingSentError(run, firstError, chunk[0].index));
	if (!isOutcomeUnknown(firstError)) return everyRow(firstError as Error);

	// The batch may have been stored, wholly or partly.
	let keysHonoured = false;
	try {
		keysHonoured = await honoursKeys(run, chunk[0].index);
	} catch {
		// Unknown: settle as on an account without keys (look first, mark what is sent again).
	}
	if (keysHonoured && chunk.every((e) => e.key !== undefined)) {
		// Every row carries a key the account honours: sending the same batch again replays what
		// was stored and files only what was not. Should that fail too, each row goes on its own,
		// still with its key (and the single create's retries).
		// A replay now is this run's lost batch, stored: filed now (recoveredByKey).
		let outcomes: Outcome[];
		try {
			outcomes = await readResults(run, chunk, await sendChunk(run, chunk), settleUnpaired);
		} catch {
			outcomes = await fileOneByOne(run, chunk, { ...settings, lookFirst: false });
		}
		return outcomes.map((o) => ('filed' in o ? { ...o, filed: recoveredByKey(o.filed) } : o));
	}
	return await reconcileChunk(run, chunk, isTimeout(firstError), settings, keysHonoured, attempt);
}

/**
 * Every row with a key (Idempotency not Off) is looked for on its policy first (from the
 * account's listing where that is cheaper), as many policies at once as the key's budget allows
 * (the items-in-flight rule of per-item operations): one after another, 10,000 listings at
 * 200 ms would take half an hour.
 * Returns the rows still to file, in their order; the others are settled in `outcomes`.
 */
async function lookFirst(
	run: Run,
	entries: Entry[],
	outcomes: Map<number, Outcome>,
	settings: FilingSettings,
	lookAlikes: Map<number, string>,
): Promise<Entry[]> {
	const { book } = policiesOf(run);
	const looked = entries.filter((entry) => entry.key !== undefined);
	if (looked.length)
		await book.readAccountFor(looked.map((entry) => String(entry.body.policy_number)), looked[0].index);
	const stillToFile: Array<Entry | undefined> = entries.slice();
	const lookFor = async (entry: Entry, position: number): Promise<void> => {
		if (entry.key === undefined) return;
		const policyNumber = String(entry.body.policy_number);
		try {
			const transactions = await book.transactions(policyNumber, entry.index);
			const match = findSameTransaction(transactions, entry.body, [], book.usableFor(entry.body));
			if (!match) return;
			const filed = match.comparison.same
				? alreadyFiled(match.invoice, FOUND_ON_POLICY(policyNumber), match.comparison)
				: settleLookAlike(run, match, settings.lookAlike, policyNumber, entry.index);
			if (!filed) {
				lookAlikes.set(entry.index, lookAlikeNote(match));
				return;
			}
			book.claim(match.invoice, entry.body);
			outcomes.set(entry.index, { index: entry.index, filed });
		} catch (error) {
			outcomes.set(entry.index, {
				index: entry.index,
				error:
					readErrorInfo(error)?.code === 'LOOK_ALIKE_ON_POLICY'
						? (error as Error)
						: lookFirstFailed(run, error, policyNumber, entry.index),
			});
		}
		stillToFile[position] = undefined;
	};
	const limit = await run.service.inFlight();
	const looking = new Set<Promise<void>>();
	for (let position = 0; position < entries.length; position++) {
		while (looking.size >= limit()) await Promise.race(looking);
		const look: Promise<void> = lookFor(entries[position], position).finally(() =>
			looking.delete(look),
		);
		looking.add(look);
	}
	await Promise.all(looking);
	return stillToFile.filter((entry): entry is Entry => entry !== undefined);
}

/**
 * Batch calls in flight at once: the service stores one batch while n8n reads the reply of
 * another, instead of each waiting for the other (a third of a 10,000-row run's time); 10, as a
 * hand-built workflow sends a 5,000-row sheet's 10 batches at once (4 cost two more round trips).
 */
const BATCHES_IN_FLIGHT = 10;

/**
 * t3: the entries in calls of at most BATCH_MAX_INVOICES, up to BATCHES_IN_FLIGHT at once; every
 * chunk is sent whatever earlier chunks gave. A chunk holding a key that a chunk in flight holds
 * (the same row twice) waits for it, so the service replays that row instead of meeting its key
 * twice at once. Takes the rows off `entries` as it files them (the array is left empty), so a
 * filed row's body can be freed while later chunks are sent: at 10,000 rows the bodies weigh as
 * much as the input items.
 */
export async function fileInBatches(
	run: Run,
	entries: Entry[],
	settings: FilingSettings,
): Promise<Outcome[]> {
	const order = entries.map((e) => e.index);
	const outcomes = new Map<number, Outcome>();
	let repeats = new Map<number, number>();
	const lookAlikes = new Map<number, string>();
	// What the look read before sending: after a lost batch reply, none of it is the batch's.
	let seen: IDataObject[] | undefined;
	let listed: string[] | undefined;
	// Every account is looked at first: a key replays a row filed in the last 24 hours only
	// (KEY_REPLAY_WINDOW_HOURS in service.ts), so a re-run after that is stopped by the mark alone.
	if (settings.lookFirst && entries.some((e) => e.key !== undefined)) {
		const toFile = await lookFirst(run, entries, outcomes, settings, lookAlikes);
		seen = policiesOf(run).book.seen();
		listed = policiesOf(run).book.listed();
		const { toSend, repeats: sameAsEarlier } = setAsideRepeats(toFile);
		repeats = sameAsEarlier;
		entries.length = 0;
		for (const entry of toSend) entries.push(entry);
	}
	const inFlight = new Set<Promise<void>>();
	const keysInFlight = new Set<string>();
	let thrown: { error: unknown } | undefined;
	while (entries.length && !thrown) {
		const chunk = entries.splice(0, BATCH_MAX_INVOICES);
		const keys = chunk.flatMap((e) => (e.key === undefined ? [] : [e.key]));
		while (inFlight.size >= BATCHES_IN_FLIGHT || keys.some((key) => keysInFlight.has(key))) {
			await Promise.race(inFlight);
		}
		// A chunk that failed in a way no outcome covers ends the run: no further chunk is sent.
		if (thrown) break;
		for (const key of keys) keysInFlight.add(key);
		run.learned.policies?.book?.countFiling();
		const filing: Promise<void> = fileChunk(run, chunk, settings, seen, listed)
			.then((chunkOutcomes) => {
				for (const outcome of chunkOutcomes) outcomes.set(outcome.index, outcome);
			})
			.catch((error: unknown) => {
				thrown ??= { error };
			})
			.finally(() => {
				inFlight.delete(filing);
				for (const key of keys) keysInFlight.delete(key);
			});
		inFlight.add(filing);
	}
	await Promise.all(inFlight);
	if (thrown) throw thrown.error;
	settleRepeats(run, repeats, outcomes);
	for (const [index, note] of lookAlikes) {
		const outcome = outcomes.get(index);
		if (outcome && 'filed' in outcome)
			outcomes.set(index, {
				index,
				filed: { ...outcome.filed, note: [outcome.filed.note, note].filter(Boolean).join(' ') },
			});
	}
	return order.map((index) => outcomes.get(index)!);
}
