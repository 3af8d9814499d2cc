import type { INodeProperties } from 'n8n-workflow';

import * as search from './search.operation';

export { search };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['company'] } },
		default: 'search',
		options: [
			{
				name: 'Search',
				value: 'search',
				description: 'Find insurance companies by name or NAIC code',
				action: 'Search companies',
			},
		],
	},
	...search.description,
];
