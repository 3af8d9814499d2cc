import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { addToErrorItem, errorItem } from '../../../shared/errors';
import { getServiceCredential, requireTier } from '../../../shared/credentials';
import { apiRequest } from '../../../shared/transport';
import { givesChangeDate, rowsAsStored } from '../../../reconcile/accountKind';
import {
	ANSWERS,
	policyKey,
	reconcileRows,
	type RowAnswer,
	type SheetRow,
} from '../../../reconcile/answers';
import {
	planCorrection,
	sentBefore,
	type Correction,
	type CorrectionRequest,
} from '../../../reconcile/corrections';
import type { ListingSettings } from '../../../reconcile/listing';
import { bodyProperties } from './body.description';
import { readRows, readSheetListing } from './reconcile.operation';
import type { Run } from '../../../shared/run';
import { readRunSheet } from '../sheetSettings';
import { budgetShareProperty } from '../../../shared/descriptions';

const properties: INodeProperties[] = [
	{
		displayName:
			'Reads the sheet and the service as Reconcile Sheet does, and for each row filed differently shows the change that makes the service agree with the sheet: an Update of the invoice while the state has not accepted it (status not success), otherwise a cancellation of the accepted filing and the row filed again. Nothing is sent unless Send Corrections is on; a run again sends nothing twice.',
		name: 'correctFilingsNotice',
		type: 'notice',
		default: '',
	},
	...bodyProperties(false),
	{
		displayName: 'Send Corrections',
		name: 'sendCorrections',
		type: 'boolean',
		default: false,
		description:
			'Whether to send the corrections (needs a t2 key). Off: each row’s correction is shown and nothing is sent.',
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
				'Share of the key’s hourly call limit the run’s reading may spend (as in Reconcile Sheet)',
			),
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['correctFilings'] } },
	properties,
);

/** The run's settings, read once at its start. */
export interface CorrectSettings {
	send: boolean;
	/** n8n's On Error → Continue: a row whose correction failed says so and the run goes on. */
	continueOnFail: boolean;
	listing: ListingSettings;
}

function readCorrectSettings(ctx: IExecuteFunctions): CorrectSettings {
	const share = Number(ctx.getNodeParameter('options.budgetShare', 0, 50) ?? 50);
	if (!(share > 0 && share <= 100))
		throw new NodeOperationError(ctx.getNode(), 'Budget Share must be between 1 and 100');
	return {
		send: ctx.getNodeParameter('sendCorrections', 0, false) === true,
		continueOnFail: ctx.continueOnFail(),
		listing: { share: share / 100 },
	};
}

/** What a correction needs of the service: one request sent, its reply's invoice. */
export interface CorrectionService {
	send(request: CorrectionRequest, itemIndex: number): Promise<IDataObject>;
	/** A failure as the error that stops the run, naming its item. */
	failure(error: unknown, itemIndex: number): NodeApiError | NodeOperationError;
}

const requestJson = (request: CorrectionRequest): IDataObject => ({
	method: request.method,
	path: request.path,
	what: request.what,
	body: request.body,
});

/** The row's correction, if it needs one: filed differently, or its filing cancelled and not filed again. */
function correctionFor(answer: RowAnswer, row: SheetRow): Correction | undefined {
	if (!row.body) return undefined;
	const corrected = { row: row.row, body: row.body, mark: row.mark };
	if (answer.differently)
		return planCorrection(
			corrected,
			answer.differently.invoice,
			answer.differently.fields,
			answer.differently.differences,
		);
	if (answer.cancelled) {
		const plan = planCorrection(corrected, { ...answer.cancelled, status: 'success' }, [], []);
		return {
			...plan,
			requests: plan.requests.slice(1),
			said: `Invoice ${String(answer.cancelled.id)} was cancelled by an earlier correction: sheet row ${row.row} is filed again as the sheet says.`,
		};
	}
	return undefined;
}

/**
 * Each row's correction shown, and sent where asked: a POST found on the policy (by its mark) was
 * sent before and is not sent again; an Update is sent as planned (sending it twice changes
 * nothing).
 */
