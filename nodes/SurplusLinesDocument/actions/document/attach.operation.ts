import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { inputError } from '../../../shared/errors';
import { readInvoiceId } from '../../../shared/params';
import { DOCUMENT_MIME_TYPES } from '../../../shared/rules';
import { PATHS } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';
import { zodIssueLines } from '../../../shared/zodIssues';
import { documentJson } from '../../../shared/links';
import { attachInput } from '../../validation';
import { invoiceField } from './fields';

const properties: INodeProperties[] = [
	invoiceField,
	{
		displayName: 'Document UUID',
		name: 'docUUID',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 6f1c2a7e-dec-page',
		description:
			'The document’s reference in your own document store (at most 256 characters; not starting with a dot, without /, \\ or %, which a server could read as another path). Attaching the same docUUID again updates the reference instead of adding a second one.',
	},
	{
		displayName: 'Document Type Name or ID',
		name: 'documentType',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getDocumentTypes' },
		required: true,
		default: '',
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		hint: 'Types described as "Goes to the state" are sent with the filing; others are kept for the operator. A custom type (letters, digits, _ or -, at most 50 characters) can be given as an expression.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'filename',
				type: 'string',
				default: '',
				description:
					'Name to show for the file (at most 255 characters); the service uses the stored file’s name once fetched',
			},
			{
				displayName: 'MIME Type',
				name: 'mimeType',
				type: 'options',
				default: 'application/pdf',
				options: DOCUMENT_MIME_TYPES.map((type) => ({ name: type, value: type })),
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['attach'] } },
	properties,
);

/** PUT is safe to repeat: 201 when the docUUID is new on the invoice, 200 when it was updated. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const invoiceId = readInvoiceId(this, itemIndex);
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	// As given (text trimmed): the schema refuses an object or a list by name.
	const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
	const raw = {
		type: trimmed(this.getNodeParameter('documentType', itemIndex)),
		docUUID: trimmed(this.getNodeParameter('docUUID', itemIndex)),
		filename: extra.filename,
		mime_type: extra.mimeType,
	};
	const parsed = attachInput.safeParse(raw);
	if (!parsed.success) {
		const labels = {
			type: 'Document Type',
			docUUID: 'docUUID',
			filename: 'File Name',
			mime_type: 'MIME Type',
		};
		throw inputError(this, zodIssueLines(parsed.error, raw, labels), { itemIndex });
	}
	requireTier(
		this,
		await getServiceCredential(this, itemIndex),
		't2',
		'Attach Document',
		itemIndex,
	);

	const { docUUID, ...body } = parsed.data;
	const reply = await apiRequest.call(this, {
		method: 'PUT',
		path: PATHS.document(invoiceId, docUUID),
		body: body as IDataObject,
		itemIndex,
	});
	const created = reply.statusCode === 201;
	return [
		{
			json: {
				...documentJson(reply.data as IDataObject),
				outcome: created ? 'created' : 'updated',
				created,
			},
		},
	];
}
