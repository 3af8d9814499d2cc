import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inputError } from '../../../shared/errors';
import { MESSAGES } from '../../../shared/rules';
import { LIST_KEYS, PATHS, readList } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Name or NAIC Code',
		name: 'query',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Specialty, or 90001',
		description: 'Part of the company’s name, or its NAIC code; gives the service’s company ID for invoice insurers',
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export const description = updateDisplayOptions({ show: { resource: ['company'], operation: ['search'] } }, properties);

/** GET /companies/search?q=: one item per company ({id, name, naic}). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const query = String(this.getNodeParameter('query', itemIndex) ?? '').trim();
	if (!query) throw inputError(this, [`Name or NAIC Code: ${MESSAGES.required}`], { itemIndex });
	const reply = await apiRequest.call(this, { method: 'GET', path: PATHS.companiesSearch, qs: { q: query }, itemIndex });
	const companies = readList<IDataObject>(reply.data, LIST_KEYS.companies);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? companies.length : (this.getNodeParameter('limit', itemIndex, 50) as number);
	return companies.slice(0, limit).map((json) => ({ json }));
}
