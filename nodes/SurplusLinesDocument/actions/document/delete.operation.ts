import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { readInvoiceId } from '../../../shared/params';
import { PATHS } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';
import { documentPathRef } from '../../reference';
import { invoiceField, referenceFields } from './fields';

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['delete'] } },
	[invoiceField, ...referenceFields],
);

/** Removes the document reference (204); the file in your own store is untouched. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const invoiceId = readInvoiceId(this, itemIndex);
	requireTier(
		this,
		await getServiceCredential(this, itemIndex),
		't2',
		'Delete Document',
		itemIndex,
	);
	const ref = await documentPathRef(this, itemIndex, invoiceId);
	await apiRequest.call(this, {
		method: 'DELETE',
		path: PATHS.document(invoiceId, ref),
		itemIndex,
	});
	const referenceType = this.getNodeParameter('referenceType', itemIndex) as string;
	const document = String(this.getNodeParameter('document', itemIndex)).trim();
	return [{ json: { deleted: true, invoiceId: Number(invoiceId), referenceType, document } }];
}
