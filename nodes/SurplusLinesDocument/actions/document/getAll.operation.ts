import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readInvoiceId } from '../../../shared/params';
import { LIST_KEYS, PATHS, readList } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';
import { documentJson } from '../../output';
import { invoiceField } from './fields';

const properties: INodeProperties[] = [
	invoiceField,
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

export const description = updateDisplayOptions({ show: { resource: ['document'], operation: ['getAll'] } }, properties);

/** The invoice's documents, one item each (the service lists them in one reply, without paging). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const invoiceId = readInvoiceId(this, itemIndex);
	const reply = await apiRequest.call(this, { method: 'GET', path: PATHS.documents(invoiceId), itemIndex });
	const documents = readList<IDataObject>(reply.data, LIST_KEYS.documents);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? documents.length : (this.getNodeParameter('limit', itemIndex, 50) as number);
	return documents.slice(0, limit).map((doc) => ({ json: documentJson(doc) }));
}
