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
import * as account from './actions/account/Account.resource';
import * as company from './actions/company/Company.resource';
import * as referenceData from './actions/referenceData/ReferenceData.resource';
import { resources } from './actions/resources';

export class SurplusLinesReference implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Surplus Lines Reference',
		name: 'surplusLinesReference',
		icon: {
			light: 'file:../../icons/surplusLines.svg',
			dark: 'file:../../icons/surplusLines.dark.svg',
		},
		group: ['transform'],
		subtitle: operationSubtitle,
		description:
			'Check the Surplus Lines API key and read the service’s reference lists: states, fee and document types, lines of business, coverages, companies',
		defaults: { name: 'Surplus Lines Reference' },
		usableAsTool: true,
		...actionNodeBase,
		properties: [
			resourceProperty(
				[
					{ name: 'Account', value: 'account' },
					{ name: 'Company', value: 'company' },
					{ name: 'Reference Data', value: 'referenceData' },
				],
				'referenceData',
			),
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
