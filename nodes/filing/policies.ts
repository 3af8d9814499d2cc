/**
 * What the filing stage reads of the service's listings: the run's policy book (what the run
 * read of each policy, policyBook.ts) and a policy's whole listing (shared/invoiceList.ts).
 *
 * The operation builds these over a page reader (actions/policies.ts, shared/invoiceSource.ts) and
 * puts them in the run; the stages here take them from the run and never see the context.
 */
import type { InvoicePages } from '../shared/invoiceList';
import type { Run } from '../shared/run';
import type { PolicyBook } from './policyBook';

export type { PolicyBook };

export interface PolicyListings {
	/** The run's one book of the policies' transactions. */
	book: PolicyBook;
	/** Every transaction of a policy, with the listing's clock; a listing cut short is an error. */
	wholeListing(options: {
		policyNumber: string;
		itemIndex: number;
	}): Promise<InvoicePages>;
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
