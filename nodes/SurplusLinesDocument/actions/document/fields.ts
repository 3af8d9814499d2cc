import type { INodeProperties } from 'n8n-workflow';

import { invoiceIdProperty } from '../../../shared/descriptions';

export const invoiceField: INodeProperties = invoiceIdProperty({
	description: 'The invoice the document belongs to',
});

/** How the user names a document: their docUUID (default) or the service's numeric id. */
export const referenceFields: INodeProperties[] = [
	{
		displayName: 'Reference Type',
		name: 'referenceType',
		type: 'options',
		default: 'docUUID',
		options: [
			{
				name: 'Your Document UUID',
				value: 'docUUID',
				description:
					'The reference from your document store, as sent when attaching (external_doc_uuid). An all-digit docUUID costs one extra call: it is found in the invoice’s document list, because the service reads all-digit values as its own ID. A docUUID that starts with a dot or holds /, \\ or % is refused, since a server could read it as another path: use the Service Document ID for such a document.',
			},
			{
				name: 'Service Document ID',
				value: 'id',
				description: 'The service’s numeric document ID (the "ID" field of a document)',
			},
		],
	},
	{
		displayName: 'Document',
		name: 'document',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 6f1c2a7e-dec-page',
		description: 'The docUUID or the service document ID, as chosen in Reference Type',
	},
];
