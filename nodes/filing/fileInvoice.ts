/**
 * Filing one invoice without ever filing it twice.
 *
 * Before filing, on every account, the row is looked for among its policy's transactions: a row
 * already there (by the package's mark, or the same filing) is returned as already filed. Keys
 * cannot protect an account without the idempotency feature, and protect one with it for 24
 * hours only: a re-run after a crash, an unsure first run or a day would file every row again.
 *
 * The first POST is sent with `retry: false`: the transport would otherwise resend a POST that
 * carries an Idempotency-Key after a lost reply, which is only safe on accounts that honour the
 * key. After an unknown outcome (lost reply, timeout, 5xx):
 * - the account honours keys and a key was sent: resend with the same key (the service replays
 *   or files once);
 * - otherwise: list the policy's transactions and look for the same filing (sameFiling.ts: every
 *   field the listing shows); a match is the first attempt, else the invoice is sent once more
 *   and its item says so (`sent_again`, with the policy to check).
 *   After a timeout the service may still be storing the first attempt: the listing waits, and
 *   looks again at the end of Max Wait for a Lost Create before the invoice is sent again.
 *
 * Enters: the run (its service, its listings: policies.ts), a row's canonical body, its key and
 * the filing settings. Leaves: what was filed or found (Filed), or an error that says whether
 * anything may have been filed.
 */
import type { IDataObject } from 'n8n-workflow';

import { localError, readErrorInfo, serviceError } from '../shared/errors';
import type { Run } from '../shared/run';
import { CREATED_TRUNCATION_MS, FEATURES } from '../shared/service';
import { serviceTimeToUtc } from '../shared/dates';
import { isOutcomeUnknown, type ApiReply } from '../shared/transport';
import { clock } from '../shared/timing';
import type { FilingSettings, LookAlike, ReplayedView } from './options';
import { isDerivedMark } from './mark';
import { policiesOf } from './policies';
import { FOUND_DESPITE_REPLY, describesRow, isReplyNotTheRow, replyNotTheRow } from './replyMatch';
import {
	compareWithStored,
	comparedNote,
	sameSentFiling,
	type ComparedField,
	type Comparison,
} from './sameFiling';

/**
 * What happened to a row, in the one `outcome` field of its item:
 * - `filed`: filed by this run;
 * - `replayed`: the service returned an earlier filing for the same Idempotency-Key;
 * - `already_filed`: found among its policy's transactions, not filed again;
 * - `sent_again`: filed by this run after an earlier attempt's outcome stayed unknown and the
 *   account could not tell; the policy may hold it twice (the item's note names the policy).
 */
export type FilingOutcome = 'filed' | 'replayed' | 'already_filed' | 'sent_again';

export interface Filed {
	invoice: IDataObject;
	outcome: FilingOutcome;
	/** The service replayed an earlier create for the same key (kept as `_replayed`). */
	replayed: boolean;
	/** After a lost reply, found among the policy's transactions (kept as `_recovered`). */
	recovered: boolean;
	/** A plain sentence for the item (`outcomeNote`). */
	note?: string;
	/** Found on the policy instead of filed: what decided it was this row (`outcomeCompared`). */
	compared?: Comparison;
	/**
	 * What recognised an earlier filing as the row's (`recognisedBy`): `mark <number>` (the
	 * invoice number the row is filed with), `idempotency key` (the service replayed it), `forms`
	 * (every field compared), `look-alike taken as filed` (Options → Look-Alike on the Policy).
	 */
	recognisedBy?: string;
}

/** The recognition an idempotent replay gives. */
export const BY_KEY = 'idempotency key';

const CREATE_HINTS: Record<string, string> = {
	FORBIDDEN: 'Creating invoices needs a t2 (Standard) key or higher.',
};

/** A stored transaction that is the row's filing, and what the rule compared to say so. */
export interface SameTransaction {
	invoice: IDataObject;
	comparison: Comparison;
}

/**
 * The earliest of the policy's transactions that is this row's filing (sameFiling.ts, the one
 * rule; earliest, so look-alike rows of a re-run meet their filings in the order they were
 * filed), else the latest the rule cannot tell from it (`comparison.answer` says which).
 * `known`: fields the caller already knows are the row's (the 409 on a derived key). `usable`:
 * which transactions may be the row's (not one another row of the run took, not one stored
 * before a lost attempt began).
 */
