import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { addToErrorItem, errorItem } from '../../../shared/errors';
import { itemParameter, nodeVersion } from '../../../shared/params';
import type { Run } from '../../../shared/run';
import { rowsLabel, withRowPrefix, type RefusedNote } from '../../../shared/sheetRows';
import { BATCH_MAX_INVOICES, PATHS } from '../../../shared/service';
import { fileInBatches, fileOneByOne } from '../../../filing/batch';
import type { Entry, Outcome } from '../../../filing/entry';
import { adaptToAccount, noteAdaptations, type Adaptation } from '../../../account/adapt';
import { unknownLobOption } from '../../../account/options';
import {
	notATransaction,
	noteConversions,
	readInvoiceInput,
	refusalInSheetWords,
	type InvoiceInput,
} from '../../../sheet';
import { canonicalInvoice } from '../../../filing/canonical';
import { mayHaveFiled, showReplayed } from '../../../filing/fileInvoice';
import { withMark } from '../../../filing/mark';
import { refuseSameKeyOtherRow, refuseSecondOfTerm } from '../../../filing/sameRun';
import { idempotencyKeyFor, type IdempotencyChoice } from '../../../filing/idempotency';
import { filingOptionProperties, type FilingSettings } from '../../../filing/options';
import { policiesOf } from '../../../filing/policies';
import { describeLookCost } from '../../../filing/policyBook';
import { invoiceJson, invoiceView, sayOutcomeSummary } from '../../output';
import { filedTaxWarning, markTaxWarning } from '../../../taxes/taxLines';
import { billTaxes, createManyTaxOptions, taxesForEntries, type EntryTaxes } from '../../../taxes/createManyTaxes';
import {
	bodyProperties,
	idempotencyOptions,
	idempotencyProperties,
	simplifyProperties,
} from './body.description';
import { givePolicies } from '../policies';
import {
	readFilingSettings,
	readIdempotencyChoice,
	readTaxCheckSettings,
	readUnknownLob,
} from '../settings';
import { readBodySettings } from '../sheetSettings';

/**
 * The notice over Create Many, in one place: short, and true on every account and tier. Say here
 * what a re-run does once that is the same on every account.
 */
const CREATE_MANY_NOTICE = `One invoice per input item: up to ${BATCH_MAX_INVOICES} a call with a t3 key, one call per item with t2. Running the same rows again files none twice: filed rows come back as replayed or already_filed.`;

const properties: INodeProperties[] = [
	{
		displayName: CREATE_MANY_NOTICE,
		name: 'createManyNotice',
		type: 'notice',
		default: '',
	},
	...bodyProperties(false),
	...idempotencyProperties,
	...simplifyProperties,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			...idempotencyOptions,
			...filingOptionProperties('firstReply'),
			...createManyTaxOptions,
			unknownLobOption,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['createMany'] } },
	properties,
);

type Failure = { index: number; error: Error };

/** The first local failure, with every failed row listed (before any call: nothing was filed). */
function annotateLocal(run: Run, error: Error, failures: Failure[], total: number): Error {
	const others = failures.slice(1).map((f) => f.index);
	const lines = [
		`${failures.length} of ${total} rows failed${others.length ? ` (also ${rowsLabel(run, others)})` : ''}.`,
		'No invoice was filed.',
		'Turn on Settings → On Error → Continue to file the good items and get each bad item as its own error item.',
	];
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.description = [error.description, ...lines].filter(Boolean).join('\n');
		error.message = withRowPrefix(run, failures[0].index, error.message);
	}
	return error;
}

/**
 * Said after the list of rows not filed over the output (sheetRows.ts writes the list); the counts
 * are the summary's (output.ts), so the two cannot disagree. Create says the same.
 */
export const refusedNote: RefusedNote = () =>
	'The rows not filed come out as error items: fix them and run again (rows already filed come back as replayed or already_filed, not filed twice).';

