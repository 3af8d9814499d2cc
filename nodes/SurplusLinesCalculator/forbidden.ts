import type { IDataObject } from 'n8n-workflow';

import { readErrorInfo, serviceError } from '../shared/errors';
import type { Run } from '../shared/run';

type Cause = 'missing_scope' | 'calculator_disabled' | 'unknown';

const EXPLAIN: Record<Cause, { text: string; hint: string }> = {
	missing_scope: {
		text: 'this API key does not have the calculator scope',
		hint: 'Ask the operator to add the calculator scope to this key, or to issue a key that has it. The key’s other operations keep working.',
	},
	calculator_disabled: {
		text: 'the calculator is switched off for this key’s account',
		hint: 'Ask the operator to enable the calculator for your account. Another key of the same account will not help while it is off.',
	},
	unknown: {
		text: 'the service did not say whether the key lacks the calculator scope or the account has the calculator switched off',
		hint: 'Ask the operator to check both: the calculator scope on this key, and the calculator being enabled for the account.',
	},
};

/** Reads the cause from the service's message; when unclear, asks GET /auth/me (one extra call). */
async function findCause(
	run: Pick<Run, 'getNode' | 'service'>,
	message: string,
	itemIndex: number,
): Promise<{ cause: Cause; fromMessage: boolean }> {
	if (/scope/i.test(message)) return { cause: 'missing_scope', fromMessage: true };
	if (/not enabled|disabled|switched off/i.test(message))
		return { cause: 'calculator_disabled', fromMessage: true };
	let cause: Cause = 'unknown';
	try {
		const me = await run.service.me(itemIndex);
		if (!me.scopes.includes('calculator')) cause = 'missing_scope';
		else if (me.calculatorEnabled === false) cause = 'calculator_disabled';
	} catch {
		// Only a diagnosis: when it fails, the original 403 is reported with both causes named.
		cause = 'unknown';
	}
	return { cause, fromMessage: false };
}

/**
 * A 403 FORBIDDEN from the calculator becomes an error that says which of the two causes applies
 * and what to ask the operator for. Other errors pass through unchanged.
 */
export async function explainForbidden(
	run: Pick<Run, 'getNode' | 'service'>,
	error: unknown,
	itemIndex: number,
): Promise<unknown> {
	const info = readErrorInfo(error);
	if (info?.code !== 'FORBIDDEN') return error;
	const { cause, fromMessage } = await findCause(run, info.message, itemIndex);
	const extra: IDataObject = { ...(info.extra ?? {}), cause };
	const message = fromMessage ? info.message : `${info.message}: ${EXPLAIN[cause].text}`;
	return serviceError(run, { ...info, message, extra }, { itemIndex, hint: EXPLAIN[cause].hint });
}
