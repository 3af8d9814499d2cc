import type { INodeProperties } from 'n8n-workflow';

import * as estimate from './estimate.operation';

export { estimate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tax'] } },
		default: 'estimate',
		options: [
			{
				name: 'Estimate',
				value: 'estimate',
				description:
					'Estimate surplus lines taxes and fees for a premium in a state, with the rates in force on a date',
				action: 'Estimate surplus lines taxes',
			},
		],
	},
	...estimate.description,
];
