import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forAssistant } from '../../../SurplusLinesCalculator/output';
import type { Run } from '../../../shared/run';
import { adaptToAccount, noteAdaptations } from '../../../account/adapt';
import { unknownLobOption } from '../../../account/options';
import { noteConversions, readInvoiceInput } from '../../../sheet';
import { previewInvoice } from '../../../taxes/preview';
import { applyTaxCheck, taxCheckOptions } from '../../../taxes/sheetCheck';
import { markTaxWarning, previewTaxWarning } from '../../../taxes/taxLines';
import { bodyProperties } from './body.description';
import { readTaxCheckSettings, readUnknownLob } from '../settings';
import { readBodySettings } from '../sheetSettings';

const properties: INodeProperties[] = [
	...bodyProperties(false),
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description:
			'Whether to return only whether the invoice would be accepted (errors, warnings) and its tax lines with rates, totals and the disclaimer, instead of the whole reply with the invoice echoed back',
	},
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

/** The verdict and the taxes, without the echoed invoice: what a reader (or a model) acts on. */
function simplifyPreview(preview: IDataObject): IDataObject {
	const validation = (preview.validation ?? {}) as IDataObject;
	return {
		valid: validation.valid,
		errors: validation.errors ?? [],
		warnings: validation.warnings ?? [],
		...forAssistant((preview.tax_calculation ?? {}) as IDataObject),
	};
}

export const onlyReads = true;

/** Any key tier; stores nothing but counts toward the hourly limit. Data problems come back in validation.errors. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	run: Run,
): Promise<INodeExecutionData[]> {
	const bodySettings = readBodySettings(this, i, 'full');
	const account = { unknownLob: readUnknownLob(this, i) };
	const taxCheckSettings = readTaxCheckSettings(this, i);
	const simplify = this.getNodeParameter('simplify', i, false) as boolean;
	const input = await adaptToAccount(run, readInvoiceInput(run, bodySettings, i), i, account);
	const { body, converted, adapted } = input;
	const reply = await previewInvoice(run, body, i);
	const taxCheck = applyTaxCheck(run, i, input, reply.data, taxCheckSettings);
	let json: IDataObject;
	if (simplify) {
		json = simplifyPreview(reply.data);
	} else {
		// The warning is about what Create would file, in the words of the node's switches: a model
		// reading a preview has the tax lines in the reply instead.
		const warning = run.tool ? undefined : previewTaxWarning(body, reply.data);
		json = markTaxWarning(run, { ...reply.data }, warning);
	}
	if (taxCheck) json._taxCheck = taxCheck;
	// Shown before filing: what Create would send instead of what the row gives.
	return [{ json: noteAdaptations(noteConversions(json, converted), adapted) }];
}
