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
import { resourceMapping } from './methods/resourceMapping';
import * as invoice from './actions/invoice/Invoice.resource';
import { resources } from './actions/resources';

export class SurplusLinesInvoice implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Surplus Lines Invoice',
		name: 'surplusLinesInvoice',
		icon: {
			light: 'file:../../icons/surplusLines.svg',
			dark: 'file:../../icons/surplusLines.dark.svg',
		},
		group: ['output'],
		subtitle: operationSubtitle,
		description:
			'File surplus lines policy transactions as invoices, preview their taxes, and read, change or delete them',
		defaults: { name: 'Surplus Lines Invoice' },
		usableAsTool: true,
		...actionNodeBase,
		// 2: Bill Taxes From Preview is a switch on the panel, on by default (1: an option, off).
		// 3: items show the service's `filed` as `sent_to_state` (output.ts, InvoiceView).
		// 4: a sheet's tax figure that differs from the computation fails the row by default (Sheet
		// Tax Check), and a slashed date no column of the sheet proves the order of is refused.
		version: [1, 2, 3, 4],
		defaultVersion: 4,
		properties: [
			resourceProperty([{ name: 'Invoice', value: 'invoice' }]),
			...invoice.description,
			requestOptionsProperty,
		],
	};

	methods = { loadOptions, listSearch, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperations.call(this, resources);
	}
}
