/**
 * Filing one invoice without ever filing it twice.
 *
 * The first POST is sent with `retry: false`: the transport would otherwise resend a POST that
 * carries an Idempotency-Key after a lost reply, which is only safe on accounts that honour the
 * key. After an unknown outcome (lost reply, timeout, 5xx) the node asks `GET /auth/me` once per
 * execution whether the account has the idempotency feature:
 * - it has, and a key was sent: resend with the same key (the service replays or files once);
 * - otherwise: list the policy's transactions and look for the same type, effective date
 *   (and transaction effective date) and net premium; a match is returned as recovered, else the
 *   invoice is sent once more. After a timeout the service may still be storing the first
 *   attempt, so the listing waits, and looks once more before the invoice is sent again.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { getServiceCredential } from '../shared/credentials';
import { readErrorInfo, serviceError } from '../shared/errors';
import { deriveIdempotencyKey } from '../shared/idempotency';
import { accountInfo } from '../shared/account';
import { FEATURES, PATHS } from '../shared/service';
import { apiRequest, isOutcomeUnknown, readSettings, type ApiReply } from '../shared/transport';
import { listInvoices } from '../shared/invoiceList';
import { clock } from '../shared/timing';

export interface Filed {
	invoice: IDataObject;
	replayed: boolean;
	recovered: boolean;
}

/** Reply `type.name` for each `type_code` (description: New, Renewal, Endorsement or Cancelled). */
const TYPE_NAMES: Record<string, string> = {
	NEW: 'New',
	RENEWAL: 'Renewal',
	ENDORSEMENT: 'Endorsement',
	CANCELLATION: 'Cancelled',
};

export const CREATE_HINTS: Record<string, string> = {
	FORBIDDEN: 'Creating invoices needs a t2 (Standard) key or higher.',
};

export type IdempotencyChoice =
	| { mode: 'derived' }
	| { mode: 'own'; key: string }
	| { mode: 'off' };

export async function idempotencyKeyFor(
	ctx: IExecuteFunctions,
	choice: IdempotencyChoice,
	path: string,
	body: unknown,
	itemIndex: number,
): Promise<string | undefined> {
	if (choice.mode === 'off') return undefined;
	if (choice.mode === 'own') return choice.key;
	const { fingerprint } = await getServiceCredential(ctx, itemIndex);
	return deriveIdempotencyKey(fingerprint, path, body);
}

const cents = (value: unknown) => Math.round(Number(value) * 100);

/** The latest of the policy's transactions that is this one (same type, dates and premium). */
export function findSameTransaction(
	invoices: IDataObject[],
	body: IDataObject,
): IDataObject | undefined {
	const typeName = TYPE_NAMES[String(body.type_code ?? 'NEW')];
	const matches = invoices.filter((invoice) => {
		const type = (invoice.type as IDataObject | undefined)?.name;
		if (type !== typeName || invoice.effective_date !== body.effective_date) return false;
		if (cents(invoice.net_premium) !== cents(body.net_premium)) return false;
		const sentChangeDate = body.transaction_effective_date;
		const storedChangeDate = invoice.transaction_effective_date;
		return (
			sentChangeDate === undefined ||
			storedChangeDate === undefined ||
			sentChangeDate === storedChangeDate
		);
	});
	return matches.sort((a, b) => Number(b.id) - Number(a.id))[0];
}

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
	return { invoice: reply.data as IDataObject, replayed: reply.replayed, recovered };
}

/** The service answered the request itself with a refusal (not a 408/429/5xx): nothing was stored by it. */
function isRefusal(error: unknown): boolean {
	const status = readErrorInfo(error)?.httpStatus ?? 0;
	return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * A failure after an earlier attempt's outcome was unknown: whatever failed now (a resend, the
 * account check, the policy listing), the first attempt may have been stored, and the message
 * must say so; a plain "try again" would invite filing the invoice twice.
 */
