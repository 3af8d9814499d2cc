import type { INodeProperties } from 'n8n-workflow';

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
];
