import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as createMany from './createMany.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as preview from './preview.operation';
import * as update from './update.operation';

export { create, createMany, del as delete, get, getAll, preview, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		default: 'create',
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create an invoice',
				description: 'File a policy transaction (needs a t2 key)',
			},
			{
				name: 'Create Many',
				value: 'createMany',
				action: 'Create many invoices',
				description:
					'File every input item: batches of 500 with a t3 key, one call per item with t2',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete an invoice',
				description: 'Delete an invoice the state has not accepted (needs t2)',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get an invoice',
				description: 'Read an invoice with its status, documents and filing',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many invoices',
				description: 'List a policy’s transactions, oldest first',
			},
			{
				name: 'Preview',
				value: 'preview',
				action: 'Preview an invoice',
				description: 'Check an invoice and compute its taxes without storing it',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update an invoice',
				description: 'Change fields of an invoice the state has not accepted (needs t2)',
			},
		],
	},
	...create.description,
	...createMany.description,
	...preview.description,
	...get.description,
	...getAll.description,
	...update.description,
	...del.description,
];
