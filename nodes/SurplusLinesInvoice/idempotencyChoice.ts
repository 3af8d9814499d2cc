import type { IExecuteFunctions } from 'n8n-workflow';

import { inputError } from '../shared/errors';
import { idempotencyKeyProblem } from '../shared/idempotency';
import { itemParameter, nodeVersion } from '../shared/params';
import type { IdempotencyChoice } from './filing';

/**
 * The Idempotency setting of item `i`: on the main panel in version 1, in Options from version 2
 * (same names, same meaning). An own key is checked locally (255 characters, no spaces).
 */
export function readIdempotencyChoice(ctx: IExecuteFunctions, i: number): IdempotencyChoice {
	const at = nodeVersion(ctx) >= 2 ? 'options.' : '';
	const mode = itemParameter<string>(ctx, `${at}idempotency`, i, 'derived');
	if (mode === 'off') return { mode: 'off' };
	if (mode !== 'own') return { mode: 'derived' };
	const key = String(ctx.getNodeParameter(`${at}idempotencyKey`, i, '') ?? '');
	const problem = idempotencyKeyProblem(key);
	if (problem) throw inputError(ctx, [problem], { itemIndex: i });
	return { mode: 'own', key };
}
