import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { PATHS } from '../../../shared/service';
import { adaptToAccount, noteAdaptations } from '../../accountAdapt';
import { unknownLobOption } from '../../accountOptions';
import { noteConversions, readInvoiceInput } from '../../body';
import { fileInvoice, idempotencyKeyFor, showReplayed } from '../../filing';
import { filingOptionProperties, readFilingSettings } from '../../filingOptions';
import { invoiceJson, tallyOutcome } from '../../output';
import { billTaxesFromPreview, previewInvoice } from '../../preview';
import { readIdempotencyChoice } from '../../idempotencyChoice';
import {
	applyTaxCheck,
	hasSheetTaxes,
	readTaxCheckSettings,
	taxCheckOptions,
} from '../../taxCheck';
import {
	billTaxesSwitch,
	filedTaxWarning,
	markTaxWarning,
	wantsTaxesFromPreview,
} from '../../taxes';
import {
	bodyProperties,
	idempotencyOptions,
	idempotencyProperties,
	simplifyProperty,
} from './body.description';

const properties: INodeProperties[] = [
	...bodyProperties(false),
	billTaxesSwitch,
	...idempotencyProperties,
	simplifyProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Bill Taxes From Preview',
				name: 'billTaxesFromPreview',
				type: 'boolean',
				default: false,
				// Version 2 has its own switch, on by default (taxes.ts).
				displayOptions: { show: { '@version': [1] } },
				description:
					'Whether to preview first and add the computed tax lines (tax_calculation.line_items) to the fees, then create. One extra call. Codes already in the fees (or their alias) are kept as sent. Nothing is created when the preview reports validation errors. The derived Idempotency-Key comes from the invoice before the tax lines are added, so a re-run with changed rates is not filed again: the service refuses the key with the new body, and the node returns the first filing from the policy (outcome already_filed).',
			},
			...idempotencyOptions,
			...filingOptionProperties('current'),
			...taxCheckOptions('create'),
			unknownLobOption,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	requireTier(this, await getServiceCredential(this, i), 't2', 'Create an invoice', i);
	const input = await adaptToAccount(this, readInvoiceInput(this, i), i);
	let body = input.body;
	const choice = readIdempotencyChoice(this, i);
	// The key comes from the invoice as the user gave it, before the preview's tax lines are added:
	// the day's rates must not turn a re-run of the same invoice into a new filing.
	const key = await idempotencyKeyFor(this, choice, PATHS.invoices, body, i);
	let previewNotes: string[] | undefined;
	let preview: IDataObject | undefined;
	if (wantsTaxesFromPreview(this, i)) {
		const billed = await billTaxesFromPreview(this, body, i);
		body = billed.body;
		previewNotes = billed.notes;
		preview = billed.preview;
	}
	// The sheet's own taxes are compared before anything is filed; without Bill Taxes From
	// Preview that takes a preview of its own, only when the option asks for it.
	const taxSettings = readTaxCheckSettings(this, i);
	const ownPreview = taxSettings.mode === 'always' || taxSettings.mode === 'fail';
	if (!preview && ownPreview && hasSheetTaxes(input))
		preview = (await previewInvoice(this, input.body, i)).data;
	const taxCheck = applyTaxCheck(this, i, input, preview, taxSettings);
	const settings = readFilingSettings(this, i, 'current');
	const filed = await fileInvoice(this, body, {
		idempotencyKey: key,
		keyDerived: choice.mode === 'derived',
		itemIndex: i,
		settings,
	});
	const result = await showReplayed(this, filed, settings.replayedView, i);
	tallyOutcome(this, result.outcome);
	const json = invoiceJson(
		result.invoice,
		this.getNodeParameter('simplify', i, false) as boolean,
		result,
	);
	if (previewNotes?.length) json._previewNotes = previewNotes;
	if (taxCheck) json._taxCheck = taxCheck;
	return [
		{
			json: noteAdaptations(
				noteConversions(
					markTaxWarning(this, json, filedTaxWarning(result.invoice)),
					input.converted,
				),
				input.adapted,
			),
		},
	];
}
