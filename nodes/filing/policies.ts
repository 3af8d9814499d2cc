/**
 * What the filing stage reads of the service's listings: the run's policy book (what the run
 * read of each policy, policyBook.ts) and a policy's whole listing (shared/invoiceList.ts).
 *
 * Until branch h-57 lands, policyBook.ts and invoiceList.ts take n8n's context, so the operation
 * builds these over it (actions/policies.ts) and puts them in the run; the stages here take them
 * from the run and never see the context. Once they take a list function, the operation builds
 * them over `run.service.list` instead, and nothing here changes.
 */
import type { readWholeListing } from '../shared/invoiceList';
import type { Run } from '../shared/run';
import type { policyBook } from './policyBook';

export type PolicyBook = ReturnType<typeof policyBook>;

export interface PolicyListings {
	/** The run's one book of the policies' transactions. */
	book: PolicyBook;
	/** Every transaction of a policy, with the listing's clock; a listing cut short is an error. */
	wholeListing(options: {
		policyNumber: string;
		itemIndex: number;
	}): ReturnType<typeof readWholeListing>;
}

declare module '../shared/run' {
	interface RunLearned {
		/** The listings the filing stage reads (given by the operation before any row is filed). */
		policies?: PolicyListings;
	}
}

/** The run's listings, as its operation gave them. */
export function policiesOf(run: Pick<Run, 'learned'>): PolicyListings {
	const policies = run.learned.policies;
	if (!policies)
		throw new Error('The operation gave the filing stage no listings (run.learned.policies)');
	return policies;
}
