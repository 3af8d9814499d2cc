import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllProperties } from '../../../shared/descriptions';
import { inputError } from '../../../shared/errors';
import { applyLimit, readTextParameter } from '../../../shared/params';
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
		description:
			'Part of the company’s name, or its NAIC code; gives the service’s company ID for invoice insurers',
	},
	...returnAllProperties(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['company'], operation: ['search'] } },
	properties,
);

export const onlyReads = true;

/** GET /companies/search?q=: one item per company ({id, name, naic}). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const query = readTextParameter(this, 'query', itemIndex, 'Name or NAIC Code');
	if (!query) throw inputError(this, [`Name or NAIC Code: ${MESSAGES.required}`], { itemIndex });
	const reply = await apiRequest.call(this, {
		method: 'GET',
		path: PATHS.companiesSearch,
		qs: { q: query },
		itemIndex,
	});
	const companies = readList<IDataObject>(reply.data, LIST_KEYS.companies);
	return applyLimit(this, itemIndex, companies).map((json) => ({ json }));
}
