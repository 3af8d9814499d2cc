import { centralTimestamp } from '../clock/time';
import { ApiError, FieldErrorBag, validationError } from '../envelope';
import { findInvoice } from '../invoices/service';
import type { StoredDocument, StoredInvoice } from '../invoices/types';
import { READ, WRITE, type AuthedCall, type Route } from '../router';
import { checkDocument } from './input';
import { documentView } from './view';

/** An all-digit value is the service's id; anything else is the caller's docUUID. */
function findDocument(invoice: StoredInvoice, ref: string): StoredDocument {
	const doc = /^\d+$/.test(ref)
		? invoice.documents.find((d) => d.id === Number(ref))
		: invoice.documents.find((d) => d.external_doc_uuid === ref);
	if (!doc) throw new ApiError('NOT_FOUND', `Document ${ref} not found on invoice ${invoice.id}`);
	return doc;
}

function put(call: AuthedCall): { status: number; data: unknown } {
	const invoice = findInvoice(call.world, call.account, call.params.id);
	const errors = new FieldErrorBag();
	// The path value is always the docUUID here, even when it is all digits.
	const input = checkDocument(call.body, call.params.doc, '', (f, m) => errors.add(f, m));
	if (!input) throw validationError(errors.fields);
	const { doc, created } = call.world.invoices.upsertDocument(invoice, input, centralTimestamp(call.world.now()));
	return { status: created ? 201 : 200, data: documentView(doc, call.world.links) };
}

export const documentRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/invoices/:id/documents',
		handler: (call) => {
			const invoice = findInvoice(call.world, call.account, call.params.id);
			return { status: 200, data: { documents: invoice.documents.map((d) => documentView(d, call.world.links)) } };
		},
		access: READ,
		body: false,
	},
	{ method: 'PUT', pattern: '/invoices/:id/documents/:doc', handler: put, access: WRITE('add documents'), body: true },
	{
		method: 'GET',
		pattern: '/invoices/:id/documents/:doc',
		handler: (call) => {
			const invoice = findInvoice(call.world, call.account, call.params.id);
			return { status: 200, data: documentView(findDocument(invoice, call.params.doc), call.world.links) };
		},
		access: READ,
		body: false,
	},
	{
		method: 'DELETE',
		pattern: '/invoices/:id/documents/:doc',
		handler: (call) => {
			const invoice = findInvoice(call.world, call.account, call.params.id);
			const doc = findDocument(invoice, call.params.doc);
			invoice.documents = invoice.documents.filter((d) => d !== doc);
			return { status: 204 };
		},
		access: WRITE('delete documents'),
		body: false,
	},
];
