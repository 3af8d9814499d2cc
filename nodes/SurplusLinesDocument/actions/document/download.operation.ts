import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../../../shared/concurrency';
import { inputError, serviceError } from '../../../shared/errors';
import { readInvoiceId, readTextParameter } from '../../../shared/params';
import { DOWNLOAD_DEFAULT_MAX_MB, PATHS } from '../../../shared/service';
import { apiRequest, readSettings } from '../../../shared/transport';
import { fetchFile } from '../../fetchFile';
import { withoutLink } from '../../../shared/links';
import { documentPathRef } from '../../reference';
import type { Run } from '../../../shared/run';
import { readDocumentReference } from './referenceSettings';
import { invoiceField, referenceFields } from './fields';

const properties: INodeProperties[] = [
	invoiceField,
	...referenceFields,
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Max File Size (MB)',
				name: 'maxFileSizeMb',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DOWNLOAD_DEFAULT_MAX_MB,
				description:
					'A larger file is not downloaded: the item fails saying so. Each file is held in memory while the item runs.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['download'] } },
	properties,
);

/** Each item in flight holds its file in memory: at most 25 at once, whatever the key's budget. */
export const mostInFlight = DEFAULT_CONCURRENCY;

export const onlyReads = true;

/**
 * Asks the service for a fresh link and returns the file as binary data. The link itself is left out
 * of the output: it expires after 60 minutes and must not be stored. Only https links on public
 * hosts are fetched, up to Max File Size (fetchFile.ts).
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: Run,
): Promise<INodeExecutionData[]> {
	const invoiceId = readInvoiceId(this, itemIndex);
	const binaryPropertyName =
		readTextParameter(this, 'binaryPropertyName', itemIndex, 'Put Output File in Field', 'data') ||
		'data';
	const maxFileSizeMb = Number(
		(this.getNodeParameter(
			'options.maxFileSizeMb',
			itemIndex,
			DOWNLOAD_DEFAULT_MAX_MB,
		) as number) ?? DOWNLOAD_DEFAULT_MAX_MB,
	);
	if (!(maxFileSizeMb > 0))
		throw inputError(
			this,
			[`Options → Max File Size (MB): must be above 0 (got ${maxFileSizeMb})`],
			{
				itemIndex,
			},
		);
	const ref = await documentPathRef(
		run,
		readDocumentReference(this, itemIndex),
		itemIndex,
		invoiceId,
	);
	const reply = await apiRequest.call(this, {
		method: 'GET',
		path: PATHS.document(invoiceId, ref),
		itemIndex,
	});
	const doc = reply.data as IDataObject;
	if (doc.fetch_status !== 'fetched' || typeof doc.url !== 'string' || !doc.url) {
		throw serviceError(
			this,
			{
				code: 'DOCUMENT_NOT_FETCHED',
				message: `document ${String(doc.id)} has no file to download yet (fetch_status "${String(doc.fetch_status)}")`,
				requestId: reply.requestId,
			},
			{
				itemIndex,
				hint:
					doc.fetch_status === 'failed'
						? 'The service could not fetch the file from your document store; check the docUUID there, then attach it again.'
						: 'The service has not fetched the file from your document store yet. Put a Wait Until Fetched operation before Download.',
			},
		);
	}
	const { timeoutSeconds } = readSettings(this, itemIndex);
	const bytes = await fetchFile(this, doc.url, {
		itemIndex,
		timeoutSeconds,
		maxBytes: maxFileSizeMb * 1024 * 1024,
	});
	const mimeType = typeof doc.mime_type === 'string' ? doc.mime_type : undefined;
	const binary = await this.helpers.prepareBinaryData(
		bytes,
		String(doc.file_name ?? `document-${String(doc.id)}`),
		mimeType,
	);
	return [
		{
			json: { ...withoutLink(doc), downloaded_bytes: bytes.length },
			binary: { [binaryPropertyName]: binary },
		},
	];
}
