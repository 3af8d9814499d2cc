/**
 * The listings the filing stage reads (filing/policies.ts), built over n8n's context by the
 * operations that file. Until branch h-57 lands, policyBook.ts and invoiceList.ts take the
 * context; then this builds them over the run's service instead.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { policyBook } from '../../filing/policyBook';
import { readWholeListing } from '../../shared/invoiceList';
import type { Run } from '../../shared/run';

/** Gives the run its listings, once (every item of the run shares one book). */
export function givePolicies(ctx: IExecuteFunctions, run: Run): void {
	run.learned.policies ??= {
		book: policyBook(ctx),
		wholeListing: async (options) => await readWholeListing(ctx, options),
	};
}
