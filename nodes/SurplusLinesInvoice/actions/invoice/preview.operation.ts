import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { adaptToAccount, noteAdaptations } from '../../accountAdapt';
import { unknownLobOption } from '../../accountOptions';
import { noteConversions, readInvoiceInput } from '../../body';
import { previewInvoice } from '../../preview';
import { applyTaxCheck, readTaxCheckSettings, taxCheckOptions } from '../../taxCheck';
import { markTaxWarning, previewTaxWarning } from '../../taxes';
import { bodyProperties } from './body.description';

const properties: INodeProperties[] = [
	...bodyProperties(false),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...taxCheckOptions('preview'), unknownLobOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['preview'] } },
	properties,
);

/** Any key tier; stores nothing but counts toward the hourly limit. Data problems come back in validation.errors. */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const input = await adaptToAccount(this, readInvoiceInput(this, i), i);
	const { body, converted, adapted } = input;
	const reply = await previewInvoice(this, body, i);
	const json = markTaxWarning(this, { ...reply.data }, previewTaxWarning(body, reply.data));
	const taxCheck = applyTaxCheck(this, i, input, reply.data, readTaxCheckSettings(this, i));
	if (taxCheck) json._taxCheck = taxCheck;
	// Shown before filing: what Create would send instead of what the row gives.
	return [{ json: noteAdaptations(noteConversions(json, converted), adapted) }];
}
