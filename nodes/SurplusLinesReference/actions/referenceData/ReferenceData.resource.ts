import type { INodeProperties } from 'n8n-workflow';

import { toolDescriptionProperties } from '../../../shared/toolUse';
import type { OperationModule } from '../../../shared/router';
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
	...toolDescriptionProperties('referenceData', {
		getStates:
			'Lists the 50 US states and DC as the surplus lines service knows them: one entry each with the two-letter code, the name, the service’s numeric id and efile (true when the state takes direct electronic filing; other states’ filings are prepared for the state’s own process). ' +
			'No inputs. Use it to turn a state name into its code or to answer which states e-file. Reads only; safe to call again; each call uses one of the API key’s hourly calls.',
		getFeeTypes:
			'Lists the fee and tax codes the service knows: one entry each with the code, its category (e.g. tax, policy fee, inspection, broker, pass-through), accepted_by (calculator, invoices, or both) and alias_of (another code this one stands for, else null). ' +
			'No inputs. Use it to pick the code for a fee before an estimate or a preview. Reads only; safe to call again; each call uses one of the API key’s hourly calls.',
		getDocumentTypes:
			'Lists the document types an invoice’s documents may have: one entry each with the code, the name and sent_to_state (true when the state receives it with the filing; other types are kept for the operator only). ' +
			'No inputs. Reads only; safe to call again; each call uses one of the API key’s hourly calls.',
		getLinesOfBusiness:
			'Lists the lines of business: one entry each with the numeric id an invoice takes and the name. No inputs. Reads only; safe to call again; each call uses one of the API key’s hourly calls.',
		getCoverages:
			'Lists the coverage codes with their titles. The list does not say which states accept each code. No inputs. Reads only; safe to call again; each call uses one of the API key’s hourly calls.',
	}),
];
