import type { INodeProperties } from 'n8n-workflow';

import {
	DOCUMENT_FETCH_STATUSES,
	FILING_STATES,
	HOURLY_CALL_LIMITS,
	INVOICE_STATUSES,
} from '../shared/rules';
import { budgetShareProperty } from '../shared/descriptions';

const options = (values: readonly string[]) => values.map((value) => ({ name: value, value }));

/** Shown at the top of the node: how polling spends the key's hourly calls. */
const budgetNotice: INodeProperties = {
	displayName:
		'Each poll uses at most Budget Share (default 25%) of the key’s hourly call limit. One invoice ID costs 1 call a poll; one policy number costs 1 call per 100 transactions and covers them all. Fetch Test Event shows the figures in each item’s "budget" field.',
	name: 'budgetNotice',
	type: 'notice',
	default: '',
};

export const triggerProperties: INodeProperties[] = [
	budgetNotice,
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['invoiceStatus', 'filingState'],
		options: [
			{
				name: 'Document Fetch Status Changed',
				value: 'documentFetchStatus',
				description: 'A supporting document moved between pending, fetching, fetched and failed',
			},
			{
				name: 'Filing State Changed',
				value: 'filingState',
				description: 'The state’s answer on the filing changed (accounts with the filing feature)',
			},
			{
				name: 'Invoice Status Changed',
				value: 'invoiceStatus',
				description: 'The invoice moved between new, sent, success, error and re-submitted',
			},
			{
				name: 'New Transaction on a Watched Policy',
				value: 'newTransaction',
				description: 'A renewal, endorsement or cancellation appeared on a watched policy number',
			},
		],
	},
	{
		displayName: 'Invoice IDs',
		name: 'invoiceIds',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1042, 1043',
		description:
			'Invoices to watch, separated by commas, spaces or line breaks. Each costs one call when it is read.',
		typeOptions: { rows: 2 },
	},
	{
		displayName: 'Policy Numbers',
		name: 'policyNumbers',
		type: 'string',
		default: '',
		placeholder: 'e.g. POL-2026-001',
		description:
			'Policies to watch, separated by commas or line breaks. One call reads every transaction of a policy (100 a call), so this is the cheapest way to watch many invoices. A transaction that appears later and is already success, error, confirmed, rejected or refused (or has a document fetched or failed) when first read is emitted once with previous null and first_seen true.',
		typeOptions: { rows: 2 },
	},
	{
		displayName: 'Only These Statuses',
		name: 'statusValues',
		type: 'multiOptions',
		default: [],
		options: options(INVOICE_STATUSES),
		description:
			'Emit a status change only when the new status is one of these. Empty: every status.',
		displayOptions: { show: { events: ['invoiceStatus'] } },
	},
	{
		displayName: 'Only These Filing States',
		name: 'filingValues',
		type: 'multiOptions',
		default: [],
		options: options(FILING_STATES),
		description:
			'Emit a filing change only when the new state is one of these (for example only rejected). Empty: every state.',
		displayOptions: { show: { events: ['filingState'] } },
	},
	{
		displayName: 'Only These Document Statuses',
		name: 'documentValues',
		type: 'multiOptions',
		default: [],
		options: options(DOCUMENT_FETCH_STATUSES),
		description:
			'Emit a document change only when the new fetch status is one of these. Empty: every status.',
		displayOptions: { show: { events: ['documentFetchStatus'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			budgetShareProperty(
				25,
				`Share of the key’s hourly call limit that polling may use; the rest stays for your other workflows. Calls per poll = hourly limit × share ÷ polls per hour, at least 1; when even 1 call a poll would spend more than the share (a schedule in seconds), polls in between are skipped so the share holds. The limit comes from the service’s replies (before the first: t1 ${HOURLY_CALL_LIMITS.t1}, t2 ${HOURLY_CALL_LIMITS.t2}, t3 ${HOURLY_CALL_LIMITS.t3}); watched items are read in turns when one poll cannot cover them, and settled invoices once a day.`,
			),
			{
				displayName: 'Check Settled Items',
				name: 'settledCheck',
				type: 'options',
				default: 'daily',
				options: [
					{
						name: 'Once a Day',
						value: 'daily',
						description: 'Read settled items once a day, in case they move again',
					},
					{
						name: 'Never',
						value: 'never',
						description: 'Stop reading settled items; they cost nothing',
					},
				],
				description:
					'Settled: status success with the filing confirmed (or no filing), or the filing refused, with no document fetch under way; or no change for the days set below, or not found',
			},
			{
				displayName: 'Emit Current State First',
				name: 'emitCurrentState',
				type: 'boolean',
				default: false,
				description:
					'Whether the first poll emits the current values of the watched items once (previous is null); otherwise it only records them and emits nothing',
			},
			{
				displayName: 'Settled After Days Without Change',
				name: 'settledAfterDays',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 30,
				description:
					'An item with no change for this many days counts as settled. 0: never by age.',
			},
		],
	},
];