export function findSameTransaction(
	invoices: IDataObject[],
	body: IDataObject,
	known: readonly ComparedField[] = [],
	usable: (invoice: IDataObject) => boolean = () => true,
): SameTransaction | undefined {
	let same: SameTransaction | undefined;
	let alike: SameTransaction | undefined;
	for (const invoice of invoices) {
		if (!usable(invoice)) continue;
		const comparison = compareWithStored(invoice, body, known);
		const id = Number(invoice.id);
		const later = (than?: SameTransaction) => !than || id > Number(than.invoice.id);
		if (comparison.answer === 'same' && (!same || id < Number(same.invoice.id)))
			same = { invoice, comparison };
		if (comparison.answer === 'cannotTell' && later(alike)) alike = { invoice, comparison };
	}
	return same ?? alike;
}

/** Only a transaction the rule calls the same (never a look-alike). */
export function findSame(
	invoices: IDataObject[],
	body: IDataObject,
	known: readonly ComparedField[] = [],
	usable?: (invoice: IDataObject) => boolean,
): SameTransaction | undefined {
	const found = findSameTransaction(invoices, body, known, usable);
	return found?.comparison.same ? found : undefined;
}

const differencesText = (comparison: Comparison) =>
	comparison.differences
		.map((d) => `${d.field} (${d.row} in the row, ${d.stored} stored)`)
		.join(', ');

/**
 * A stored transaction the rule cannot tell from the row (`cannotTell`), settled by the run's
 * Look-Alike setting: refused naming it (thrown), taken as filed, or undefined: file the row,
 * with `lookAlikeNote` for its item.
 */
export function settleLookAlike(
	run: Pick<Run, 'getNode'>,
	found: SameTransaction,
	lookAlike: LookAlike,
	policyNumber: string,
	itemIndex: number,
): Filed | undefined {
	const id = String(found.invoice.id);
	const differs = differencesText(found.comparison);
	if (lookAlike === 'takeAsFiled')
		return alreadyFiled(
			found.invoice,
			`Taken as filed (Options → Look-Alike on the Policy): invoice ${id} on policy ${policyNumber} agrees in all that tells transactions apart but differs in ${differs}.`,
			found.comparison,
		);
	if (lookAlike === 'file') return undefined;
	throw localError(
		run,
		'LOOK_ALIKE_ON_POLICY',
		`Invoice ${id} on policy ${policyNumber} may be this row's filing: it agrees in all that tells transactions apart, but differs in ${differs}`,
		{
			itemIndex,
			fields: found.comparison.differs,
			description: `Nothing was filed for this row. ${lookAlikeAdvice(id, found.invoice)} ${comparedNote(found.comparison)}`,
		},
	);
}

/**
 * What to do about a look-alike. One carrying a mark the package derived is the package's filing
 * of this row as the sheet was (the row changed since): correcting it is the answer, and filing
 * the row again would file it twice, so File Anyway is not offered.
 */
function lookAlikeAdvice(id: string, invoice: IDataObject): string {
	if (isDerivedMark(invoice.invoice_number))
		return `Invoice ${id} carries the package's mark: it is this row's filing as the sheet was when it was filed, and the row has changed since. Correct it rather than file the row again: Invoice → Correct Filings over this sheet shows the change (an Update while the state has not accepted the invoice, else a cancellation and the row filed again) and sends it when asked.`;
	return `Look at invoice ${id} (Get): if it is this transaction (entered by hand, or changed since), set Options → Look-Alike on the Policy to Take It as Filed, or correct the row to match it; if it is another transaction, give the row what keeps them apart (its own invoice number) or set the option to File Anyway.`;
}

/** The note a row filed beside a look-alike gets (Look-Alike: File Anyway). */
export const lookAlikeNote = (found: SameTransaction) =>
	`Filed beside invoice ${String(found.invoice.id)}, which agrees in all that tells transactions apart but differs in ${differencesText(found.comparison)} (Options → Look-Alike on the Policy: File Anyway).`;

