import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inputError } from '../../../shared/errors';
import { PATHS } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';
import { zodIssueLines } from '../../../shared/zodIssues';
import { explainForbidden } from '../../forbidden';
import type { Run } from '../../../shared/run';
import { forAssistant, perLineItem, simplify } from '../../output';
import { dateOnly } from '../../../shared/dates';
import { estimateInput } from '../../validation';

const properties: INodeProperties[] = [
	{
		displayName: 'State Name or ID',
		name: 'state',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getStates' },
		required: true,
		default: '',
		description:
			'The state whose taxes apply (50 states and DC). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Premium',
		name: 'premium',
		type: 'number',
		typeOptions: { minValue: 0.01, numberPrecision: 2 },
		required: true,
		default: 0.01,
		description:
			'Policy premium, at least 0.01. For returned premium use an invoice preview instead.',
	},
	{
		displayName: 'Fees',
		name: 'feesMode',
		type: 'options',
		default: 'total',
		options: [
			{
				name: 'Policy Fees Total',
				value: 'total',
				description: 'One amount; some states include it in the tax base',
			},
			{
				name: 'Itemized Fees',
				value: 'itemized',
				description: 'Each fee by code, so the tax base follows the state’s rule per fee category',
			},
		],
	},
	{
		displayName: 'Policy Fees',
		name: 'policyFees',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		displayOptions: { show: { feesMode: ['total'] } },
	},
	{
		displayName: 'Itemized Fees',
		name: 'fees',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Fee',
		default: {},
		description:
			'At most 15. Only policy fee, inspection, broker and pass-through codes: the calculator computes the taxes.',
		displayOptions: { show: { feesMode: ['itemized'] } },
		options: [
			{
				displayName: 'Fee',
				name: 'fee',
				values: [
					{
						displayName: 'Code Name or ID',
						name: 'type',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getCalculatorFeeTypes' },
						default: '',
						description:
							'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					},
					{
						displayName: 'Amount',
						name: 'amount',
						type: 'number',
						typeOptions: { numberPrecision: 2 },
						default: 0,
					},
				],
			},
		],
	},
	{
		displayName: 'Effective Date',
		name: 'effectiveDate',
		type: 'dateTime',
		default: '',
		description:
			'Date whose rates apply; past dates give historical figures. Leave empty for today (the service’s date, US Central time).',
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'simplified',
		options: [
			{
				name: 'Simplified',
				value: 'simplified',
				description:
					'One row: state, premium, tax base, each tax or fee code with its amount, totals',
			},
			{
				name: 'Full Result',
				value: 'full',
				description: 'The service’s whole reply, with rates, rounding, notes and disclaimer',
			},
			{
				name: 'For an AI Assistant',
				value: 'assistant',
				description:
					'One compact item a model can read and quote: each line with its rate and amount, totals, state notes and the service’s disclaimer',
			},
			{
				name: 'One Item per Line Item',
				value: 'lineItems',
				description: 'A row for each tax or fee line, for spreadsheets',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tax'], operation: ['estimate'] } },
	properties,
);

function readBody(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	// Raw values: the schema reads them (state names, amounts as text) and names what it refuses.
	const body: IDataObject = {
		state: ctx.getNodeParameter('state', itemIndex) as string,
		premium: ctx.getNodeParameter('premium', itemIndex) as number,
	};
	if (ctx.getNodeParameter('feesMode', itemIndex, 'total') === 'itemized') {
		const fees = ctx.getNodeParameter('fees.fee', itemIndex, []) as IDataObject[];
		body.fees = fees.map((fee) => ({
			type: typeof fee.type === 'string' ? fee.type.trim() : fee.type,
			amount: fee.amount,
		}));
	} else {
		body.policy_fees = ctx.getNodeParameter('policyFees', itemIndex, 0) as number;
	}
	const date = dateOnly(ctx.getNodeParameter('effectiveDate', itemIndex, ''));
	if (date !== undefined) body.effective_date = date;
	return body;
}

export const onlyReads = true;

/** POST /calculator/estimate: changes nothing, so it is safe to resend after a lost reply. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: Run,
): Promise<INodeExecutionData[]> {
	const raw = readBody(this, itemIndex);
	const parsed = estimateInput.safeParse(raw);
	if (!parsed.success) {
		const labels = {
			state: 'State',
			premium: 'Premium',
			policy_fees: 'Policy Fees',
			fees: 'fees',
			effective_date: 'Effective Date',
		};
		throw inputError(this, zodIssueLines(parsed.error, raw, labels), { itemIndex });
	}
	let result: IDataObject;
	try {
		const reply = await apiRequest.call(this, {
			method: 'POST',
			path: PATHS.calculatorEstimate,
			body: parsed.data as IDataObject,
			readOnly: true,
			itemIndex,
		});
		result = reply.data as IDataObject;
	} catch (error) {
		throw await explainForbidden(run, error, itemIndex);
	}
	const output = this.getNodeParameter('output', itemIndex, 'simplified') as string;
	if (output === 'full') return [{ json: result }];
	if (output === 'lineItems') return perLineItem(result).map((json) => ({ json }));
	if (output === 'assistant') return [{ json: forAssistant(result) }];
	return [{ json: simplify(result) }];
}