/** The outcomes (output.ts): the run's first sentence, where a workflow reading the summary finds them. */
export function summarize(run: Run, items: INodeExecutionData[]): void {
	sayOutcomeSummary(run, items);
}

/** What the look before filing cost beside the filing (policyBook.ts), after the refused rows' list. */
export function sayCost(run: Run): void {
	const book = run.learned.policies?.book;
	const message = book && describeLookCost(book.cost());
	if (message) run.say({ message, type: 'info', location: 'outputPane' });
}

/** What Create puts on its item about the taxes, and how Create Many obtained them. */
function withTaxes(json: IDataObject, taxes: EntryTaxes | undefined): IDataObject {
	if (!taxes) return json;
	if (taxes.previewNotes?.length) json._previewNotes = taxes.previewNotes;
	if (taxes.taxCheck) json._taxCheck = taxes.taxCheck;
	json._taxesFrom = taxes.how;
	return json;
}

async function fileAll(
	run: Run,
	tier: string | undefined,
	entries: Entry[],
	settings: FilingSettings,
): Promise<Outcome[]> {
	if (tier !== 't3') return await fileOneByOne(run, entries, settings);
	return await fileInBatches(run, entries, settings);
}

/**
 * All items at once: local checks for every item, then batch calls (t3) or one call per item (t2).
 * Output: one item per input item, in input order, paired to it.
 */
