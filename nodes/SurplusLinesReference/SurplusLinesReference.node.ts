import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptionsProperty } from '../shared/descriptions';
import { routeOperations } from '../shared/execute';
import * as account from './actions/account/Account.resource';
import * as company from './actions/company/Company.resource';
import * as referenceData from './actions/referenceData/ReferenceData.resource';
import { resources } from './actions/resources';

// The description is written out here (not imported) so that n8n's lint rules can read the icon,
// subtitle and usableAsTool from the node class.
export class SurplusLinesReference implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Surplus Lines Reference',
		name: 'surplusLinesReference',
		icon: { light: 'file:../../icons/surplusLines.svg', dark: 'file:../../icons/surplusLines.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Check the Surplus Lines API key and read the service’s reference lists: states, fee and document types, lines of business, coverages, companies',
		defaults: { name: 'Surplus Lines Reference' },
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
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'Company', value: 'company' },
					{ name: 'Reference Data', value: 'referenceData' },
				],
				default: 'referenceData',
			},
			...account.description,
			...referenceData.description,
			...company.description,
			requestOptionsProperty,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperations.call(this, resources);
	}
}
