import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { invoiceIdProperty } from '../../../shared/descriptions';
import { readInvoiceId } from '../../../shared/params';
import { PATHS } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';
import { ACCEPTED_HINTS, explainConflict } from '../../hints';

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['delete'] } },
	[invoiceIdProperty()],
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	requireTier(this, await getServiceCredential(this, i), 't2', 'Delete an invoice', i);
	const id = readInvoiceId(this, i);
	try {
		await apiRequest.call(this, {
			method: 'DELETE',
			path: PATHS.invoice(id),
			itemIndex: i,
			errorHints: ACCEPTED_HINTS.delete,
		});
	} catch (error) {
		throw explainConflict(this, error, 'deleted', i);
	}
	return [{ json: { id: Number(id), deleted: true } }];
}
