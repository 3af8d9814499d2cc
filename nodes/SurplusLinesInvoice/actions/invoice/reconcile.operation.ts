import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { adaptToAccount, type AccountOptions } from '../../../account/adapt';
import { dateOnly } from '../../../shared/dates';
import { localError, readErrorInfo } from '../../../shared/errors';
import { searchCompanies } from '../../../account/lookups';
import { sourceOf, type InvoiceInput } from '../../../sheet';
import { nodeVersion } from '../../../shared/params';
import { readUnknownLob } from '../settings';
import { hasSheetTaxes } from '../../../taxes/sheetCheck';
import { sheetRow } from '../../../shared/sheetRows';
import { derivedMark } from '../../../filing/mark';
import {
	ANSWERS,
	invoiceFacts,
	policyKey,
	reconcileRows,
	type SheetRow,
} from '../../../reconcile/answers';
import {
	inPeriod,
	readListing,
	type ListingSettings,
	type Period,
	type Progress,
} from '../../../reconcile/listing';
import { computeBudget } from '../../../shared/callBudget';
import { MAX_CONCURRENCY } from '../../../shared/concurrency';
import { inFlightLimitOf } from '../../../shared/invoiceService';
import { getServiceCredential } from '../../../shared/credentials';
import { invoiceSource } from '../../../shared/invoiceSource';
import { lastRateLimit } from '../../../shared/rateLimit';
import { reconcileSummary } from '../../../reconcile/summary';
import { givesChangeDate, rowsAsStored } from '../../../reconcile/accountKind';
import { addDeadlines, dueWithin } from '../../../reconcile/late';
import { bodyProperties } from './body.description';
import { notATransaction } from '../../../sheet';
import { shapeRefusal, shapedItems } from '../../../sheet/sheetRead';
import { feeColumnCode } from '../../../reconcile/sheetWords';
import type { Run } from '../../../shared/run';
import { readRunSheet } from '../sheetSettings';
import { policyOf, readRowAsCreate } from './checkSheet.operation';
import { budgetShareProperty } from '../../../shared/descriptions';

