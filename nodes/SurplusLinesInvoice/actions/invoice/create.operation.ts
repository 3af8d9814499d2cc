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
import { adaptToAccount, noteAdaptations, type AccountOptions } from '../../../account/adapt';
import { unknownLobOption } from '../../../account/options';
import {
	noteConversions,
	readInvoiceInput,
	refusalInSheetWords,
	type InvoiceInput,
} from '../../../sheet';
import { canonicalInvoice } from '../../../filing/canonical';
import { fileInvoice, showReplayed } from '../../../filing/fileInvoice';
import { idempotencyKeyFor, type IdempotencyChoice } from '../../../filing/idempotency';
import { withMark } from '../../../filing/mark';
import { filingOptionProperties, type FilingSettings } from '../../../filing/options';
import { policiesOf } from '../../../filing/policies';
import { refuseSameKeyOtherRow, refuseSecondOfTerm } from '../../../filing/sameRun';
import { invoiceJson, invoiceView } from '../../output';
import { billTaxesFromPreview, previewInvoice } from '../../../taxes/preview';
import {
	applyTaxCheck,
	hasSheetTaxes,
	taxCheckOptions,
	type TaxCheckSettings,
} from '../../../taxes/sheetCheck';
import { billTaxesSwitch, filedTaxWarning, markTaxWarning } from '../../../taxes/taxLines';
import {
	bodyProperties,
	idempotencyOptions,
	idempotencyProperties,
	simplifyProperties,
} from './body.description';
import { itemParameter, nodeVersion } from '../../../shared/params';
import type { Run } from '../../../shared/run';
import { givePolicies } from '../policies';
import {
	readFilingSettings,
	readIdempotencyChoice,
	readTaxCheckSettings,
	readUnknownLob,
	wantsTaxesFromPreview,
} from '../settings';
import { readBodySettings } from '../sheetSettings';

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

/** Create's settings for one item, read from the node once, in check, before any call. */
interface CreateSettings {
	filing: FilingSettings;
	account: AccountOptions;
	/** Bill Taxes From Preview. */
	billTaxes: boolean;
	taxCheck: TaxCheckSettings;
	simplify: boolean;
	version: number;
}

interface Checked {
	input: InvoiceInput;
	choice: IdempotencyChoice;
	settings: CreateSettings;
}

declare module '../../../shared/run' {
	interface RunLearned {
		/** Create: each item as its check read it, until it is filed. */
		checkedItems?: Map<number, Checked>;
		/** Create: the look ahead over every checked row's policy, made once. */
		lookedAhead?: Promise<void>;
	}
}

function readCreateSettings(ctx: IExecuteFunctions, i: number): CreateSettings {
	return {
		filing: readFilingSettings(ctx, i, 'current'),
		account: { unknownLob: readUnknownLob(ctx, i) },
		billTaxes: wantsTaxesFromPreview(ctx, i),
		taxCheck: readTaxCheckSettings(ctx, i),
		simplify: itemParameter(ctx, 'simplify', i, false),
		version: nodeVersion(ctx),
	};
}

/**
 * Everything about item `i` that needs no call. The router runs it over every item before the
 * first call (a bad row 1 stops the run before rows 2-25 are filed); execute takes what it read.
 */
export async function check(this: IExecuteFunctions, i: number, run: Run): Promise<void> {
	requireTier(this, await getServiceCredential(this, i), 't2', 'Create an invoice', i);
	const input = readInvoiceInput(run, readBodySettings(this, i, 'full'), i);
	const checked = {
		input,
		choice: readIdempotencyChoice(this, run, i),
		settings: readCreateSettings(this, i),
	};
	// Before any call, in row order: a later row with an earlier row's key but other columns.
	if (checked.choice.mode === 'derived') {
		const key = idempotencyKeyFor(
			checked.choice,
			PATHS.invoices,
			canonicalInvoice(checked.input.body),
		);
		refuseSameKeyOtherRow(run, key, i);
	}
	refuseSecondOfTerm(run, checked.input.body, i, checked.settings.filing.lookAlike);
	(run.learned.checkedItems ??= new Map()).set(i, checked);
}

/**
 * Once, before the first row is filed: the policies every checked row will be looked for on,
 * from the account's listing where that takes fewer calls than one listing per policy (the
 * policy book decides), so a sheet of many policies does not wait for a listing per row.
 */
