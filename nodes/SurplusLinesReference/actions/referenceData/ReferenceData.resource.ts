import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../../../shared/execute';
import { LISTS, listOperation } from './lists';

export const operations: Record<keyof typeof LISTS, OperationModule> = {
	getStates: { description: [], ...listOperation(LISTS.getStates) },
	getFeeTypes: { description: [], ...listOperation(LISTS.getFeeTypes) },
	getDocumentTypes: { description: [], ...listOperation(LISTS.getDocumentTypes) },
	getLinesOfBusiness: { description: [], ...listOperation(LISTS.getLinesOfBusiness) },
	getCoverages: { description: [], ...listOperation(LISTS.getCoverages) },
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['referenceData'] } },
		default: 'getStates',
		options: [
			{
				name: 'Get Coverages',
				value: 'getCoverages',
				description:
					'Coverage codes and titles (the list does not say which states hold each code)',
				action: 'Get coverages',
			},
			{
				name: 'Get Document Types',
				value: 'getDocumentTypes',
				description: 'Document types, and whether each goes to the state with a filing',
				action: 'Get document types',
			},
			{
				name: 'Get Fee Types',
				value: 'getFeeTypes',
				description: 'Fee and tax codes with their category, where each is accepted and its alias',
				action: 'Get fee types',
			},
			{
				name: 'Get Lines of Business',
				value: 'getLinesOfBusiness',
				description: 'Lines of business with the IDs invoices take',
				action: 'Get lines of business',
			},
			{
				name: 'Get States',
				value: 'getStates',
				description: 'The 50 states and DC, and whether each has direct electronic filing',
				action: 'Get states',
			},
		],
	},
	{
		displayName: 'Accepted By',
		name: 'acceptedBy',
		type: 'options',
		default: 'all',
		displayOptions: { show: { resource: ['referenceData'], operation: ['getFeeTypes'] } },
		options: [
			{ name: 'All Codes', value: 'all' },
			{
				name: 'Calculator',
				value: 'calculator',
				description: 'Codes the calculator takes (no tax codes)',
			},
			{
				name: 'Invoices',
				value: 'invoices',
				description: 'Codes invoices take, tax codes included',
			},
		],
	},
];
