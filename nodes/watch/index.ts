/**
 * The watch list (Look for Changes, Rows to Record).
 *
 * Enters: the run (its service: `get`, `keyBudget`), the watch list's rows as a Data table gives
 * them (rowState.ts reads them), the look's settings (LookSettings, read by the operation) and a
 * policy pager. Leaves: one result per invoice read (its new state, whether it changed, its
 * events) and the look's summary (what was read, what waits, the budget).
 */
export { lookAtRows } from './look';
export type { LookSettings, PolicyPager, RowResult } from './look';
export { readWatchRow } from './rowState';
