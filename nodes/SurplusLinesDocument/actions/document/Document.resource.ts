import type { INodeProperties } from 'n8n-workflow';

import { toolDescriptionProperties } from '../../../shared/toolUse';
import * as attach from './attach.operation';
import * as del from './delete.operation';
import * as download from './download.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as waitUntilFetched from './waitUntilFetched.operation';

export { attach, del as delete, download, get, getAll, waitUntilFetched };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		default: 'attach',
		options: [
			{
				name: 'Attach',
				value: 'attach',
				description: 'Add or update a reference to a file in your document store (safe to repeat)',
				action: 'Attach a document to an invoice',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Remove a document reference from an invoice',
				action: 'Delete a document',
			},
			{
				name: 'Download',
				value: 'download',
				description: 'Get a fresh link and return the file as binary data',
				action: 'Download a document',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a document with a fresh download link (valid 60 minutes)',
				action: 'Get a document',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the documents of an invoice',
				action: 'Get many documents',
			},
			{
				name: 'Wait Until Fetched',
				value: 'waitUntilFetched',
				description:
					'Check the document until the service has fetched its file, or failed to, within a set time',
				action: 'Wait until a document is fetched',
			},
		],
	},
	...attach.description,
	...get.description,
	...getAll.description,
	...del.description,
	...download.description,
	...waitUntilFetched.description,
	...toolDescriptionProperties('document', {
		attach:
			'Attaches a reference to a file held in the user’s document store to an invoice, by the numeric invoice ID; the service then fetches the file itself. ' +
			'Inputs: the invoice ID; your document UUID (at most 256 characters); the document type code (e.g. declaration_page or sl2_form; the document types list gives the codes); optionally a file name. ' +
			'Returns the document with its fetch_status (pending until fetched). Attaching the same UUID again updates it instead of adding a second one, so it is safe to call again. An error names the input at fault.',
		get: 'Reads one document of an invoice: inputs the numeric invoice ID and the document’s reference (your document UUID as attached, or the service’s document ID). Returns its type, file name, fetch_status (pending, fetching, fetched or failed) and file_ready (true when the file can be downloaded); the download link itself is never returned. Reads only.',
		getAll:
			'Lists the documents of an invoice by its numeric invoice ID: type, file name, fetch_status and file_ready of each; no download links. Reads only.',
		download:
			'Downloads a document’s file as binary data for the workflow. An assistant cannot read binary data: use the get tool for the document’s state instead.',
		waitUntilFetched:
			'Checks a document again and again until the service has fetched its file or failed to, up to a set time: inputs the numeric invoice ID and the document’s reference (your document UUID as attached, or the service’s document ID). Returns the document with its final fetch_status. It may take minutes; an assistant should rather call the get tool later.',
		delete:
			'Removes a document reference from an invoice: inputs the numeric invoice ID and the document’s reference (your document UUID as attached, or the service’s document ID). It cannot be undone: call it only when the user asked for it.',
	}),
];
