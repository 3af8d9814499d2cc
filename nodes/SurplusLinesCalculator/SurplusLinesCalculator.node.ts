import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptionsProperty } from '../shared/descriptions';
import { routeOperations } from '../shared/execute';
import { loadOptions } from '../shared/methods/loadOptions';
import { resources } from './actions/resources';
import * as tax from './actions/tax/Tax.resource';

// The description is written out here (not imported) so that n8n's lint rules can read the icon,
// subtitle and usableAsTool from the node class.
export class SurplusLinesCalculator implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Surplus Lines Calculator',
		name: 'surplusLinesCalculator',
		icon: { light: 'file:../../icons/surplusLines.svg', dark: 'file:../../icons/surplusLines.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Estimate surplus lines taxes and fees for the 50 US states and DC, with the rates in force on a date',
		defaults: { name: 'Surplus Lines Calculator' },
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
				options: [{ name: 'Tax', value: 'tax' }],
				default: 'tax',
			},
			...tax.description,
			requestOptionsProperty,
		],
	};

	methods = {
		loadOptions: { getStates: loadOptions.getStates, getCalculatorFeeTypes: loadOptions.getCalculatorFeeTypes },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperations.call(this, resources);
	}
}
