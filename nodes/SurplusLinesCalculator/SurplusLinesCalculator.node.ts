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
import { loadOptions } from '../shared/methods/loadOptions';
import { resources } from './actions/resources';
import * as tax from './actions/tax/Tax.resource';

export class SurplusLinesCalculator implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Surplus Lines Calculator',
		name: 'surplusLinesCalculator',
		icon: {
			light: 'file:../../icons/surplusLines.svg',
			dark: 'file:../../icons/surplusLines.dark.svg',
		},
		group: ['transform'],
		subtitle: operationSubtitle,
		description:
			'Estimate surplus lines taxes and fees for the 50 US states and DC, with the rates in force on a date',
		defaults: { name: 'Surplus Lines Calculator' },
		usableAsTool: true,
		...actionNodeBase,
		properties: [
			resourceProperty([{ name: 'Tax', value: 'tax' }]),
			...tax.description,
			requestOptionsProperty,
		],
	};

	methods = {
		loadOptions: {
			getStates: loadOptions.getStates,
			getCalculatorFeeTypes: loadOptions.getCalculatorFeeTypes,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperations.call(this, resources);
	}
}
