import type { INodeProperties } from 'n8n-workflow';

import { toolDescriptionProperties } from '../../../shared/toolUse';
import * as estimate from './estimate.operation';

export { estimate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tax'] } },
		default: 'estimate',
		options: [
			{
				name: 'Estimate',
				value: 'estimate',
				description:
					'Estimate surplus lines taxes and fees for a premium in a state, with the rates in force on a date',
				action: 'Estimate surplus lines taxes',
			},
		],
	},
	...estimate.description,
	...toolDescriptionProperties('tax', {
		estimate:
			'Estimates the US surplus lines taxes and fees on one policy premium in one state (any of the 50 states or DC), with the rates in force on a date. ' +
			'Inputs: the state as its two-letter code (e.g. TX; a full state name also works); the premium in US dollars as a plain number, at least 0.01, no currency sign or commas (e.g. 12000); ' +
			'policy fees in dollars if any (0 when none); the effective date as YYYY-MM-DD (rates in force that day; empty means today). ' +
			'Returns the tax base, one line per tax or fee (code, name, rate, amount in dollars), total_taxes_and_fees, total_due (premium + fees + taxes) and a disclaimer: the figures are an estimate, so say so when you pass them on. ' +
			'Stores nothing and is safe to call again; each call uses one of the API key’s hourly calls. ' +
			'An error names the input at fault and the rule (e.g. an unknown state code): correct that input and call again.',
	}),
];
