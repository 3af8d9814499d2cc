/**
 * A row on its way to the service and what became of it: shared by the batch filing and the
 * rules for rows of one run (sameRun.ts), which both read them.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Filed } from './fileInvoice';

export interface Entry {
	/** Input item index. */
	index: number;
	body: IDataObject;
	/** The row's Idempotency-Key (undefined: Idempotency Off). */
	key?: string;
	/** The key was derived by the node from the row. */
	keyDerived: boolean;
}

export type Outcome = { index: number; filed: Filed } | { index: number; error: Error };