export async function correctRows(
	answers: RowAnswer[],
	rows: SheetRow[],
	listed: Map<string, IDataObject[]>,
	settings: CorrectSettings,
	service: CorrectionService,
): Promise<Array<{ index: number; json: IDataObject; error?: Error }>> {
	const byIndex = new Map(rows.map((row) => [row.index, row]));
	const out: Array<{ index: number; json: IDataObject; error?: Error }> = [];
	for (const answer of answers) {
		const row = byIndex.get(answer.index)!;
		const json: IDataObject = { ...answer.json };
		const correction = correctionFor(answer, row);
		if (!correction) {
			json.correction = null;
			out.push({ index: answer.index, json });
			continue;
		}
		json.correction = {
			action: correction.action,
			invoice_id: correction.invoiceId,
			said: correction.said,
			requests: correction.requests.map(requestJson),
			sent: false,
		};
		if (!settings.send) {
			json.note = `${correction.said} Not sent: turn on Send Corrections to send it.`;
			out.push({ index: answer.index, json });
			continue;
		}
		const policy = listed.get(policyKey(row.policy)) ?? [];
		const results: IDataObject[] = [];
		let failed: Error | undefined;
		for (const request of correction.requests) {
			const before = sentBefore(request, policy);
			if (before) {
				results.push({ what: request.what, outcome: 'sent before', invoice_id: before.id ?? null });
				continue;
			}
			try {
				const invoice = await service.send(request, answer.index);
				results.push({
					what: request.what,
					outcome: 'sent',
					invoice_id: invoice.id ?? null,
					status: invoice.status ?? null,
				});
			} catch (error) {
				if (!settings.continueOnFail) throw service.failure(error, answer.index);
				results.push({ what: request.what, outcome: 'failed', error: (error as Error).message });
				failed = service.failure(error, answer.index);
				json.note = `${request.what} failed: ${(error as Error).message}. Run Correct Filings again: what was sent is found on the policy by its mark and not sent twice.`;
				break;
			}
		}
		json.correction = {
			...(json.correction as IDataObject),
			sent: results.every((r) => r.outcome !== 'failed'),
			results,
		};
		if (!failed) json.note = correction.said;
		out.push({ index: answer.index, json, ...(failed ? { error: failed } : {}) });
	}
	return out;
}

/** The service a correction is sent to: the one transport, a lost reply never resent. */
function serviceOf(ctx: IExecuteFunctions): CorrectionService {
	return {
		async send(request, itemIndex) {
			// A run again finds what a lost reply's request stored, by its mark: never resent blindly.
			const reply = await apiRequest.call(ctx, {
				method: request.method,
				path: request.path,
				body: request.body,
				itemIndex,
				retry: false,
				...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
			});
			return (reply.data ?? {}) as IDataObject;
		},
		failure(error, itemIndex) {
			if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
			return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		},
	};
}

/** All rows at once, as Reconcile Sheet reads them. */
export async function executeAll(this: IExecuteFunctions, run: Run): Promise<INodeExecutionData[]> {
	const settings = readCorrectSettings(this);
	if (settings.send)
		requireTier(this, await getServiceCredential(this, 0), 't2', 'Send corrections', 0);
	readRunSheet(this, run);
	const read = readRows(this, run);
	const rows = givesChangeDate(read)
		? rowsAsStored(read, (await run.service.me(0)).features)
		: read;
	const policies = new Map<string, string>();
	for (const row of rows) if (row.policy) policies.set(policyKey(row.policy), row.policy);
	const listing = await readSheetListing(this, policies, settings.listing);
	const { rows: answers } = reconcileRows(rows, listing.byPolicy, listing.extra);
	const out = await correctRows(answers, rows, listing.byPolicy, settings, serviceOf(this));
	const planned = out.filter((o) => o.json.correction).length;
	const notRead = answers.filter((a) => a.json.answer === ANSWERS.notRead).length;
	run.say({
		message: `${planned} rows to correct${settings.send ? ', corrections sent (those sent before were not sent again)' : ': nothing sent (Send Corrections is off)'}.${notRead ? ` ${notRead} rows not read yet: run again.` : ''}`,
		type: planned ? 'warning' : 'info',
		location: 'outputPane',
	});
	// A row whose correction failed is an error item (On Error → Continue, or its error output),
	// with what was sent before the failure and the advice to run again.
	return out.map(({ index, json, error }) => {
		if (!error) return { json, pairedItem: { item: index } };
		const item = errorItem(error, index, this.getNode());
		addToErrorItem(item, json);
		return item;
	});
}