const properties: INodeProperties[] = [
	{
		displayName:
			'Reads every row as Create would and compares it with what the service holds, filing nothing (a t1 key is enough). One item per row: filed as the sheet says, filed differently (each differing column with both values), not filed, cannot tell (the candidate invoices) or refused (Check Sheet’s reasons); then one item per invoice on the service that no row accounts for. Filings the state rejected and invoices in error carry the state’s reason and the next step; rows not filed and filings not yet sent or rejected carry their state’s filing deadline. Invoice → Correct Filings corrects what differs. The account’s listing is read 100 invoices a call where it is cheaper than one listing per policy. A run that spends its budget stops, and the next run of the active workflow goes on where it stopped.',
		name: 'reconcileNotice',
		type: 'notice',
		default: '',
	},
	...bodyProperties(false),
	{
		displayName: 'Invoices Not on the Sheet',
		name: 'notOnSheetScope',
		type: 'options',
		default: 'policies',
		options: [
			{
				name: 'On the Sheet’s Policies',
				value: 'policies',
				description: 'Invoices of the policies the sheet names that no row accounts for',
			},
			{
				name: 'In a Period',
				value: 'period',
				description:
					'Every invoice of the account with its effective or created date in the period that no row accounts for (needs the account’s listing)',
			},
		],
	},
	{
		displayName: 'Period By',
		name: 'periodBy',
		type: 'options',
		default: 'effective',
		displayOptions: { show: { notOnSheetScope: ['period'] } },
		options: [
			{ name: 'Effective Date', value: 'effective' },
			{ name: 'Created Date', value: 'created' },
		],
	},
	{
		displayName: 'From',
		name: 'periodFrom',
		type: 'dateTime',
		default: '',
		description: 'First day of the period (included); empty: no start',
		displayOptions: { show: { notOnSheetScope: ['period'] } },
	},
	{
		displayName: 'To',
		name: 'periodTo',
		type: 'dateTime',
		default: '',
		description: 'Last day of the period (included); empty: no end',
		displayOptions: { show: { notOnSheetScope: ['period'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			budgetShareProperty(
				50,
				'Share of the key’s hourly call limit one run may spend; the rest stays for filing and your other workflows. A run that needs more stops and the next run goes on.',
			),
			{
				displayName: 'Only Due Within (Days)',
				name: 'dueWithinDays',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 30,
				description:
					'Whether to list only the rows not filed and the filings not yet sent or rejected whose state’s filing deadline falls within this many days (overdue ones included, and those of a state whose deadline the package does not know). The summary still counts every row.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['reconcile'] } },
	properties,
);

export const onlyReads = true;

/** The run's settings, read once: the listing's, and what the output lists. */
interface ReconcileSettings extends ListingSettings {
	/** List only what is due within this many days (undefined: everything). */
	dueWithinDays?: number;
	/** The day deadlines are counted from (YYYY-MM-DD, UTC). */
	today: string;
}

function readSettings(ctx: IExecuteFunctions): ReconcileSettings {
	const due = (ctx.getNodeParameter('options', 0, {}) as IDataObject).dueWithinDays as
		| number
		| undefined;
	if (due !== undefined && !(Number.isInteger(Number(due)) && Number(due) >= 0))
		throw new NodeOperationError(
			ctx.getNode(),
			'Only Due Within (Days) must be a whole number of days, 0 or more',
		);
	const base = readListingSettings(ctx);
	return {
		...base,
		today: new Date().toISOString().slice(0, 10),
		...(due === undefined ? {} : { dueWithinDays: Number(due) }),
	};
}

function readListingSettings(ctx: IExecuteFunctions): ListingSettings {
	const share = Number(ctx.getNodeParameter('options.budgetShare', 0, 50) ?? 50);
	if (!(share > 0 && share <= 100))
		throw new NodeOperationError(ctx.getNode(), 'Budget Share must be between 1 and 100');
	if (ctx.getNodeParameter('notOnSheetScope', 0, 'policies') !== 'period')
		return { share: share / 100 };
	const period: Period = {
		by: ctx.getNodeParameter('periodBy', 0, 'effective') as Period['by'],
		from: dateOnly(ctx.getNodeParameter('periodFrom', 0, '')),
		to: dateOnly(ctx.getNodeParameter('periodTo', 0, '')),
	};
	return { share: share / 100, period };
}

/** Each fee's sheet column, by the fee's code (its alias pair's one column). */
function feeColumnsOf(body: IDataObject, sources: Record<string, string>): Record<string, string> {
	const out: Record<string, string> = {};
	const fees = Array.isArray(body.fees) ? (body.fees as IDataObject[]) : [];
	fees.forEach((fee, n) => {
		const column = sources[`fees[${n}]`];
		if (column && fee && typeof fee === 'object') out[feeColumnCode(fee.type)] = column;
	});
	return out;
}

/** Every row as the sheet reader reads it, with its mark (filing/mark.ts, as Create writes it). */
export function readRows(
	ctx: IExecuteFunctions,
	run: Run,
	inputs?: Map<number, InvoiceInput>,
): SheetRow[] {
	const rows: SheetRow[] = [];
	for (let index = 0; index < run.items.length; index++) {
		const row = sheetRow(run, index);
		const asRead = notATransaction(run, index);
		if (asRead) {
			rows.push({ index, row, asRead });
			continue;
		}
		const read = readRowAsCreate(ctx, run, index);
		if (read.reasons) {
			const policy = policyOf(ctx, run, index);
			rows.push({
				index,
				row,
				policy: policy === undefined ? undefined : String(policy),
				reasons: read.reasons,
			});
			continue;
		}
		inputs?.set(index, read.input);
		const own = read.input.body.invoice_number;
		const mark =
			own !== undefined && own !== null && String(own).trim() !== ''
				? String(own)
				: derivedMark(read.input.body);
		rows.push({
			index,
			row,
			policy: String(read.body.policy_number),
			body: read.body,
			mark,
			sources: read.input.sources,
			cells: (shapedItems(run) ?? run.items)[index]?.json ?? {},
			feeColumns: feeColumnsOf(read.input.body, read.input.sources),
		});
	}
	return rows;
}

/**
 * A row not filed is one Create would file only when the account's checks Create makes before
 * filing pass too (an insurer's NAIC or name looked up, a line of business by name): a row they
 * refuse is answered refused with Create's reasons, never "Create would file it" (issue 53).
 */
async function refuseWhatCreateWould(
	run: Run,
	answers: Array<{ index: number; json: IDataObject }>,
	inputs: Map<number, InvoiceInput>,
	account: AccountOptions,
	version: number,
): Promise<void> {
	for (const answer of answers) {
		const input = inputs.get(answer.index);
		if (answer.json.answer !== ANSWERS.notFiled || !input) continue;
		try {
			await adaptToAccount(run, input, answer.index, account);
			await refuseUnknownNaics(run, input, answer.index);
			// From version 4 Create refuses a row whose sheet taxes differ (Sheet Tax Check's default).
			if (version >= 4 && hasSheetTaxes(input))
				answer.json.note = `${String(answer.json.note).replace(/: Create would file it\.$/, '')}: Create would file it only where the row's tax figures agree with the service's computation, which Create checks with a preview and Reconcile Sheet does not.`;
		} catch (error) {
			const info = readErrorInfo(error);
			const reasons = info?.fields?.length ? info.fields : [(error as Error).message];
			answer.json = {
				row: answer.json.row,
				policy_number: answer.json.policy_number,
				answer: ANSWERS.refused,
				reasons,
				note: 'Not filed, and Create would refuse it before filing: see the reasons.',
			};
		}
	}
}

/** The row's insurer NAICs with their body paths (insurers, and the companies of a group). */
function naicsOf(body: IDataObject): Array<[string, string]> {
	const list = (value: unknown) => (Array.isArray(value) ? (value as IDataObject[]) : []);
	return list(body.insurers).flatMap((insurer, n) => [
		...(insurer.naic !== undefined
			? [[`insurers[${n}].naic`, String(insurer.naic)] as [string, string]]
			: []),
		...list(insurer.companies)
			.map(
				(c, m) => [`insurers[${n}].companies[${m}].naic`, String(c.naic ?? '')] as [string, string],
			)
			.filter(([, naic]) => naic !== ''),
	]);
}

/**
 * An account that looks insurers up itself refuses a NAIC no company has when Create sends the
 * row: looked up here (once per NAIC a run), so the answer is Create's on every account.
 */
async function refuseUnknownNaics(run: Run, input: InvoiceInput, index: number): Promise<void> {
	const unknown: string[] = [];
	for (const [path, naic] of naicsOf(input.body)) {
		const companies = await searchCompanies(run, naic, index);
		if (companies.some((c) => c.naic === naic)) continue;
		const column = sourceOf(path, input.sources);
		unknown.push(
			`${column ? `Column "${column}"` : path}: no company has NAIC ${naic} (GET /companies/search), so the service refuses the row when Create sends it`,
		);
	}
	if (unknown.length)
		throw localError(run, 'UNKNOWN_NAIC', unknown[0], {
			itemIndex: index,
			fields: unknown,
			description: unknown.join('\n'),
		});
}

const STATE_KEY = 'reconcileSheet';

/** readListing with the key's budget, and what an earlier run read kept in the workflow's static data. */
export async function readSheetListing(
	ctx: IExecuteFunctions,
	policies: Map<string, string>,
	settings: ListingSettings,
) {
	const credential = await getServiceCredential(ctx, 0);
	const budget = computeBudget(
		credential.tier,
		lastRateLimit(credential.fingerprint)?.limit,
		settings.share,
		1,
	);
	const staticData = ctx.getWorkflowStaticData('node');
	try {
		const listing = await readListing(invoiceSource(ctx), policies, settings, {
			budget: budget.callsPerHour,
			inFlight: await inFlightLimitOf(ctx, MAX_CONCURRENCY, true),
			earlier: staticData[STATE_KEY] as Progress | undefined,
		});
		if (listing.progress) staticData[STATE_KEY] = listing.progress as unknown as IDataObject;
		else delete staticData[STATE_KEY];
		return listing;
	} catch (error) {
		throw error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(ctx.getNode(), error as Error);
	}
}

/** The sheet's own refusal where no row of it could be read (its columns unknown), else undefined. */
function sheetNotRead(run: Run, rows: SheetRow[]): string | undefined {
	if (!rows.length || !rows.every((row) => row.reasons)) return undefined;
	return shapeRefusal(run, 0);
}

/** All rows at once: the listing is chosen over the whole sheet. */
export async function executeAll(this: IExecuteFunctions, run: Run): Promise<INodeExecutionData[]> {
	const settings = readSettings(this);
	readRunSheet(this, run);
	const inputs = new Map<number, InvoiceInput>();
	const read = readRows(this, run, inputs);
	// One GET /auth/me, only where a row gives a change date: a legacy account stores it otherwise.
	const rows = givesChangeDate(read)
		? rowsAsStored(read, (await run.service.me(0)).features)
		: read;
	const policies = new Map<string, string>();
	// Refused rows' policies too: their invoices are named on them (answers.ts), not listed as extra.
	for (const row of rows) if (row.policy) policies.set(policyKey(row.policy), row.policy);
	const listing = await readSheetListing(this, policies, settings);
	const {
		rows: answers,
		notOnSheet,
		duplicates,
	} = reconcileRows(rows, listing.byPolicy, listing.extra);
	await refuseWhatCreateWould(
		run,
		answers,
		inputs,
		{ unknownLob: readUnknownLob(this, 0) },
		nodeVersion(this),
	);
	const period = settings.period;
	// A sheet whose columns could not be read (report lines above its header) accounts for no
	// invoice: listing the whole period as "not on the sheet" would mislead; it is said instead.
	const unread = sheetNotRead(run, rows);
	const inScope = period ? notOnSheet.filter((invoice) => inPeriod(invoice, period)) : notOnSheet;
	const extra = unread ? [] : inScope;
	const summary = reconcileSummary(
		answers,
		extra,
		listing,
		unread ? { withheld: inScope.length, why: unread } : undefined,
	);
	const extraItems = extra.map((invoice) => ({
		invoice,
		json: {
			row: null,
			policy_number: invoice.policy_number ?? null,
			answer: ANSWERS.notOnSheet,
			...invoiceFacts(invoice),
			effective_date: invoice.effective_date ?? null,
			net_premium: invoice.net_premium ?? null,
			...(duplicates.get(String(invoice.id)) ?? {}),
			summary: summary.json,
		} as IDataObject,
	}));
	addDeadlines(answers, rows, extraItems, settings.today);
	const overdue = [...answers.map((a) => a.json), ...extraItems.map((e) => e.json)].filter(
		(json) => {
			const left = (json.deadline as IDataObject | undefined)?.days_left;
			return typeof left === 'number' && left < 0;
		},
	).length;
	summary.json.overdue = overdue;
	const due = settings.dueWithinDays;
	const listed = (json: IDataObject) => due === undefined || dueWithin(json, due);
	run.say({
		message: `${summary.message}${overdue ? ` ${overdue} rows or filings are past their state’s filing deadline (each item’s deadline says by how many days).` : ''}`,
		type: summary.warning ? 'warning' : 'info',
		location: 'outputPane',
	});
	// An invoice no row accounts for belongs to no row: it is paired to the first input item (the
	// sheet's first row stands for the sheet), since pairing it to every row would hold rows ×
	// invoices pairs in memory on a month's sheet.
	return [
		...answers
			.filter(({ json }) => listed(json))
			.map(({ index, json }) => ({
				json: { ...json, summary: summary.json },
				pairedItem: { item: index },
			})),
		...extraItems
			.filter(({ json }) => listed(json))
			.map(({ json }) => ({ json, pairedItem: { item: 0 } })),
	];
}
