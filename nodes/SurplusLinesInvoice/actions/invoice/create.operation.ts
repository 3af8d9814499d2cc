import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { PATHS } from '../../../shared/service';
import { rowLabel } from '../../../shared/sheetRows';
import type { DescribeDone } from '../../../shared/stopped';
import { adaptToAccount, noteAdaptations } from '../../../account/adapt';
import { unknownLobOption } from '../../../account/options';
import {
	noteConversions,
	readInvoiceInput,
	refusalInSheetWords,
	type InvoiceInput,
} from '../../../sheet/input';
import { canonicalInvoice } from '../../../filing/canonical';
import { fileInvoice, showReplayed } from '../../../filing/fileInvoice';
import {
	idempotencyKeyFor,
	readIdempotencyChoice,
	type IdempotencyChoice,
} from '../../../filing/idempotency';
import { withMark } from '../../../filing/mark';
import { PolicyBook, describeLookCost } from '../../../filing/policyBook';
import { invoiceSource } from '../../../shared/invoiceSource';
import { lookBudget } from '../../../shared/lookBudget';
import { filingOptionProperties, readFilingSettings } from '../../../filing/options';
import { refuseSameKeyOtherRow, refuseSecondOfTerm } from '../../../filing/sameRun';
import { invoiceJson, invoiceView, sayOutcomeSummary } from '../../output';
import { billTaxesFromPreview, previewInvoice } from '../../../taxes/preview';
import {
	applyTaxCheck,
	hasSheetTaxes,
	readTaxCheckSettings,
	taxCheckOptions,
} from '../../../taxes/sheetCheck';
import {
	billTaxesSwitch,
	filedTaxWarning,
	markTaxWarning,
	wantsTaxesFromPreview,
} from '../../../taxes/taxLines';
import {
	bodyProperties,
	idempotencyOptions,
	idempotencyProperties,
	simplifyProperties,
} from './body.description';

const properties: INodeProperties[] = [
	...bodyProperties(false),
	billTaxesSwitch,
	...idempotencyProperties,
	...simplifyProperties,
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

interface Checked {
	input: InvoiceInput;
	choice: IdempotencyChoice;
}

const checkedItems = new WeakMap<object, Map<number, Checked>>();

/**
 * Everything about item `i` that needs no call. The router runs it over every item before the
 * first call (a bad row 1 stops the run before rows 2-25 are filed); execute takes what it read.
 */
export async function check(this: IExecuteFunctions, i: number): Promise<void> {
	requireTier(this, await getServiceCredential(this, i), 't2', 'Create an invoice', i);
	const checked = { input: readInvoiceInput(this, i), choice: readIdempotencyChoice(this, i) };
	// Before any call, in row order: a later row with an earlier row's key but other columns.
	if (checked.choice.mode === 'derived') {
		const key = idempotencyKeyFor(
			checked.choice,
			PATHS.invoices,
			canonicalInvoice(checked.input.body),
		);
		refuseSameKeyOtherRow(this, key, i);
	}
	refuseSecondOfTerm(this, checked.input.body, i, readFilingSettings(this, i, 'current').lookAlike);
	if (!checkedItems.has(this)) checkedItems.set(this, new Map());
	checkedItems.get(this)!.set(i, checked);
}

/** The run's policy book (made once, when the first item starts), and the look ahead it made. */
const runs = new WeakMap<object, { book?: PolicyBook; ready: Promise<PolicyBook> }>();

/**
 * Once, before the first row is filed: the policies every checked row will be looked for on,
 * from the account's listing where the listing choice says it costs less than one listing per
 * policy (listingChoice.ts), so a sheet of many policies does not wait for a listing per row.
 */
async function lookAhead(ctx: IExecuteFunctions): Promise<PolicyBook> {
	let run = runs.get(ctx);
	if (!run) {
		const started = { ready: startRun(ctx) } as { book?: PolicyBook; ready: Promise<PolicyBook> };
		runs.set(ctx, (run = started));
	}
	return await run.ready;
}

async function startRun(ctx: IExecuteFunctions): Promise<PolicyBook> {
	const book = new PolicyBook(invoiceSource(ctx), await lookBudget(ctx));
	runs.get(ctx)!.book = book;
	const looked = [...(checkedItems.get(ctx) ?? new Map<number, Checked>())].filter(
		([i, checked]) =>
			checked.choice.mode !== 'off' && readFilingSettings(ctx, i, 'current').lookFirst,
	);
	if (looked.length)
		await book.readAccountFor(
			looked.map(([, checked]) => String(checked.input.body.policy_number)),
			looked[0][0],
		);
	return book;
}

async function takeChecked(ctx: IExecuteFunctions, i: number): Promise<Checked> {
	const byItem = checkedItems.get(ctx);
	if (!byItem?.has(i)) await check.call(ctx, i);
	const checked = checkedItems.get(ctx)!.get(i)!;
	checkedItems.get(ctx)!.delete(i);
	return checked;
}

/** The rows filed before a failure stopped the run, each with its invoice and outcome. */
export const describeDone: DescribeDone = (done, ctx) => {
	const rows = done.map(({ itemIndex, items }) => {
		const json = items[0]?.json ?? {};
		return `${rowLabel(ctx, itemIndex)} → invoice ${String(json.id)} (${String(json.outcome ?? 'filed')})`;
	});
	return `Rows filed before the run stopped (up to Concurrency rows were in flight): ${rows.join(', ')}. They stay filed: running the same rows again returns them as replayed or already_filed, not filed twice.`;
};

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const book = await lookAhead(this);
	const checked = await takeChecked(this, i);
	try {
		return await fileChecked.call(this, i, checked, book);
	} catch (error) {
		throw refusalInSheetWords(error, checked.input);
	}
}

async function fileChecked(
	this: IExecuteFunctions,
	i: number,
	checked: Checked,
	book: PolicyBook,
): Promise<INodeExecutionData[]> {
	const settings = { ...readFilingSettings(this, i, 'current'), book };
	// The mark comes from the row as read, before the account's adaptation (it may call the
	// service) and any tax line: one mark on every account. Then the one canonical body, from
	// which the key is derived and which is sent.
	const marked = { ...checked.input, body: withMark(checked.input.body, settings.writeMark) };
	const input = await adaptToAccount(this, marked, i);
	const { choice } = checked;
	let body = canonicalInvoice(input.body);
	// The key comes from the invoice as the user gave it, before the preview's tax lines are added:
	// the day's rates must not turn a re-run of the same invoice into a new filing.
	const key = idempotencyKeyFor(choice, PATHS.invoices, body);
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
	const filed = await fileInvoice(this, body, {
		idempotencyKey: key,
		keyDerived: choice.mode === 'derived',
		itemIndex: i,
		settings,
	});
	const result = await showReplayed(this, filed, settings.replayedView, i);
	const json = invoiceJson(
		result.invoice,
		invoiceView(this, this.getNodeParameter('simplify', i, false) as boolean),
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

// The same words as Create Many over the output: what the look cost beside the filing, one
// summary of outcomes, the refused rows listed.
export { refusedNote } from './createMany.operation';

export function summarize(ctx: IExecuteFunctions, items: INodeExecutionData[]): void {
	const book = runs.get(ctx)?.book;
	const message = book && describeLookCost(book.cost());
	if (message) ctx.addExecutionHints?.({ message, type: 'info', location: 'outputPane' });
	sayOutcomeSummary(ctx, items);
}
