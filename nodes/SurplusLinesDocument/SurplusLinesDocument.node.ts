import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import {
	actionNodeBase,
	operationSubtitle,
	requestOptionsProperty,
	resourceProperty,
} from '../shared/descriptions';
import { routeOperations } from '../shared/router';
import { listSearch } from '../shared/methods/listSearch';
import { loadOptions } from '../shared/methods/loadOptions';
import * as document from './actions/document/Document.resource';
import { resources } from './actions/resources';

export class SurplusLinesDocument implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Surplus Lines Document',
		name: 'surplusLinesDocument',
		icon: {
			light: 'file:../../icons/surplusLines.svg',
			dark: 'file:../../icons/surplusLines.dark.svg',
		},
		group: ['transform'],
		subtitle: operationSubtitle,
		description:
			'Attach supporting documents to surplus lines invoices, wait until the service has fetched them, and download them',
		defaults: { name: 'Surplus Lines Document' },
		usableAsTool: true,
		...actionNodeBase,
		properties: [
			resourceProperty([{ name: 'Document', value: 'document' }]),
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
