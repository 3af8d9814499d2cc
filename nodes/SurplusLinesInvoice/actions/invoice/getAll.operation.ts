import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { describeCut } from '../../../shared/invoiceList';
import { pageInvoices } from '../../../shared/invoiceSource';
import { invoiceJson, invoiceView } from '../../output';
import { returnAllProperties } from '../../../shared/descriptions';
import { simplifyProperties } from './body.description';
import { nodeVersion } from '../../../shared/params';

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['getAll'] } },
	[
		{
			displayName: 'Policy Number',
			name: 'policyNumber',
			type: 'string',
			default: '',
			description:
				'Every transaction of this policy, oldest first. Leave empty to list the whole account (where the service allows it).',
		},
		...returnAllProperties(),
		...simplifyProperties,
	],
);

const NO_FILTER_HINT =
	'This account does not list invoices without a filter: enter a Policy Number to list that policy’s transactions.';

export const onlyReads = true;

/** Pages of up to 100; one output item per distinct invoice. A listing stopped early says so over the output. */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const policyNumber = String(this.getNodeParameter('policyNumber', i, '') ?? '').trim();
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', i, 50) as number);
	const view = invoiceView(
		nodeVersion(this),
		this.getNodeParameter('simplify', i, false) as boolean,
	);
	const pages = await pageInvoices(this, {
		policyNumber: policyNumber || undefined,
		limit,
		itemIndex: i,
		errorHints: policyNumber
			? undefined
			: { VALIDATION_ERROR: NO_FILTER_HINT, '422': NO_FILTER_HINT },
	});
	if (pages.cut !== undefined)
		this.addExecutionHints?.({
			message: describeCut(`Get Many (item ${i + 1}) did not read the whole listing`, pages),
			type: 'warning',
			location: 'outputPane',
		});
	return pages.invoices.map((invoice) => ({ json: invoiceJson(invoice, view) }));
}
