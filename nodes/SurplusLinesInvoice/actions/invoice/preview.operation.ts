import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { adaptToAccount, noteAdaptations } from '../../accountAdapt';
import { accountOptionsProperty } from '../../accountOptions';
import { noteConversions, readInvoiceInput } from '../../body';
import { previewInvoice } from '../../preview';
import { markTaxWarning, previewTaxWarning } from '../../taxes';
import { bodyProperties } from './body.description';

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['preview'] } },
	[...bodyProperties(false), accountOptionsProperty()],
);

/** Any key tier; stores nothing but counts toward the hourly limit. Data problems come back in validation.errors. */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const { body, converted, adapted } = await adaptToAccount(this, readInvoiceInput(this, i), i);
	const reply = await previewInvoice(this, body, i);
	const json = markTaxWarning(this, { ...reply.data }, previewTaxWarning(body, reply.data));
	// Shown before filing: what Create would send instead of what the row gives.
	return [{ json: noteAdaptations(noteConversions(json, converted), adapted) }];
}