export async function executeAll(this: IExecuteFunctions, run: Run): Promise<INodeExecutionData[]> {
	const count = run.items.length;
	const continueOnFail = this.continueOnFail();
	const credential = await getServiceCredential(this, 0);
	const failures: Failure[] = [];
	const entries: Entry[] = [];
	const converted: Array<InvoiceInput['converted']> = [];
	const adapted: Adaptation[][] = [];
	const inputs: InvoiceInput[] = [];
	// Every row's local checks first: a bad row stops the run before any call, the look-ups an
	// account adaptation makes included.
	const read: Array<{ index: number; input: InvoiceInput; choice: IdempotencyChoice }> = [];
	// Rows the sheet's shape says are not transactions (totals, charges of another row's filing).
	const notTransactions = new Map<number, IDataObject>();
	for (let index = 0; index < count; index++) {
		const asRead = notATransaction(run, index);
		if (asRead) {
			notTransactions.set(index, asRead);
			continue;
		}
		try {
			requireTier(this, credential, 't2', 'Create Many invoices', index);
			const input = readInvoiceInput(run, readBodySettings(this, index, 'full'), index);
			read.push({ index, input, choice: readIdempotencyChoice(this, run, index) });
		} catch (error) {
			failures.push({ index, error: error as Error });
		}
	}
	// A bad row stops the run before any call: fix it and run again, nothing was half-filed.
	if (failures.length && !continueOnFail) throw annotateLocal(run, failures[0].error, failures, count);
	// One setting for the whole run (its rows are filed together), read from item 0.
	const settings = readFilingSettings(this, 0, 'firstReply');
	const taxSettings = {
		bill: (this.getNodeParameter('options', 0, {}) as IDataObject).billTaxesFromPreview === true,
		check: readTaxCheckSettings(this, 0),
	};
	const version = nodeVersion(this);
	givePolicies(this, run);
	// The look ahead (the account's size, and its listing where that costs less) starts now,
	// beside the account check and the rows' adaptation: nothing is filed before the look for
	// rows already filed has ended (filing/batch.ts waits for it).
	const looked = read.filter(({ choice }) => choice.mode !== 'off');
	if (settings.lookFirst && looked.length)
		void policiesOf(run).book.readAccountFor(
			looked.map(({ input }) => String(input.body.policy_number)),
			looked[0].index,
		);
	for (const { index, input: given, choice } of read) {
		inputs[index] = given;
		try {
			// The mark from the row as read, before the account's adaptation and any tax line.
			const marked = { ...given, body: withMark(given.body, settings.writeMark) };
			const account = { unknownLob: readUnknownLob(this, index) };
			const input = await adaptToAccount(run, marked, index, account);
			converted[index] = input.converted;
			inputs[index] = input;
			adapted[index] = input.adapted;
			const body = canonicalInvoice(input.body);
			// Derived exactly as a single Create derives it: a row filed by either is replayed by the other.
			const key = idempotencyKeyFor(choice, PATHS.invoices, body);
			// A later row with an earlier row's key but other columns is refused, not replayed.
			if (choice.mode === 'derived') refuseSameKeyOtherRow(run, key, index);
			// A second, different New (or Renewal) of a policy term in the run is asked, not filed.
			refuseSecondOfTerm(run, given.body, index, settings.lookAlike);
			entries.push({ index, body, key, keyDerived: choice.mode === 'derived' });
		} catch (error) {
			failures.push({ index, error: refusalInSheetWords(error as Error, given) });
		}
	}
	// A row the account's look-ups refused stops the run too: nothing was filed yet.
	if (failures.length && !continueOnFail) {
		failures.sort((a, b) => a.index - b.index);
		throw annotateLocal(run, failures[0].error, failures, count);
	}
	// Taxes billed and checked before anything is filed; a row they refuse is not sent.
	const taxes = await taxesForEntries(run, entries, inputs, taxSettings);
	if (taxes) {
		const billed = billTaxes(run, entries, inputs, taxes);
		entries.splice(0, entries.length, ...billed.entries);
		failures.push(...billed.failures);
	}
	failures.sort((a, b) => a.index - b.index);
	// Only previews were sent: a refused row stops the run as a local one does.
	if (failures.length && !continueOnFail) throw annotateLocal(run, failures[0].error, failures, count);

	const outcomes = entries.length ? await fileAll(run, credential.tier, entries, settings) : [];
	// Nothing filed and nothing in doubt (e.g. a 403 for the whole batch): a re-run cannot file
	// twice, so this fails like any node would.
	const refusals = outcomes.flatMap((o) => ('error' in o ? [o] : []));
	if (!continueOnFail && refusals.length === outcomes.length && refusals.length > 0) {
		if (!refusals.some((o) => mayHaveFiled(o.error))) {
			const [{ index, error }] = refusals;
			// The whole batch was refused (a key's tier, a service error): not one row's fault.
			throw refusalInSheetWords(error, inputs[index]);
		}
	}
	const output = new Array<INodeExecutionData>(count);
	for (const [index, json] of notTransactions) output[index] = { json, pairedItem: { item: index } };
	for (const failure of failures) {
		output[failure.index] = errorItem(failure.error, failure.index, this.getNode());
	}
	const notFiled = failures.map((f) => f.index);
	for (const outcome of outcomes) {
		if ('error' in outcome) {
			notFiled.push(outcome.index);
			const error = refusalInSheetWords(outcome.error, inputs[outcome.index]);
			output[outcome.index] = errorItem(error, outcome.index, this.getNode());
				continue;
		}
		const result = await showReplayed(run, outcome.filed, settings.replayedView, outcome.index);
		const view = invoiceView(version, itemParameter(this, 'simplify', outcome.index, false));
		output[outcome.index] = {
			json: noteAdaptations(
				noteConversions(
					markTaxWarning(
						run,
						withTaxes(invoiceJson(result.invoice, view, result), taxes?.byIndex.get(outcome.index)),
						filedTaxWarning(result.invoice),
						{ hint: false },
					),
					converted[outcome.index],
				),
				adapted[outcome.index],
			),
			pairedItem: { item: outcome.index },
		};
	}
	if (taxes) run.say(taxes.hint);
	if (notFiled.length) {
		// Each error item says how many rows were not filed; the summary counts the others by outcome.
		const line = `${notFiled.length} of ${count} rows not filed`;
		for (const index of notFiled) addToErrorItem(output[index], { summary: line });
	}
	return output;
}
