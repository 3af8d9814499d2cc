import { centralTimestamp } from '../clock/time';
import { ApiError, validationError } from '../envelope';
import type { Account } from '../keys';
import type { World } from '../world';
import { buildParts } from './build';
import { newFiling } from './store';
import type { StoredInvoice } from './types';
import { checkInvoice } from './validate';

type Body = Record<string, unknown>;

function keepRejectedId(world: World, account: Account, body: Body): Record<string, unknown> {
	if (!account.keepsRejected || typeof body.policy_number !== 'string' || body.policy_number === '') return {};
	const id = world.invoices.keepRejected(
		account.id,
		body.policy_number,
		typeof body.type_code === 'string' ? body.type_code : 'NEW',
		typeof body.effective_date === 'string' ? body.effective_date : '',
	);
	return { invoice_id: id };
}

/** Validates and stores one invoice; throws the 422 with every problem. Shared by create and batch. */
export function createInvoice(world: World, account: Account, body: Body): StoredInvoice {
	const { errors, input } = checkInvoice(body, account, world.states);
	if (!input) throw validationError(errors.fields, keepRejectedId(world, account, body));
	const rates = world.state(input.state.code)!.rates;
	const kept = account.keepsRejected
		? world.invoices.findKept(account.id, input.policyNumber, input.typeCode, input.effectiveDate, true)
		: null;
	const now = world.now();
	const invoice: StoredInvoice = {
		id: kept ?? world.invoices.allocateInvoiceId(),
		account: account.id,
		request: { ...body, documents: undefined },
		input,
		policyId: world.invoices.policyId(account.id, input.policyNumber, true)!,
		created: centralTimestamp(now),
		status: 'new',
		filing: newFiling(),
		parts: buildParts(input, account, rates, true),
		documents: [],
	};
	for (const doc of input.documents) world.invoices.upsertDocument(invoice, doc, centralTimestamp(now));
	world.invoices.save(invoice);
	return invoice;
}

function refuseWhenAccepted(invoice: StoredInvoice, action: string): void {
	if (invoice.status === 'success')
		throw new ApiError('CONFLICT', `Invoice ${invoice.id} was accepted by the state (status success) and cannot be ${action}`, {
			invoice_id: invoice.id,
			status: invoice.status,
		});
}

/** Fields sent replace the stored ones, fields left out keep theirs; the whole result is re-checked. */
export function updateInvoice(world: World, account: Account, invoice: StoredInvoice, body: Body): StoredInvoice {
	refuseWhenAccepted(invoice, 'changed');
	const merged = { ...invoice.request, ...body };
	const { errors, input } = checkInvoice(merged, account, world.states);
	if (!input) throw validationError(errors.fields);
	const rates = world.state(input.state.code)!.rates;
	// documents[] on an update adds or updates references, like PUT .../documents/{docUUID}.
	const updated: StoredInvoice = {
		...invoice,
		request: { ...merged, documents: undefined },
		input,
		policyId: world.invoices.policyId(account.id, input.policyNumber, true)!,
		parts: buildParts(input, account, rates, true),
	};
	const added = centralTimestamp(world.now());
	for (const doc of Array.isArray(body.documents) ? input.documents : []) world.invoices.upsertDocument(updated, doc, added);
	world.invoices.save(updated);
	return updated;
}

export function deleteInvoice(world: World, invoice: StoredInvoice): void {
	refuseWhenAccepted(invoice, 'deleted');
	world.invoices.delete(invoice.id);
}

export function findInvoice(world: World, account: Account, rawId: string): StoredInvoice {
	const id = /^\d+$/.test(rawId) ? Number(rawId) : NaN;
	const invoice = Number.isSafeInteger(id) ? world.invoices.get(account.id, id) : undefined;
	// Another account's invoice is indistinguishable from a missing one.
	if (!invoice) throw new ApiError('NOT_FOUND', `Invoice ${rawId} not found`);
	return invoice;
}
