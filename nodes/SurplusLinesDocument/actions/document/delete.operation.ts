import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { ALREADY_GONE_DESCRIPTION, deleteAllowingGone } from '../../../shared/deleteGone';
import { readInvoiceId, readTextParameter } from '../../../shared/params';
import { PATHS } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';
import { documentPathRef } from '../../reference';
import type { Run } from '../../../shared/run';
import { readDocumentReference } from './referenceSettings';
import { invoiceField, referenceFields } from './fields';

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['delete'] } },
	[
		{
			displayName: ALREADY_GONE_DESCRIPTION,
			name: 'deleteNotice',
			type: 'notice',
			default: '',
		},
		invoiceField,
		...referenceFields,
	],
);

/** Removes the document reference (204); the file in your own store is untouched. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: Run,
): Promise<INodeExecutionData[]> {
	const invoiceId = readInvoiceId(this, itemIndex);
	requireTier(
		this,
		await getServiceCredential(this, itemIndex),
		't2',
		'Delete Document',
		itemIndex,
	);
	const ref = await documentPathRef(
		run,
		readDocumentReference(this, itemIndex),
		itemIndex,
		invoiceId,
	);
	const gone = await deleteAllowingGone(() =>
		apiRequest.call(this, { method: 'DELETE', path: PATHS.document(invoiceId, ref), itemIndex }),
	);
	const referenceType = this.getNodeParameter('referenceType', itemIndex) as string;
	const document = readTextParameter(this, 'document', itemIndex, 'Document');
	return [
		{ json: { deleted: true, invoiceId: Number(invoiceId), referenceType, document, ...gone } },
	];
}
