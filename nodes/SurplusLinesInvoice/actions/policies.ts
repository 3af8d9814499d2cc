/**
 * The listings the filing stage reads (filing/policies.ts), built by the operations that file over
 * the listing's page reader (shared/invoiceSource.ts): the run's policy book (the look before
 * filing, with the key's budget) and a policy's whole listing.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { PolicyBook } from '../../filing/policyBook';
import { wholeListing } from '../../shared/invoiceList';
import { invoiceSource, lookBudget } from '../../shared/invoiceSource';
import type { Run } from '../../shared/run';

/** Gives the run its listings, once (every item of the run shares one book). */
export function givePolicies(ctx: IExecuteFunctions, run: Run): void {
	const source = invoiceSource(ctx);
	run.learned.policies ??= {
		book: new PolicyBook(source, lookBudget(ctx)),
		wholeListing: async (options) => await wholeListing(source, options),
	};
}
