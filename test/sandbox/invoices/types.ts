import type { FeeLine } from '../reference/feeTypes';
import type { BuiltParts } from './build';
import type { Company, Lob, StateRow, TypeCode } from '../reference/catalog';

export type InvoiceStatus = 'new' | 'sent' | 'success' | 'error' | 're-submitted';
export const INVOICE_STATUSES: readonly InvoiceStatus[] = ['new', 'sent', 'success', 'error', 're-submitted'];

export type FilingStatus = 'not_sent' | 'sent' | 'accepted' | 'confirmed' | 'rejected' | 'refused';
export const FILING_STATUSES: readonly FilingStatus[] = ['not_sent', 'sent', 'accepted', 'confirmed', 'rejected', 'refused'];

export type FetchStatus = 'pending' | 'fetching' | 'fetched' | 'failed' | 'none';
export const FETCH_STATUSES: readonly FetchStatus[] = ['pending', 'fetching', 'fetched', 'failed', 'none'];

export interface DocumentInput {
	type: string;
	docUUID: string;
	filename?: string;
	mime_type?: string;
}

export interface CoverageInput {
	code: string;
	title: string | null;
	amount: number;
}

export interface InsurerLine {
	company: Company;
	percent: number | null;
	amount: number | null;
}

/** A request that passed validation, with look-ups done. */
export interface InvoiceInput {
	policyNumber: string;
	insuredName: string;
	state: StateRow;
	netPremium: number;
	effectiveDate: string;
	expirationDate: string;
	typeCode: TypeCode;
	invoiceNumber: string | null;
	invoiceDate: string;
	commission: number | null;
	policyLimit: number | null;
	classCode: string | null;
	notes: string | null;
	lob: Lob | null;
	transactionEffectiveDate: string | null;
	coverages: CoverageInput[];
	insurers: InsurerLine[];
	fees: FeeLine[];
	documents: DocumentInput[];
	insuredAddress: Record<string, unknown> | null;
	/** Warnings found while validating (unknown lob_name), before build adds its own. */
	warnings: string[];
}

export interface Filing {
	state_status: FilingStatus;
	updated_at: string | null;
	confirmation_number: string | null;
	submission_number: string | null;
	message: string | null;
	api_error: string | null;
}

export interface StoredDocument {
	id: number;
	doc_type: string;
	file_name: string;
	/** What the caller said the type is; shown as mime_type only once fetched. */
	requested_mime_type: string | null;
	mime_type: string | null;
	file_size: number | null;
	is_excluded: boolean;
	external_doc_uuid: string | null;
	fetch_status: FetchStatus;
	added: string;
}

export interface StoredInvoice {
	id: number;
	account: string;
	/** The raw request merged over updates, so PUT can re-validate the whole invoice. */
	request: Record<string, unknown>;
	input: InvoiceInput;
	policyId: number;
	created: string;
	status: InvoiceStatus;
	filing: Filing;
	/** Fees as billed, matched coverages, warnings: computed from input at create/update. */
	parts: BuiltParts;
	documents: StoredDocument[];
}
