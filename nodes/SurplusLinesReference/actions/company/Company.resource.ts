import type { INodeProperties } from 'n8n-workflow';

import { toolDescriptionProperties } from '../../../shared/toolUse';
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
	...toolDescriptionProperties('company', {
		search:
			'Finds insurance companies (carriers) by part of their name or by their five-digit NAIC code. ' +
			'Input: the search text, e.g. Specialty or 90001 (at least one character). ' +
			'Returns one entry per company found with the service’s company id (what an invoice’s insurer takes), the name and the NAIC code; an empty result means no match, so try a shorter part of the name. Reads only; safe to call again; each call uses one of the API key’s hourly calls.',
	}),
];
