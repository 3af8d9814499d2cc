import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './credentials';

/**
 * What every action node's description shares. The icon, subtitle and usableAsTool stay written
 * in each node class: n8n's lint reads them from there.
 */
export const actionNodeBase = {
	version: 1,
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: [{ name: CREDENTIAL_TYPE, required: true }],
} satisfies Partial<INodeTypeDescription>;

export const operationSubtitle = '={{$parameter["operation"] + ": " + $parameter["resource"]}}';

/**
 * The Resource parameter every action node starts with. With one resource (Invoice, Document,
 * Calculator) a dropdown of one choice is noise, so it is hidden; it stays a parameter with its
 * options for saved workflows, the router and n8n's node creator (which lists actions by resource).
 */
export function resourceProperty(
	options: Array<{ name: string; value: string }>,
	defaultValue = options[0].value,
): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: options.length === 1 ? 'hidden' : 'options',
		noDataExpression: true,
		options,
		default: defaultValue,
	};
}

/** Transport settings every action node offers; read by the transport as `requestOptions`. */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 25,
			description:
				'The most items sent to the service at the same time; 1 sends items one by one. Not set: until the key’s budget is known, 25 (an operation that only reads: a quarter of the tier’s hourly calls, up to 200), then a quarter of the calls its hourly window has left, from 25 up to 200. All items share the key’s hourly limit.',
		},
		{
			displayName: 'Max Rate-Limit Wait (Seconds)',
			name: 'maxRateLimitWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description:
				'How long the node may wait in total when the key’s hourly limit is reached (HTTP 429) before it fails the item with the reset time',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30,
			description: 'How long to wait for a reply before treating the call as lost',
		},
	],
};

/** Invoice ID as a resource locator: search a policy's transactions, or type the id. */
export function invoiceIdProperty(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Invoice',
		name: 'invoiceId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			'Search a policy’s transactions by policy number, or give the service’s invoice ID',
		// n8n 2.8.4 shows loading placeholders, not its "enter a search term" hint, while a list that
		// requires a search term has none; so the list opens empty (no call) and this hint says what to type.
		hint: 'From Policy: type a policy number in the search box to list its transactions, newest first',
		modes: [
			{
				displayName: 'From Policy',
				name: 'list',
				type: 'list',
				placeholder: 'Type a policy number…',
				typeOptions: {
					searchListMethod: 'searchInvoices',
					searchable: true,
				},
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 1042',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\d+$',
							errorMessage: 'An invoice ID is a whole number',
						},
					},
				],
			},
		],
		...overrides,
	};
}

/** "Return All" and "Limit", as n8n's Get Many operations show them; read with `applyLimit` (params.ts). */
export function returnAllProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** A run's or a look's share of the key's hourly call limit (Reconcile, Correct Filings, the watch list, the trigger). */
export function budgetShareProperty(defaultPercent: number, description: string): INodeProperties {
	return {
		displayName: 'Budget Share (%)',
		name: 'budgetShare',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 100 },
		default: defaultPercent,
		description,
	};
}
