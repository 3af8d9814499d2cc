import type { IExecuteFunctions } from 'n8n-workflow';

import { inputError } from '../shared/errors';
import { idempotencyKeyProblem } from '../shared/idempotency';
import type { IdempotencyChoice } from './filing';

/** The Idempotency parameter of item `i`; an own key is checked locally (255 characters, no spaces). */
export function readIdempotencyChoice(ctx: IExecuteFunctions, i: number): IdempotencyChoice {
	const mode = ctx.getNodeParameter('idempotency', i, 'derived') as string;
	if (mode === 'off') return { mode: 'off' };
	if (mode !== 'own') return { mode: 'derived' };
	const key = String(ctx.getNodeParameter('idempotencyKey', i, '') ?? '');
	const problem = idempotencyKeyProblem(key);
	if (problem) throw inputError(ctx, [problem], { itemIndex: i });
	return { mode: 'own', key };
}
