import type { DocumentInput, Filing, StoredDocument, StoredInvoice } from './types';
import type { TypeCode } from '../reference/catalog';

const FIRST_INVOICE_ID = 1001;
// Document ids start far from invoice ids and are all-digit, so a docUUID like "abc-123" never collides.
const FIRST_DOCUMENT_ID = 5001;
const FIRST_POLICY_ID = 2001;

export const newFiling = (): Filing => ({
	state_status: 'not_sent',
	updated_at: null,
	confirmation_number: null,
	submission_number: null,
	message: null,
	api_error: null,
});

interface KeptRejection {
	id: number;
	account: string;
	policyNumber: string;
	typeCode: string;
	effectiveDate: string;
}

const listKey = (account: string, policyNumber: string | null) =>
	policyNumber === null ? `${account}\u0000` : `${account}\u0000p${policyNumber}`;

/** The listings an invoice is in: its account's, and its policy's. */
const listKeys = (invoice: StoredInvoice) => [
	listKey(invoice.account, null),
	...(typeof invoice.input.policyNumber === 'string' ? [listKey(invoice.account, invoice.input.policyNumber)] : []),
];

/** Where `id` is, or would go, in a list sorted by id. */
function position(list: StoredInvoice[], id: number): number {
	let low = 0;
	let high = list.length;
	while (low < high) {
		const mid = (low + high) >> 1;
		if (list[mid].id < id) low = mid + 1;
		else high = mid;
	}
	return low;
}

/** Every account's invoices in one map: ids are unique across accounts, reads filter by account. */
export class InvoiceStore {
	private invoices = new Map<number, StoredInvoice>();
	private policyIds = new Map<string, number>();
	private kept: KeptRejection[] = [];
	private nextInvoiceId = FIRST_INVOICE_ID;
	private nextDocumentId = FIRST_DOCUMENT_ID;
	private nextPolicyId = FIRST_POLICY_ID;
	/**
	 * Each account's invoices and each of its policies', sorted by id and kept up to date as
	 * invoices are saved and deleted: an account of 100,000 invoices read 100 a page must not
	 * filter and sort them all for each page.
	 */
	private listed = new Map<string, StoredInvoice[]>();

	allocateInvoiceId(): number {
		return this.nextInvoiceId++;
	}

	/** Transactions of one policy share policy_id; the policy_number links them within an account. */
	policyId(account: string, policyNumber: string, allocate: boolean): number | null {
		const key = `${account}\u0000${policyNumber}`;
		const known = this.policyIds.get(key);
		if (known !== undefined || !allocate) return known ?? null;
		const id = this.nextPolicyId++;
		this.policyIds.set(key, id);
		return id;
	}

	save(invoice: StoredInvoice): void {
		const before = this.invoices.get(invoice.id);
		if (before) this.unlist(before);
		this.invoices.set(invoice.id, invoice);
		for (const key of listKeys(invoice)) {
			const list = this.listed.get(key) ?? [];
			this.listed.set(key, list);
			const at = position(list, invoice.id);
			list.splice(at, 0, invoice);
		}
	}

	private unlist(invoice: StoredInvoice): void {
		for (const key of listKeys(invoice)) {
			const list = this.listed.get(key);
			const at = list ? position(list, invoice.id) : -1;
			if (list && list[at]?.id === invoice.id) list.splice(at, 1);
		}
	}

	get(account: string, id: number): StoredInvoice | undefined {
		const found = this.invoices.get(id);
		return found && found.account === account ? found : undefined;
	}

	/** For control endpoints, which act on any account. */
	getAny(id: number): StoredInvoice | undefined {
		return this.invoices.get(id);
	}

	all(): StoredInvoice[] {
		return [...this.invoices.values()];
	}

	delete(id: number): void {
		const before = this.invoices.get(id);
		if (before) this.unlist(before);
		this.invoices.delete(id);
	}

	/** Oldest first (the store's own list: read it, do not change it). */
	list(account: string, policyNumber: string | null): readonly StoredInvoice[] {
		return this.listed.get(listKey(account, policyNumber)) ?? [];
	}

	/** On accounts that keep rejected invoices: the id given out in the 422, reused by the corrected resend. */
	keepRejected(account: string, policyNumber: string, typeCode: string, effectiveDate: string): number {
		const existing = this.findKept(account, policyNumber, typeCode, effectiveDate, false);
		if (existing !== null) return existing;
		const id = this.allocateInvoiceId();
		this.kept.push({ id, account, policyNumber, typeCode, effectiveDate });
		return id;
	}

	findKept(account: string, policyNumber: string, typeCode: TypeCode | string, effectiveDate: string, take: boolean): number | null {
		const i = this.kept.findIndex(
			(k) => k.account === account && k.policyNumber === policyNumber && k.typeCode === typeCode && k.effectiveDate === effectiveDate,
		);
		if (i < 0) return null;
		const { id } = this.kept[i];
		if (take) this.kept.splice(i, 1);
		return id;
	}

	/** Adds a reference or updates the one with that docUUID; returns whether it was new. */
	upsertDocument(invoice: StoredInvoice, input: DocumentInput, added: string): { doc: StoredDocument; created: boolean } {
		const existing = invoice.documents.find((d) => d.external_doc_uuid === input.docUUID);
		if (existing) {
			existing.doc_type = input.type.toLowerCase();
			if (input.filename !== undefined) existing.file_name = input.filename;
			if (input.mime_type !== undefined) existing.requested_mime_type = input.mime_type;
			return { doc: existing, created: false };
		}
		const doc: StoredDocument = {
			id: this.nextDocumentId++,
			doc_type: input.type.toLowerCase(),
			file_name: input.filename ?? input.docUUID,
			requested_mime_type: input.mime_type ?? null,
			mime_type: null,
			file_size: null,
			is_excluded: false,
			external_doc_uuid: input.docUUID,
			fetch_status: 'pending',
			added,
		};
		invoice.documents.push(doc);
		return { doc, created: true };
	}

	/** Any account's document by service id, for control endpoints and downloads. */
	findDocument(id: number): { invoice: StoredInvoice; doc: StoredDocument } | undefined {
		for (const invoice of this.invoices.values()) {
			const doc = invoice.documents.find((d) => d.id === id);
			if (doc) return { invoice, doc };
		}
		return undefined;
	}
}
