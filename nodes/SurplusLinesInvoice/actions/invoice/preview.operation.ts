import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forAssistant } from '../../../SurplusLinesCalculator/output';
import { isToolUse } from '../../../shared/toolUse';
import { noteConversions, readInvoiceInput } from '../../body';
import { previewInvoice } from '../../preview';
import { markTaxWarning, previewTaxWarning } from '../../taxes';
import { bodyProperties } from './body.description';

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['preview'] } },
	[
		...bodyProperties(false),
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: false,
			description:
				'Whether to return only whether the invoice would be accepted (errors, warnings) and its tax lines with rates, totals and the disclaimer, instead of the whole reply with the invoice echoed back',
		},
	],
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

/** Any key tier; stores nothing but counts toward the hourly limit. Data problems come back in validation.errors. */
export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const { body, converted } = readInvoiceInput(this, i);
	const reply = await previewInvoice(this, body, i);
	if (this.getNodeParameter('simplify', i, false) as boolean) {
		return [{ json: noteConversions(simplifyPreview(reply.data), converted) }];
	}
	// The warning is about what Create would file, in the words of the node's switches: a model
	// reading a preview has the tax lines in the reply instead.
	const warning = isToolUse(this) ? undefined : previewTaxWarning(body, reply.data);
	const json = markTaxWarning(this, { ...reply.data }, warning);
	return [{ json: noteConversions(json, converted) }];
}
