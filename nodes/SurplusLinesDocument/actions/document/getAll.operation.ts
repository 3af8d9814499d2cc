import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllProperties } from '../../../shared/descriptions';
import { applyLimit, readInvoiceId } from '../../../shared/params';
import { LIST_KEYS, PATHS, readList } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';
import { documentJson } from '../../../shared/links';
import { invoiceField } from './fields';

const properties: INodeProperties[] = [invoiceField, ...returnAllProperties()];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['getAll'] } },
	properties,
);

export const onlyReads = true;

/** The invoice's documents, one item each (the service lists them in one reply, without paging). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const invoiceId = readInvoiceId(this, itemIndex);
	const reply = await apiRequest.call(this, {
		method: 'GET',
		path: PATHS.documents(invoiceId),
		itemIndex,
	});
	const documents = readList<IDataObject>(reply.data, LIST_KEYS.documents);
	return applyLimit(this, itemIndex, documents).map((doc) => ({ json: documentJson(doc) }));
}
