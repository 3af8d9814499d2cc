import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptionsProperty } from '../shared/descriptions';
import { routeOperations } from '../shared/execute';
import { listSearch } from '../shared/methods/listSearch';
import { loadOptions } from '../shared/methods/loadOptions';
import * as invoice from './actions/invoice/Invoice.resource';
import { resources } from './actions/resources';

// The description is written out here (not imported) so that n8n's lint rules can read the icon,
// subtitle and usableAsTool from the node class.
export class SurplusLinesInvoice implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Surplus Lines Invoice',
		name: 'surplusLinesInvoice',
		icon: { light: 'file:../../icons/surplusLines.svg', dark: 'file:../../icons/surplusLines.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'File surplus lines policy transactions as invoices, preview their taxes, and read, change or delete them',
		defaults: { name: 'Surplus Lines Invoice' },
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
				options: [{ name: 'Invoice', value: 'invoice' }],
				default: 'invoice',
			},
			...invoice.description,
			requestOptionsProperty,
		],
	};

	methods = { loadOptions, listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperations.call(this, resources);
	}
}
