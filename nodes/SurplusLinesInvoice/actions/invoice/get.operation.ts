import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { invoiceIdProperty } from '../../../shared/descriptions';
import { itemParameter, readInvoiceId, nodeVersion } from '../../../shared/params';
import { PATHS } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';
import { invoiceJson, invoiceView } from '../../output';
import { simplifyProperties } from './body.description';

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['get'] } },
	[invoiceIdProperty(), ...simplifyProperties],
);

export const onlyReads = true;

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = readInvoiceId(this, i);
	const reply = await apiRequest.call(this, {
		method: 'GET',
		path: PATHS.invoice(id),
		invoiceId: id,
		itemIndex: i,
	});
	return [
		{
			json: invoiceJson(
				reply.data as IDataObject,
				invoiceView(nodeVersion(this), itemParameter(this, 'simplify', i, false)),
			),
		},
	];
}
