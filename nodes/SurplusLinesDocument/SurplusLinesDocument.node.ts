import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptionsProperty } from '../shared/descriptions';
import { routeOperations } from '../shared/execute';
import { listSearch } from '../shared/methods/listSearch';
import { loadOptions } from '../shared/methods/loadOptions';
import * as document from './actions/document/Document.resource';
import { resources } from './actions/resources';

// The description is written out here (not imported) so that n8n's lint rules can read the icon,
// subtitle and usableAsTool from the node class.
export class SurplusLinesDocument implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Surplus Lines Document',
		name: 'surplusLinesDocument',
		icon: { light: 'file:../../icons/surplusLines.svg', dark: 'file:../../icons/surplusLines.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Attach supporting documents to surplus lines invoices, wait until the service has fetched them, and download them',
		defaults: { name: 'Surplus Lines Document' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'surplusLinesApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Document', value: 'document' }],
				default: 'document',
			},
			...document.description,
			requestOptionsProperty,
		],
	};

	methods = {
		loadOptions: { getDocumentTypes: loadOptions.getDocumentTypes },
		listSearch: { searchInvoices: listSearch.searchInvoices },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperations.call(this, resources);
	}
}