/** Adds the kept invoice's id to the message of a 422 from an account that keeps rejected invoices. */
export function noteKeptInvoice(error: unknown): unknown {
	const kept = readErrorInfo(error)?.extra?.keptInvoiceId;
	const described = error as { description?: string | null };
	if (kept !== undefined && described && typeof described === 'object') {
		described.description =
			`${described.description ?? ''}\nThe service kept the rejected invoice as ID ${String(kept)} (keptInvoiceId); a corrected create with the same policy number, type and effective date replaces it.`.trim();
	}
	return error;
}

function filed(reply: ApiReply<unknown>, recovered = false): Filed {
	return {
		invoice: reply.data as IDataObject,
		outcome: reply.replayed ? 'replayed' : 'filed',
		replayed: reply.replayed,
		recovered,
		...(reply.replayed ? { recognisedBy: BY_KEY } : {}),
	};
}

/** A row found on its policy instead of filed (again): the note says why, and what was compared. */
export function alreadyFiled(invoice: IDataObject, why: string, compared?: Comparison): Filed {
	const note = compared ? `${why} ${comparedNote(compared)}` : why;
	const recognisedBy = compared
		? (compared.recognisedBy ?? 'look-alike taken as filed')
		: undefined;
	return { invoice, outcome: 'already_filed', replayed: false, recovered: false, note, compared, recognisedBy };
}

/** A lost reply's first attempt, found on the policy: filed by this run. */
export function recoveredFromPolicy(found: SameTransaction): Filed {
	return {
		invoice: found.invoice,
		outcome: 'filed',
		replayed: false,
		recovered: true,
		note: `The first reply was lost; the invoice was found among the policy's transactions, so it was not sent again. ${comparedNote(found.comparison)}`,
		compared: found.comparison,
		recognisedBy: found.comparison.recognisedBy,
	};
}

/** A row filed after an earlier attempt's outcome stayed unknown on an account that cannot tell. */
export function markSentAgain(result: Filed, policyNumber: string, lookedSeconds: number): Filed {
	if (result.outcome !== 'filed') return result;
	return {
		...result,
		outcome: 'sent_again',
		note: `An earlier attempt got no usable reply and was not found on policy ${policyNumber}${lookedSeconds > 0 ? ` within ${lookedSeconds} s` : ''}, so the invoice was sent again. If the service stored the earlier attempt later, policy ${policyNumber} holds it twice: check its transactions (Get Many).`,
	};
}

/**
 * A replay of a resend made after this run's own attempt got no usable reply: the invoice was
 * (almost surely) stored by that attempt, so it counts as filed now, and the item says how.
 */
export function recoveredByKey(result: Filed): Filed {
	if (result.outcome !== 'replayed') return result;
	return {
		...result,
		outcome: 'filed',
		recovered: true,
		recognisedBy: BY_KEY,
		note: 'The first reply was lost; sent again with the same Idempotency-Key, the service returned the invoice it had stored instead of filing it twice.',
	};
}

export const FOUND_ON_POLICY = (policyNumber: string) =>
	`Found among the transactions of policy ${policyNumber} (the same filing: every field compared matches), so it was not filed again. Shown as the service lists it now.`;

