import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { invoiceIdProperty } from '../../../shared/descriptions';
import { readInvoiceId, nodeVersion } from '../../../shared/params';
import type { Run } from '../../../shared/run';
import { adaptToAccount, noteAdaptations } from '../../../account/adapt';
import { accountOptionsProperty } from '../../../account/options';
import { noteConversions, readInvoiceInput } from '../../../sheet';
import { explainConflict } from '../../hints';
import { noteKeptInvoice } from '../../../filing/fileInvoice';
import { invoiceJson, invoiceView } from '../../output';
import { readUnknownLob } from '../settings';
import { readBodySettings } from '../sheetSettings';
import { bodyProperties, simplifyProperties } from './body.description';

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['update'] } },
	[invoiceIdProperty(), ...bodyProperties(true), ...simplifyProperties, accountOptionsProperty()],
);

/** PUT: fields sent replace the stored ones; only what is sent is checked locally. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	run: Run,
): Promise<INodeExecutionData[]> {
	requireTier(this, await getServiceCredential(this, i), 't2', 'Update an invoice', i);
	const id = readInvoiceId(this, i);
	const bodySettings = readBodySettings(this, i, 'partial');
	const account = { unknownLob: readUnknownLob(this, i) };
	const { body, converted, adapted } = await adaptToAccount(
		run,
		readInvoiceInput(run, bodySettings, i, 'partial'),
		i,
		account,
		'partial',
	);
	try {
		const reply = await run.service.update(id, body, i);
		return [
			{
				json: noteAdaptations(
					noteConversions(
						invoiceJson(
							reply.data as IDataObject,
							invoiceView(
								nodeVersion(this),
								this.getNodeParameter('simplify', i, false) as boolean,
							),
						),
						converted,
					),
					adapted,
				),
			},
		];
	} catch (error) {
		throw noteKeptInvoice(explainConflict(this, error, 'changed', i));
	}
}

/** Two items changing the same invoice run in item order. */
export { invoiceOrderKey as orderKey } from '../../../shared/router';
