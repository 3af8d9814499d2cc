import { documentView } from '../documents/view';
import { hasFeature, type Account } from '../keys';
import { INVOICE_TYPES } from '../reference/catalog';
import type { World } from '../world';
import type { BuiltParts } from './build';
import type { InvoiceInput, InvoiceStatus, StoredDocument, StoredInvoice, Filing } from './types';

const FILED: readonly InvoiceStatus[] = ['sent', 'success', 're-submitted'];

interface Shown {
	input: InvoiceInput;
	parts: BuiltParts;
	status: InvoiceStatus;
	created: string;
	policyId: number | null;
	filing: Filing;
	documents: StoredDocument[];
}

/**
 * The invoice in the description's field order. New-features fields appear only on such
 * accounts; `warnings` also appears elsewhere when create has a warning every account gets
 * (unknown class_code, Texas vehicle_crime_fee).
 */
function view(shown: Shown, account: Account, world: World): Record<string, unknown> {
	const { input, parts } = shown;
	const company = input.insurers[0]?.company;
	const out: Record<string, unknown> = {
		policy_number: input.policyNumber,
		invoice_number: input.invoiceNumber,
		invoice_date: input.invoiceDate,
		insured_name: input.insuredName,
		state: { id: input.state.id, code: input.state.code, name: input.state.name },
		type: INVOICE_TYPES[input.typeCode],
		lob: input.lob ? { id: input.lob.id, name: input.lob.name } : null,
		net_premium: input.netPremium,
		commission: input.commission,
		effective_date: input.effectiveDate,
		expiration_date: input.expirationDate,
		status: shown.status,
		filed: FILED.includes(shown.status),
		paid: false,
		created: shown.created,
		company: company ? { id: company.id, name: company.name } : null,
		policy_id: shown.policyId,
		policy_fee: parts.policyFee,
		stamps_fee: parts.stampsFee,
		service_fee: parts.serviceFee,
		notes: input.notes,
		fees: parts.fees.map((f) => ({ type: f.type, amount: f.amount })),
		coverages: parts.coverages.map((c) => ({ code: c.code, title: c.title, amount: c.amount })),
		insurers: input.insurers.map((i) => ({
			company_id: i.company.id,
			name: i.company.name,
			naic: i.company.naic,
			percent: i.percent,
			amount: i.amount,
		})),
		documents: shown.documents.map((d) => documentView(d, world.links)),
	};
	if (account.features.length > 0) {
		if (hasFeature(account, 'transaction_effective_date'))
			out.transaction_effective_date = input.transactionEffectiveDate ?? input.effectiveDate;
		if (hasFeature(account, 'filing')) out.filing = { ...shown.filing };
		out.warnings = [...parts.warnings];
	} else if (parts.warnings.length > 0) out.warnings = [...parts.warnings];
	return out;
}

export function invoiceView(invoice: StoredInvoice, account: Account, world: World): Record<string, unknown> {
	return { id: invoice.id, ...view(invoice, account, world) };
}

/** The invoice preview would store: no id, and policy_id only when the policy already exists. */
export function previewView(shown: Shown, account: Account, world: World): Record<string, unknown> {
	return view(shown, account, world);
}
