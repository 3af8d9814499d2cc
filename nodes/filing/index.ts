/**
 * Deciding each row and filing it exactly once: the stage after the account's.
 *
 * Enters: the run (its service: `create`, `createBatch`, `get`, `me`; its listings, policies.ts),
 * each row as an Entry (its index, canonical body, Idempotency-Key) and the filing settings
 * (FilingSettings, read by the operation). Before any call, in row order: the same-run decisions
 * (sameRun.ts: one key one row, one New per policy term). Then the look for rows already filed,
 * the send (one create, or batches), and the settling of a lost reply (fileInvoice.ts).
 * Leaves: one Outcome per row (filed, replayed, already_filed, sent_again, or an error saying
 * whether anything may have been filed).
 *
 * Inside: canonical.ts and idempotency.ts (the body and its key), mark.ts (what every filing
 * carries), sameFiling.ts (the one rule of "the same transaction"), policyBook.ts (what the run
 * read of each policy), rows.ts (what an item says about its row).
 */
export { fileInvoice, showReplayed, mayHaveFiled } from './fileInvoice';
export type { Filed, FilingOutcome } from './fileInvoice';
export { fileInBatches, fileOneByOne } from './batch';
export { refuseSameKeyOtherRow, refuseSecondOfTerm } from './sameRun';
export type { FilingSettings } from './options';
export type { Entry, Outcome } from './entry';
