import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readInvoiceId } from '../../../shared/params';
import { PATHS } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';
import { documentJson } from '../../../shared/links';
import { documentPathRef } from '../../reference';
import type { Run } from '../../../shared/run';
import { readDocumentReference } from './referenceSettings';
import { invoiceField, referenceFields } from './fields';

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['get'] } },
	[invoiceField, ...referenceFields],
);

export const onlyReads = true;

/** One document: `file_ready` says whether Download can get the file; the signed link is left out. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: Run,
): Promise<INodeExecutionData[]> {
	const invoiceId = readInvoiceId(this, itemIndex);
	const ref = await documentPathRef(
		run,
		readDocumentReference(this, itemIndex),
		itemIndex,
		invoiceId,
	);
	const reply = await apiRequest.call(this, {
		method: 'GET',
		path: PATHS.document(invoiceId, ref),
		itemIndex,
	});
	return [{ json: documentJson(reply.data as IDataObject) }];
}