export function outcomeUnknown(
	ctx: IExecuteFunctions,
	error: unknown,
	options: { itemIndex: number; hint: string },
) {
	const info = readErrorInfo(error) ?? {
		code: 'REQUEST_FAILED',
		message: (error as Error)?.message ?? String(error),
	};
	return serviceError(
		ctx,
		{ ...info, message: `outcome unknown, the invoice may have been filed: ${info.message}` },
		options,
	);
}

/** Longest wait before each look for a timed-out first attempt. */
const TIMEOUT_SETTLE_CAP_MS = 10_000;

/** The wait before each look after a timeout: the request's own timeout, at most 10 s. */
export function settleDelayMs(timeoutSeconds: number): number {
	return Math.min(timeoutSeconds * 1000, TIMEOUT_SETTLE_CAP_MS);
}

/**
 * Looks for what a request with an unknown outcome stored, when the account cannot replay it. A
 * timed-out request reached the service and may still be being stored: looking at once would
 * miss it and a resend would file it twice. So after a timeout this waits, looks, and if `look`
 * did not find everything, waits and looks once more. Other unknown outcomes (a dropped
 * connection, a 5xx) keep the one look at once. `look` is told whether it is the last look, so
 * it can file again what that look does not find.
 */
export async function lookAfterUnknownOutcome<T>(
	ctx: IExecuteFunctions,
	options: { itemIndex: number; timedOut: boolean },
	look: (last: boolean) => Promise<T>,
	foundAll: (result: T) => boolean,
): Promise<T> {
	if (!options.timedOut) return await look(true);
	const waitMs = settleDelayMs(readSettings(ctx, options.itemIndex).timeoutSeconds);
	await clock.sleep(waitMs);
	const first = await look(false);
	if (foundAll(first)) return first;
	await clock.sleep(waitMs);
	return await look(true);
}

/** The request failed with the transport's TIMEOUT code (not a gateway 504 or a dropped reply). */
export function isTimeout(error: unknown): boolean {
	return readErrorInfo(error)?.code === 'TIMEOUT';
}

/** The first attempt among the policy's transactions (see lookAfterUnknownOutcome). */
async function findFirstAttempt(
	ctx: IExecuteFunctions,
	body: IDataObject,
	options: { itemIndex: number; timedOut: boolean },
): Promise<IDataObject | undefined> {
	const policyNumber = String(body.policy_number);
	const { itemIndex } = options;
	return await lookAfterUnknownOutcome(
		ctx,
		options,
		async () => findSameTransaction(await listInvoices(ctx, { policyNumber, itemIndex }), body),
		(found) => found !== undefined,
	);
}

export async function fileInvoice(
	ctx: IExecuteFunctions,
	body: IDataObject,
	options: { idempotencyKey?: string; itemIndex: number },
): Promise<Filed> {
	const { itemIndex, idempotencyKey } = options;
	const send = async (retry: boolean) =>
		await apiRequest.call(ctx, {
			method: 'POST',
			path: PATHS.invoices,
			body,
			idempotencyKey,
			retry,
			itemIndex,
			errorHints: CREATE_HINTS,
		});
	let timedOut = false;
	try {
		return filed(await send(false));
	} catch (error) {
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
		const account = await accountInfo(ctx, itemIndex);
		if (idempotencyKey !== undefined && account.features.includes(FEATURES.idempotency)) {
			// The key makes the resend safe: a stored first attempt comes back as a replay.
			keyed = true;
			return await resend(true);
		}
		const existing = await findFirstAttempt(ctx, body, { itemIndex, timedOut });
		if (existing) return { invoice: existing, replayed: false, recovered: true };
		return await resend(false);
	} catch (error) {
		// The resend is the last step: a refusal of it means neither attempt was stored.
		if (resent && isRefusal(error)) throw noteKeptInvoice(error);
		throw outcomeUnknown(ctx, error, {
			itemIndex,
			hint: keyed
				? 'The invoice may have been filed. Running this item again unchanged within 24 hours is safe: it sends the same Idempotency-Key, so the service returns the filed invoice instead of filing it twice.'
				: `The reply was lost and the invoice could not be confirmed. The invoice may have been filed: check the transactions of policy ${policyNumber} (Get Many) before running this item again.`,
		});
	}
}