async function lookAhead(run: Run): Promise<void> {
	if (!run.learned.lookedAhead) {
		const looked = [...(run.learned.checkedItems ?? new Map<number, Checked>())].filter(
			([, checked]) => checked.choice.mode !== 'off' && checked.settings.filing.lookFirst,
		);
		run.learned.lookedAhead = looked.length
			? policiesOf(run).book.readAccountFor(
					looked.map(([, checked]) => String(checked.input.body.policy_number)),
					looked[0][0],
				)
			: Promise.resolve();
	}
	await run.learned.lookedAhead;
}

async function takeChecked(ctx: IExecuteFunctions, run: Run, i: number): Promise<Checked> {
	if (!run.learned.checkedItems?.has(i)) await check.call(ctx, i, run);
	const checked = run.learned.checkedItems!.get(i)!;
	run.learned.checkedItems!.delete(i);
	return checked;
}

/** The rows filed before a failure stopped the run, each with its invoice and outcome. */
export const describeDone: DescribeDone = (done, run) => {
	const rows = done.map(({ itemIndex, items }) => {
		const json = items[0]?.json ?? {};
		return `${rowLabel(run, itemIndex)} → invoice ${String(json.id)} (${String(json.outcome ?? 'filed')})`;
	});
	return `Rows filed before the run stopped (up to Concurrency rows were in flight): ${rows.join(', ')}. They stay filed: running the same rows again returns them as replayed or already_filed, not filed twice.`;
};

export async function execute(
	this: IExecuteFunctions,
	i: number,
	run: Run,
): Promise<INodeExecutionData[]> {
	givePolicies(this, run);
	await lookAhead(run);
	const checked = await takeChecked(this, run, i);
	try {
		return await fileChecked(run, i, checked);
	} catch (error) {
		throw refusalInSheetWords(error, checked.input);
	}
}

/** Files one checked row: the stages after the sheet's, on the values its check read. */
async function fileChecked(run: Run, i: number, checked: Checked): Promise<INodeExecutionData[]> {
	const { filing: settings } = checked.settings;
	// The mark comes from the row as read, before the account's adaptation (it may call the
	// service) and any tax line: one mark on every account. Then the one canonical body, from
	// which the key is derived and which is sent.
	const marked = { ...checked.input, body: withMark(checked.input.body, settings.writeMark) };
	const input = await adaptToAccount(run, marked, i, checked.settings.account);
	const { choice } = checked;
	let body = canonicalInvoice(input.body);
	// The key comes from the invoice as the user gave it, before the preview's tax lines are added:
	// the day's rates must not turn a re-run of the same invoice into a new filing.
	const key = idempotencyKeyFor(choice, PATHS.invoices, body);
	let previewNotes: string[] | undefined;
	let preview: IDataObject | undefined;
	if (checked.settings.billTaxes) {
		const billed = await billTaxesFromPreview(run, body, i);
		body = billed.body;
		previewNotes = billed.notes;
		preview = billed.preview;
	}
	// The sheet's own taxes are compared before anything is filed; without Bill Taxes From
	// Preview that takes a preview of its own, only when the option asks for it.
	const taxSettings = checked.settings.taxCheck;
	const ownPreview = taxSettings.mode === 'always' || taxSettings.mode === 'fail';
	if (!preview && ownPreview && hasSheetTaxes(input))
		preview = (await previewInvoice(run, input.body, i)).data;
	const taxCheck = applyTaxCheck(run, i, input, preview, taxSettings);
	const filed = await fileInvoice(run, body, {
		idempotencyKey: key,
		keyDerived: choice.mode === 'derived',
		itemIndex: i,
		settings,
	});
	const result = await showReplayed(run, filed, settings.replayedView, i);
	const json = invoiceJson(
		result.invoice,
		invoiceView(checked.settings.version, checked.settings.simplify),
		result,
	);
	if (previewNotes?.length) json._previewNotes = previewNotes;
	if (taxCheck) json._taxCheck = taxCheck;
	return [
		{
			json: noteAdaptations(
				noteConversions(
					markTaxWarning(run, json, filedTaxWarning(result.invoice)),
					input.converted,
				),
				input.adapted,
			),
		},
	];
}

// The same words as Create Many over the output: one summary of outcomes, the refused rows listed.
export { refusedNote, sayCost, summarize } from './createMany.operation';
