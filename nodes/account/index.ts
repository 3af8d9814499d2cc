/**
 * Adapting a row to the account: the stage between reading a row and deciding it.
 *
 * Enters: the run (its service: `me`, `searchCompanies`, `lobs`), a row as read (InvoiceInput)
 * and the operation's account options (AccountOptions: Unknown Line of Business Name).
 * Leaves: the row as this account needs it sent, with what was adapted and why (`_adapted`), or
 * a refusal before any filing call. The run keeps its look-ups (each asked once) and a failed
 * account check (so later rows fail alike without asking again).
 */
export { adaptToAccount, noteAdaptations } from './adapt';
export type { AccountOptions, Adaptation } from './adapt';
