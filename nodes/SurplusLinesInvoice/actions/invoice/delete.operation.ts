import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { ALREADY_GONE_DESCRIPTION, deleteAllowingGone } from '../../../shared/deleteGone';
import { invoiceIdProperty } from '../../../shared/descriptions';
import { readInvoiceId } from '../../../shared/params';
import { PATHS } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';
import { explainConflict } from '../../hints';

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['delete'] } },
	[
		{
			displayName: `An invoice the state accepted cannot be deleted (409). ${ALREADY_GONE_DESCRIPTION}`,
			name: 'deleteNotice',
			type: 'notice',
			default: '',
		},
		invoiceIdProperty(),
	],
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	requireTier(this, await getServiceCredential(this, i), 't2', 'Delete an invoice', i);
	const id = readInvoiceId(this, i);
	try {
		const gone = await deleteAllowingGone(() =>
			apiRequest.call(this, { method: 'DELETE', path: PATHS.invoice(id), itemIndex: i }),
		);
		return [{ json: { id: Number(id), deleted: true, ...gone } }];
	} catch (error) {
		throw explainConflict(this, error, 'deleted', i);
	}
}

/** Two items changing the same invoice run in item order. */
export { invoiceOrderKey as orderKey } from '../../../shared/router';