/** The service answered the request itself with a refusal (not a 408/429/5xx): nothing was stored by it. */
function isRefusal(error: unknown): boolean {
	const status = readErrorInfo(error)?.httpStatus ?? 0;
	return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** The request failed before any connection was made, so the service received nothing (the transport says so). */
export function isNothingSent(error: unknown): boolean {
	return readErrorInfo(error)?.notSent === true;
}

// Errors this module raised knowing that nothing was filed, or that something may have been
// (whatever the code of the failure inside them says).
const NOTHING_FILED = new WeakSet<object>();
const MAYBE_FILED = new WeakSet<object>();

/** An error that may have left a filed invoice behind (not one raised knowing nothing was filed). */
export function mayHaveFiled(error: unknown): boolean {
	if (error && typeof error === 'object') {
		if (NOTHING_FILED.has(error)) return false;
		if (MAYBE_FILED.has(error)) return true;
	}
	return isOutcomeUnknown(error) && !isNothingSent(error);
}

/** The service's error, reworded to say that nothing was filed and why. */
export function nothingFiled(
	run: Pick<Run, 'getNode'>,
	error: unknown,
	options: { itemIndex: number; why: string; hint: string },
) {
	const info = readErrorInfo(error) ?? {
		code: 'REQUEST_FAILED',
		message: (error as Error)?.message ?? String(error),
	};
	const mapped = serviceError(
		run,
		{ ...info, message: `${options.why}, so nothing was filed: ${info.message}` },
		{ itemIndex: options.itemIndex, hint: options.hint },
	);
	NOTHING_FILED.add(mapped);
	return mapped;
}

/** The error for a create whose connection was refused: it says plainly that nothing was filed. */
export function nothingSentError(run: Pick<Run, 'getNode'>, error: unknown, itemIndex: number) {
	return nothingFiled(run, error, {
		itemIndex,
		why: 'nothing reached the service (the connection was never made)',
		hint: 'Check that the Base URL in the credential is right and the service is reachable, then run again: nothing was filed, so running again is safe.',
	});
}

/**
 * A failure after an earlier attempt's outcome was unknown: whatever failed now (a resend, the
 * account check, the policy listing), the first attempt may have been stored, and the message
 * must say so; a plain "try again" would invite filing the invoice twice.
 */
export function outcomeUnknown(
	run: Pick<Run, 'getNode'>,
	error: unknown,
	options: { itemIndex: number; hint: string },
) {
	const info = readErrorInfo(error) ?? {
		code: 'REQUEST_FAILED',
		message: (error as Error)?.message ?? String(error),
	};
	const mapped = serviceError(
		run,
		{ ...info, message: `outcome unknown, the invoice may have been filed: ${info.message}` },
		options,
	);
	MAYBE_FILED.add(mapped);
	return mapped;
}

/** Longest wait before the first look for a timed-out first attempt. */
const TIMEOUT_SETTLE_CAP_MS = 10_000;

/** The wait before the first look after a timeout: the request's own timeout, at most 10 s. */
export function settleDelayMs(timeoutSeconds: number): number {
	return Math.min(timeoutSeconds * 1000, TIMEOUT_SETTLE_CAP_MS);
}

/**
 * The waits before each look after a timeout: the first after min(Timeout, 10 s), the last at
 * Max Wait for a Lost Create (one look when that comes first).
 */
export function lookSchedule(timeoutSeconds: number, maxWaitSeconds: number): number[] {
	const totalMs = Math.max(0, maxWaitSeconds * 1000);
	const firstMs = Math.min(settleDelayMs(timeoutSeconds), totalMs);
	return totalMs > firstMs ? [firstMs, totalMs - firstMs] : [firstMs];
}

/**
 * Looks for what a request with an unknown outcome stored, when the account cannot replay it. A
 * timed-out request reached the service and may still be being stored: looking at once would
 * miss it and a resend would file it twice. So after a timeout this waits, looks, and if `look`
 * did not find everything, waits until Max Wait for a Lost Create and looks once more. Other
 * unknown outcomes (a dropped connection, a 5xx) keep the one look at once. `look` is told
 * whether it is the last look, so it can file again what that look does not find.
 */
export async function lookAfterUnknownOutcome<T>(
	run: Run,
	options: { itemIndex: number; timedOut: boolean; maxWaitSeconds: number },
	look: (last: boolean) => Promise<T>,
	foundAll: (result: T) => boolean,
): Promise<T> {
	if (!options.timedOut) return await look(true);
	const waits = lookSchedule(
		run.service.settings(options.itemIndex).timeoutSeconds,
		options.maxWaitSeconds,
	);
	let result: T | undefined;
	for (let n = 0; n < waits.length; n++) {
		if (waits[n] > 0) await clock.sleep(waits[n]);
		const last = n === waits.length - 1;
		result = await look(last);
		if (!last && foundAll(result)) break;
	}
	return result as T;
}

/** Seconds looked for a lost create before it is sent again (0 after a dropped connection or 5xx). */
export function lookedSeconds(timedOut: boolean, maxWaitSeconds: number): number {
	return timedOut ? maxWaitSeconds : 0;
}

/** The request failed with the transport's TIMEOUT code (not a gateway 504 or a dropped reply). */
export function isTimeout(error: unknown): boolean {
	return readErrorInfo(error)?.code === 'TIMEOUT';
}

/**
 * When an attempt to file began (on n8n's clock: only durations are measured on it), and the
 * policies the run listed before it, empty or not, with the transactions it saw there.
 */
export interface Attempt {
	startedMs: number;
	/** Ids the run saw on the policies it listed before the attempt (`listedPolicies`). */
	seenIds: ReadonlySet<string>;
	listedPolicies: ReadonlySet<string>;
}

export const attemptFrom = (seen: IDataObject[] = [], listed: Iterable<string> = []): Attempt => ({
	startedMs: clock.now(),
	seenIds: new Set(seen.map((invoice) => String(invoice.id))),
	listedPolicies: new Set([...listed, ...seen.map((invoice) => String(invoice.policy_number))]),
});

/** A policy's transactions as listed after an attempt, with the service's clock at the listing. */
export interface Listing {
	invoices: IDataObject[];
	/** `meta.timestamp` of the listing's reply, and n8n's clock when it came. */
	serviceTime?: string;
	receivedMs?: number;
}

export async function listPolicy(
	run: Run,
	policyNumber: string,
	itemIndex: number,
): Promise<Listing> {
	const { invoices, serviceTime, receivedMs } = await policiesOf(run).wholeListing({
		policyNumber,
		itemIndex,
	});
	return { invoices, serviceTime, receivedMs };
}

/**
 * When the attempt began on the service's own clock: the listing's `meta.timestamp` less the
 * time n8n measured from the attempt's start to the listing's reply (one clock, so no offset
 * between the two clocks enters it). Undefined without a readable `meta.timestamp`.
 */
function attemptStartOnServiceClock(attempt: Attempt, listing: Listing): number | undefined {
	const serviceMs = listing.serviceTime ? Date.parse(listing.serviceTime) : NaN;
	if (!Number.isFinite(serviceMs) || listing.receivedMs === undefined) return undefined;
	return serviceMs - Math.max(0, listing.receivedMs - attempt.startedMs);
}

/**
 * Whether a transaction may be what an attempt stored: on a policy listed before the attempt,
 * any transaction that was not there (the rule then decides, by the mark first); elsewhere, one
 * the service created after the attempt began as the service's own clock tells it
 * (CREATED_TRUNCATION_MS in nodes/shared/service.ts). With no service time, or a transaction
 * without a readable `created`, nothing unlisted is taken as the attempt's.
 */
export function storedDuring(
	attempt: Attempt,
	listing: Listing,
): (invoice: IDataObject) => boolean {
	const startMs = attemptStartOnServiceClock(attempt, listing);
	return (invoice) => {
		if (attempt.listedPolicies.has(String(invoice.policy_number)))
			return !attempt.seenIds.has(String(invoice.id));
		const utc = serviceTimeToUtc(invoice.created);
		if (!utc || startMs === undefined) return false;
		return Date.parse(utc) >= startMs - CREATED_TRUNCATION_MS;
	};
}

/** The first attempt among the policy's transactions (see lookAfterUnknownOutcome): the same filing, stored since it began. */
async function findFirstAttempt(
	run: Run,
	body: IDataObject,
	options: { itemIndex: number; timedOut: boolean; maxWaitSeconds: number; attempt: Attempt },
): Promise<SameTransaction | undefined> {
	const policyNumber = String(body.policy_number);
	const { itemIndex } = options;
	return await lookAfterUnknownOutcome(
		run,
		options,
		async () => {
			const listing = await listPolicy(run, policyNumber, itemIndex);
			return findSame(listing.invoices, body, [], storedDuring(options.attempt, listing));
		},
		(found) => found !== undefined,
	);
}

interface FileOptions {
	idempotencyKey?: string;
	/** The key was derived by the node (not the user's own): a 409 on it means an earlier filing. */
	keyDerived?: boolean;
	itemIndex: number;
	settings: FilingSettings;
	/** The policy's transactions the run read before this row's attempt (the look first). */
	seen?: IDataObject[];
	/** The policies the run listed before this row's attempt, empty or not. */
	listed?: string[];
}

/** Whether the account replays creates by key (asked once per execution). */
export async function honoursKeys(run: Run, itemIndex: number): Promise<boolean> {
	return (await run.service.me(itemIndex)).features.includes(FEATURES.idempotency);
}

/**
 * A 409 on a key the node derived: the key was used within 24 hours with a different body. The
 * node derives the key from the invoice as the user gave it (Bill Taxes From Preview adds the tax
 * lines after), so this is the same invoice filed earlier with other tax lines: return that
 * filing. The key proves every field but the tax lines, which the rule leaves out here.
 * Undefined when the policy does not show it.
 */
export async function findConflictingFiling(
	run: Run,
	body: IDataObject,
	itemIndex: number,
): Promise<Filed | undefined> {
	const policyNumber = String(body.policy_number);
	// The look first, where one was made, read the policy before that filing was stored.
	const found = findSame(await policiesOf(run).book.reread(policyNumber, itemIndex), body, [
		'tax_lines',
	]);
	if (!found) return undefined;
	return alreadyFiled(
		found.invoice,
		`This invoice was filed earlier with the same derived Idempotency-Key but a different body (for example tax lines from a newer preview), so it was not filed again. ${FOUND_ON_POLICY(policyNumber)} Tax lines were not compared: the key covers the invoice without them.`,
		found.comparison,
	);
}

/** Files one invoice: looks first on its policy, then sends and settles an unknown outcome. */
export async function fileInvoice(
	run: Run,
	body: IDataObject,
	options: FileOptions,
): Promise<Filed> {
	const { settings, itemIndex } = options;
	// Idempotency Off means "file every run": nothing is looked for.
	if (!settings.lookFirst || options.idempotencyKey === undefined) {
		return await sendAndSettle(run, body, options);
	}
	// Every account is looked at first: a key replays a row filed in the last 24 hours only
	// (KEY_REPLAY_WINDOW_HOURS in service.ts), so a re-run after that is stopped by the mark alone.
	const { book } = policiesOf(run);
	const policyNumber = String(body.policy_number);
	return await book.exclusive(policyNumber, async () => {
		let transactions: IDataObject[];
		try {
			transactions = await book.transactions(policyNumber, itemIndex);
		} catch (error) {
			throw lookFirstFailed(run, error, policyNumber, itemIndex);
		}
		const found = findSameTransaction(transactions, body, [], book.usableFor(body));
		if (found?.comparison.same) {
			book.claim(found.invoice, body);
			return alreadyFiled(found.invoice, FOUND_ON_POLICY(policyNumber), found.comparison);
		}
		if (found) {
			const taken = settleLookAlike(run, found, settings.lookAlike, policyNumber, itemIndex);
			if (taken) {
				book.claim(found.invoice, body);
				return taken;
			}
		}
		const unsure = book.doubted(policyNumber).some((earlier) => sameSentFiling(earlier, body));
		let result: Filed;
		try {
			result = await sendAndSettle(run, body, {
				...options,
				seen: transactions.slice(),
				listed: [policyNumber],
			});
		} catch (error) {
			// The policy may now hold this row: what the run read of it is no longer the truth.
			throw book.doubtAfter(error, mayHaveFiled(error), policyNumber, body);
		}
		await book.record(policyNumber, result.invoice);
		book.claim(result.invoice, body);
		if (found) result = { ...result, note: [result.note, lookAlikeNote(found)].filter(Boolean).join(' ') };
		return unsure ? markSentAgain(result, policyNumber, 0) : result;
	});
}

/** The policy could not be read before filing: nothing was filed. */
export function lookFirstFailed(
	run: Pick<Run, 'getNode'>,
	error: unknown,
	policyNumber: string,
	itemIndex: number,
) {
	return nothingFiled(run, error, {
		itemIndex,
		why: `the transactions of policy ${policyNumber} could not be read before filing`,
		hint: 'Run this item again later: nothing was filed. Switching off Options → Look for Rows Already Filed would file without looking, a second time if the row was filed before.',
	});
}

async function sendAndSettle(
	run: Run,
	body: IDataObject,
	options: FileOptions,
): Promise<Filed> {
	const { itemIndex, idempotencyKey, settings } = options;
	const send = async (retry: boolean) => {
		const reply = await run.service.create({
			body,
			idempotencyKey,
			retry,
			itemIndex,
			errorHints: CREATE_HINTS,
		});
		if (!describesRow(reply.data, body)) throw replyNotTheRow(run, reply, body, itemIndex);
		return reply;
	};
	let timedOut = false;
	const attempt = attemptFrom(options.seen, options.listed);
	try {
		run.learned.policies?.book?.countFiling();
		return filed(await send(false));
	} catch (error) {
		if (isNothingSent(error)) throw nothingSentError(run, error, itemIndex);
		if (isReplyNotTheRow(error)) {
			// Never the row's filing: its policy's listing tells whether the row was stored.
			MAYBE_FILED.add(error);
			const found = await findFirstAttempt(run, body, {
				itemIndex,
				timedOut: false,
				maxWaitSeconds: 0,
				attempt,
			}).catch(() => undefined);
			if (found) {
				const note = `${FOUND_DESPITE_REPLY(error)} ${comparedNote(found.comparison)}`;
				return { ...recoveredFromPolicy(found), note };
			}
		}
		if (options.keyDerived && readErrorInfo(error)?.httpStatus === 409) {
			const earlier = await findConflictingFiling(run, body, itemIndex).catch(() => undefined);
			if (earlier) return earlier;
		}
		if (!isOutcomeUnknown(error)) throw noteKeptInvoice(error);
		timedOut = isTimeout(error);
	}

	// From here on the first attempt may have been stored. Only the service refusing a resend is
	// a definite answer (a stored first attempt would have been replayed or found instead).
	let resent = false;
	const resend = async (retry: boolean) => {
		resent = true;
		return filed(await send(retry));
	};
	const policyNumber = String(body.policy_number);
	let keyed = false;
	try {
		if (idempotencyKey !== undefined && (await honoursKeys(run, itemIndex))) {
			// The key makes the resend safe: a stored first attempt comes back as a replay.
			keyed = true;
			return recoveredByKey(await resend(true));
		}
		const maxWaitSeconds = settings.lostCreateWaitSeconds;
		const existing = await findFirstAttempt(run, body, {
			itemIndex,
			timedOut,
			maxWaitSeconds,
			attempt,
		});
		if (existing) return recoveredFromPolicy(existing);
		return markSentAgain(
			await resend(false),
			policyNumber,
			lookedSeconds(timedOut, maxWaitSeconds),
		);
	} catch (error) {
		// The resend is the last step: a refusal of it means neither attempt was stored.
		if (resent && isRefusal(error)) throw noteKeptInvoice(error);
		throw outcomeUnknown(run, error, {
			itemIndex,
			hint: keyed
				? 'The invoice may have been filed. Running this item again unchanged within 24 hours is safe: it sends the same Idempotency-Key, so the service returns the filed invoice instead of filing it twice.'
				: `The reply was lost and the invoice could not be confirmed. The invoice may have been filed: check the transactions of policy ${policyNumber} (Get Many) before running this item again.`,
		});
	}
}

const firstReplyNote = (invoice: IDataObject) =>
	`The service returned the reply of the first filing (created ${String(invoice.created ?? 'earlier')}, US Central): status and filing are as they were then. Get the invoice for its status now.`;

/**
 * A replayed invoice is the first filing's reply, which may be old: read it again (one call) or
 * say plainly what it is. Other outcomes pass unchanged.
 */
export async function showReplayed(
	run: Run,
	result: Filed,
	view: ReplayedView,
	itemIndex: number,
): Promise<Filed> {
	if (result.outcome !== 'replayed') return result;
	const id = result.invoice.id;
	if (view === 'firstReply' || id === undefined || id === null) {
		return { ...result, note: firstReplyNote(result.invoice) };
	}
	try {
		const reply = await run.service.get(id as string | number, itemIndex);
		return {
			...result,
			invoice: reply.data as IDataObject,
			note: 'The service returned the first filing for this Idempotency-Key; the invoice was read again and shows its status now.',
		};
	} catch (error) {
		const why = readErrorInfo(error)?.message ?? (error as Error)?.message;
		return {
			...result,
			note: `${firstReplyNote(result.invoice)} (Reading it again failed: ${String(why)}.)`,
		};
	}
}
