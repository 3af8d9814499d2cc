/**
 * Taxes: the preview, Bill Taxes From Preview's tax lines, the sheet's own tax check.
 *
 * Enters: the run (its service: `preview`, `estimate`, `me`), a row's body and how it was read
 * (InvoiceInput: the sheet's tax figures), and the operation's tax settings (TaxCheckSettings;
 * Create Many: CreateManyTaxSettings). Leaves: the body with the computed tax lines, the
 * comparison with the sheet's figures (`_taxCheck`, warnings in the run), or a refusal before
 * anything is filed; for Create Many, every row's taxes at batch cost and the run's hint.
 */
export { billTaxesFromPreview, billTaxLines, previewInvoice } from './preview';
export { applyTaxCheck, hasSheetTaxes } from './sheetCheck';
export type { TaxCheckSettings } from './sheetCheck';
export { taxesForEntries, billTaxes } from './createManyTaxes';
export type { CreateManyTaxSettings } from './createManyTaxes';
export { filedTaxWarning, markTaxWarning, previewTaxWarning } from './taxLines';
