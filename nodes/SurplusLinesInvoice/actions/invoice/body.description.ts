/**
 * The invoice body in the UI, shared by Create, Create Many, Preview and Update: an input mode
 * (Fields or JSON), the six required fields, optional fields and the repeating groups. Names map
 * to request fields in the sheet reader (`nodes/sheet/`).
 */
import type { INodeProperties } from 'n8n-workflow';

import { FOLDED_GROUPS } from '../../../sheet/foldedGroups';

const CHANGE_NOTE =
	'For an endorsement or cancellation this is the amount of the change; negative when premium is returned.';

/** An amount's description followed by what it means on an endorsement or cancellation. */
const withChangeNote = (text: string) => `${text} ${CHANGE_NOTE}`;

const inputModeProperty: INodeProperties = {
	displayName: 'Input',
	name: 'inputMode',
	type: 'options',
	default: 'fields',
	options: [
		{ name: 'Fields', value: 'fields', description: 'Fill in the invoice field by field' },
		{
			name: 'JSON',
			value: 'json',
			description: 'One expression giving the whole request body (fits spreadsheet rows)',
		},
	],
};

/** Create, Create Many and Preview also take a sheet's columns, or the item itself. */
const inputModeFullProperty: INodeProperties = {
	...inputModeProperty,
	options: [
		...(inputModeProperty.options ?? []).slice(0, 1),
		{
			name: 'Input Item As Is',
			value: 'inputItem',
			description:
				'Each input item already is the request body, with the service’s field names (fastest for many rows)',
		},
		...(inputModeProperty.options ?? []).slice(1),
		{
			name: 'Map Columns',
			value: 'columns',
			description:
				'Each input item is a sheet row: its columns are matched to the invoice fields, with no expression',
		},
	],
};

const columnsOnly = { show: { inputMode: ['columns'] } };

/** The user doc on reading sheets, as the repository serves it (the notice links to it). */
const READING_SHEETS_DOC =
	'https://github.com/n8n-nodes-surplus-lines/n8n-nodes-surplus-lines/blob/main/docs/reading-sheets.md';

/**
 * Map Columns: n8n's resource mapper over the flat columns of `shared/invoiceColumns.ts`. Map
 * Automatically matches a row's own column names, sheet aliases included; `../../body.ts` reads
 * both modes.
 */
const columnsProperties: INodeProperties[] = [
	{
		displayName:
			'Map Automatically takes a column as an invoice field when its header is the field’s name or a header bordereaux use for it (Policy #, Insured Name, State, Premium, Eff Date, Exp Date, Type, NAIC, Policy Fee, SL Tax…): those count as named the same, as n8n’s note below asks. Rename only a header the node does not know, with Edit Fields, or set its field under Map Each Column Manually. A header that could mean two fields, or a value that cannot be read, refuses the row naming the column. Invoice → Check Sheet shows how every row reads, with no call. <a href="' +
			READING_SHEETS_DOC +
			'" target="_blank">Every header, value form and rule</a>.',
		name: 'columnsNotice',
		type: 'notice',
		default: '',
		displayOptions: columnsOnly,
	},
	{
		displayName: 'Columns',
		name: 'columns',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'autoMapInputData', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['inputMode'],
			resourceMapper: {
				resourceMapperMethod: 'getInvoiceColumns',
				mode: 'add',
				fieldWords: { singular: 'invoice field', plural: 'invoice fields' },
				addAllFields: false,
				multiKeyMatch: false,
				supportAutoMap: true,
			},
		},
		displayOptions: columnsOnly,
	},
	{
		displayName: 'Columns Not to File',
		name: 'columnsLeftOut',
		type: 'string',
		default: '',
		placeholder: 'e.g. Retail Agent Fee, Earned Premium',
		description:
			'Map Automatically: headers of the sheet to leave out, as written, separated by commas. A column the node does not read whose header names money, a tax, a fee, a premium or a date, or whose value is an amount, refuses the row unless it is named here; a column named here is not read and is listed in _ignoredColumns.',
		displayOptions: columnsOnly,
	},
	{
		displayName: 'Dates in the Sheet',
		name: 'sheetDateOrder',
		type: 'options',
		default: 'sheet',
		options: [
			{
				name: 'As the Sheet Shows Them',
				value: 'sheet',
				description:
					'A date that reads both ways (03/04/2026) takes the order another date of the sheet proves (30/04/2026: day first); where none does, version 4 refuses the row and earlier versions read it month first, saying so',
			},
			{ name: 'Month First (03/04/2026 Is March 4)', value: 'monthFirst' },
			{ name: 'Day First (03/04/2026 Is April 3)', value: 'dayFirst' },
		],
		description:
			'Map Automatically: the order of the sheet’s slashed dates. A date that cannot be read in the order chosen (30/04/2026 month first) refuses its row.',
		displayOptions: columnsOnly,
	},
];

const jsonBodyFull: INodeProperties = {
	displayName: 'Invoice JSON',
	name: 'invoiceJson',
	type: 'json',
	default:
		'{\n  "policy_number": "",\n  "insured_name": "",\n  "state_code": "TX",\n  "net_premium": 0,\n  "effective_date": "2026-01-01",\n  "expiration_date": "2027-01-01"\n}',
	required: true,
	displayOptions: { show: { inputMode: ['json'] } },
	description:
		'The request body with the service’s field names (policy_number, insured_name, state_code, net_premium, effective_date, expiration_date, …). Checked locally before the call. For an endorsement or cancellation, amounts are the change and may be negative.',
};

const jsonBodyPartial: INodeProperties = {
	...jsonBodyFull,
	// Empty on purpose: a sample value here would be sent as a real change if left in place.
	default: '{}',
	description:
		'Only the fields to change, with the service’s field names (e.g. {"net_premium": 1250.00}); fields sent replace the stored ones',
};

const jsonBodyProperty = (partial: boolean): INodeProperties =>
	partial ? jsonBodyPartial : jsonBodyFull;

/** The six required fields; `optional` for Update (where they live in a collection). */
function requiredFieldProperties(optional: boolean): INodeProperties[] {
	const req = !optional;
	return [
		{
			displayName: 'Policy Number',
			name: 'policyNumber',
			type: 'string',
			default: '',
			required: req,
			description: 'Same value on every transaction of a policy; links them',
		},
		{
			displayName: 'Insured Name',
			name: 'insuredName',
			type: 'string',
			default: '',
			required: req,
		},
		{
			displayName: 'State Name or ID',
			name: 'stateCode',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getStates' },
			default: '',
			required: req,
			description:
				'Two-letter state code (50 states and DC). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Net Premium',
			name: 'netPremium',
			type: 'number',
			typeOptions: { numberPrecision: 2 },
			default: 0,
			required: req,
			description: withChangeNote('Premium of the transaction.'),
		},
		{
			displayName: 'Effective Date',
			name: 'effectiveDate',
			type: 'dateTime',
			default: '',
			required: req,
			description:
				'Start of the policy term; for an endorsement or cancellation the date of the change (unless Transaction Effective Date is set)',
		},
		{
			displayName: 'Expiration Date',
			name: 'expirationDate',
			type: 'dateTime',
			default: '',
			required: req,
			description: 'The policy’s expiration date',
		},
	];
}

/** The line of business picker, on the invoice and on each insurer group. */
function lobIdProperty(): INodeProperties {
	return {
		displayName: 'Line of Business Name or ID',
		name: 'lobId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getLinesOfBusiness' },
		default: '',
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	};
}

const optionalFieldOptions: INodeProperties[] = [
	{
		displayName: 'Class Code',
		name: 'classCode',
		type: 'string',
		default: '',
		description:
			'If the state holds no such class code, the invoice is stored without it and a warning is returned',
	},
	{
		displayName: 'Commission',
		name: 'commission',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
	},
	{
		displayName: 'Invoice Date',
		name: 'invoiceDate',
		type: 'dateTime',
		default: '',
		description: 'Defaults to the effective date',
	},
	{
		displayName: 'Invoice Number',
		name: 'invoiceNumber',
		type: 'string',
		default: '',
		description: 'Your own reference',
	},
	lobIdProperty(),
	{
		displayName: 'Line of Business Name (If Not Listed)',
		name: 'lobName',
		type: 'string',
		default: '',
		description:
			'Used when no line of business ID is set (accounts with the new features); an unknown name stores the invoice without one and adds a warning',
	},
	{
		displayName: 'Policy Limit',
		name: 'policyLimit',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'Must not be negative',
	},
	{
		displayName: 'Transaction Effective Date',
		name: 'transactionEffectiveDate',
		type: 'dateTime',
		default: '',
		description:
			'Endorsement or cancellation on accounts with the new features: the date of the change, while Effective and Expiration Date hold the policy term',
	},
];

/**
 * The transaction type. Top-level in Create, Create Many and Preview, next to Policy Number, since
 * it decides whether amounts are the change (and may be negative); in Update it is one of the
 * optional fields. `../../body.ts` still reads it from Additional Fields for older workflows.
 */
const typeCodeProperty: INodeProperties = {
	displayName: 'Type',
	name: 'typeCode',
	type: 'options',
	default: 'NEW',
	options: [
		{ name: 'New', value: 'NEW' },
		{ name: 'Renewal', value: 'RENEWAL' },
		{
			name: 'Endorsement',
			value: 'ENDORSEMENT',
			description: 'Amounts are the change and may be negative',
		},
		{
			name: 'Cancellation',
			value: 'CANCELLATION',
			description: 'Amounts are the change; returned premium is negative',
		},
	],
	description: 'Audits, reinstatements and rewrites cannot be sent',
};

/**
 * Type where older workflows kept it, in Additional Fields. n8n drops collection values that
 * match no option, so the option stays; it shows only in a workflow that already has it set, and
 * cannot be added anew. `../../body.ts` sends it instead of the top-level Type.
 */
const legacyTypeCodeOption: INodeProperties = {
	...typeCodeProperty,
	displayName: 'Type (Set in an Older Version)',
	description: 'Used instead of Type above; remove this field to use Type above',
	displayOptions: { show: { typeCode: [{ _cnd: { exists: true } }] } },
};

/**
 * The insurer's company ID: searched by name or NAIC code, or typed. Read in `../../body.ts`,
 * which also takes the plain number older workflows stored here.
 */
const companyIdProperty: INodeProperties = {
	displayName: 'Company',
	name: 'companyId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	displayOptions: { show: { identifyBy: ['companyId'] } },
	description: 'The service’s company ID',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Type a company name or NAIC code…',
			typeOptions: {
				searchListMethod: 'searchCompanies',
				searchable: true,
				searchFilterRequired: true,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 301',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\d+$', errorMessage: 'A company ID is a whole number' },
				},
			],
		},
	],
};

const companyFields = (shareNote: string): INodeProperties[] => [
	{
		displayName: 'Find Company By',
		name: 'identifyBy',
		type: 'options',
		default: 'companyId',
		options: [
			// The first choice's value stays companyId (saved workflows); its name says what the field does.
			{
				name: 'Search (Name or NAIC) or Company ID',
				value: 'companyId',
				description:
					'Pick the company from the service’s list by name or NAIC code, or give its ID; every account',
			},
			{
				name: 'NAIC Code, Looked Up When Filed',
				value: 'naic',
				description: 'Accounts with the new features only',
			},
			{
				name: 'Company Name, Looked Up When Filed',
				value: 'companyName',
				description: 'Accounts with the new features only',
			},
		],
	},
	companyIdProperty,
	{
		displayName: 'NAIC Code',
		name: 'naic',
		type: 'string',
		default: '',
		displayOptions: { show: { identifyBy: ['naic'] } },
	},
	{
		displayName: 'Company Name',
		name: 'companyName',
		type: 'string',
		default: '',
		displayOptions: { show: { identifyBy: ['companyName'] } },
	},
	{
		displayName: 'Share',
		name: 'shareBy',
		type: 'options',
		default: 'percent',
		options: [
			{ name: 'Percent', value: 'percent' },
			{ name: 'Amount', value: 'amount' },
			{
				name: 'Whole (Sole Insurer)',
				value: 'whole',
				description: 'A single insurer without a percent takes 100%',
			},
		],
		description: shareNote,
	},
	{
		displayName: 'Percent',
		name: 'percent',
		type: 'number',
		default: 100,
		displayOptions: { show: { shareBy: ['percent'] } },
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
		displayOptions: { show: { shareBy: ['amount'] } },
		description: CHANGE_NOTE,
	},
];

const collectionProperties: INodeProperties[] = [
	{
		displayName: 'Insured Address',
		name: 'insuredAddress',
		type: 'fixedCollection',
		default: {},
		placeholder: 'Add Address',
		options: [
			{
				displayName: 'Address',
				name: 'address',
				values: [
					{ displayName: 'Line 1', name: 'line1', type: 'string', default: '' },
					{ displayName: 'Line 2', name: 'line2', type: 'string', default: '' },
					{ displayName: 'City', name: 'city', type: 'string', default: '' },
					{ displayName: 'ZIP', name: 'zip', type: 'string', default: '' },
					{
						displayName: 'Address Type',
						name: 'typeId',
						type: 'options',
						default: 2,
						options: [
							{ name: 'Garaging', value: 2 },
							{ name: 'Billing', value: 1 },
						],
						description: 'The state comes from State',
					},
				],
			},
		],
	},
	{
		displayName: 'Coverages',
		name: 'coverages',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Coverage',
		options: [
			{
				displayName: 'Coverage',
				name: 'coverage',
				values: [
					{
						displayName: 'Code',
						name: 'code',
						type: 'string',
						default: '',
						placeholder: 'GL',
						description:
							'A listed coverage code (Reference node: Coverages) or your own code with a title',
					},
					{ displayName: 'Title', name: 'title', type: 'string', default: '' },
					{
						displayName: 'Amount',
						name: 'amount',
						type: 'number',
						typeOptions: { numberPrecision: 2 },
						default: 0,
						description: withChangeNote('Coverage premium.'),
					},
					{
						displayName: 'Limits',
						name: 'limits',
						type: 'fixedCollection',
						typeOptions: { multipleValues: true },
						default: {},
						placeholder: 'Add Limit',
						description: 'Their premiums must sum to the coverage amount',
						options: [
							{
								displayName: 'Limit',
								name: 'limit',
								values: [
									{
										displayName: 'Premium',
										name: 'premium',
										type: 'number',
										typeOptions: { numberPrecision: 2 },
										default: 0,
									},
								],
							},
						],
					},
				],
			},
		],
	},
	{
		displayName: 'Insurers',
		name: 'insurers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Insurer',
		options: [
			{
				displayName: 'Insurer',
				name: 'insurer',
				values: companyFields('Share of the net premium'),
			},
		],
	},
	{
		displayName: 'Insurer Groups by Line of Business',
		name: 'insurerGroups',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Group',
		description:
			'Group amounts must sum to the net premium within 1 cent. Sent after the insurers above, in insurers[].',
		options: [
			{
				displayName: 'Group',
				name: 'group',
				values: [
					lobIdProperty(),
					{
						displayName: 'Line of Business Name (If Not Listed)',
						name: 'lobName',
						type: 'string',
						default: '',
						description: 'Used when no ID is set (accounts with the new features)',
					},
					{
						displayName: 'Amount',
						name: 'amount',
						type: 'number',
						typeOptions: { numberPrecision: 2 },
						default: 0,
						required: true,
						description: withChangeNote('The group’s premium.'),
					},
					{
						displayName: 'Companies',
						name: 'companies',
						type: 'fixedCollection',
						typeOptions: { multipleValues: true },
						default: {},
						placeholder: 'Add Company',
						options: [
							{
								displayName: 'Company',
								name: 'company',
								values: companyFields('Share of the group amount'),
							},
						],
					},
				],
			},
		],
	},
	{
		displayName: 'Fees and Taxes',
		name: 'fees',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Fee',
		description:
			'Up to 25; stored as sent (create computes no tax). Send only one code of an alias pair.',
		options: [
			{
				displayName: 'Fee',
				name: 'fee',
				values: [
					{
						displayName: 'Type Name or ID',
						name: 'type',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getInvoiceFeeTypes' },
						default: '',
						description:
							'Fee or tax code. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Amount',
						name: 'amount',
						type: 'number',
						typeOptions: { numberPrecision: 2 },
						default: 0,
						description: CHANGE_NOTE,
					},
				],
			},
		],
	},
	{
		displayName: 'Documents',
		name: 'documents',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Document',
		description: 'Up to 10 references to files in your own document store',
		options: [
			{
				displayName: 'Document',
				name: 'document',
				values: [
					{
						displayName: 'Type Name or ID',
						name: 'type',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getDocumentTypes' },
						default: '',
						description:
							'Letters, digits, underscore or hyphen, at most 50 characters. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Document UUID',
						name: 'docUUID',
						type: 'string',
						default: '',
						description: 'Your document store’s ID for the file (at most 256 characters)',
					},
					{ displayName: 'File Name', name: 'filename', type: 'string', default: '' },
					{
						displayName: 'MIME Type',
						name: 'mimeType',
						type: 'options',
						default: '',
						options: [
							{ name: '(Not Set)', value: '' },
							{ name: 'JPEG', value: 'image/jpeg' },
							{ name: 'JPG', value: 'image/jpg' },
							{ name: 'PDF', value: 'application/pdf' },
							{ name: 'PNG', value: 'image/png' },
						],
					},
				],
			},
		],
	},
];

const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether to return only ID, policy, type, status, filed, state, premium, fees total, warnings and, where the account reports it, the state’s answer to the filing (filing_state, confirmation_number, filing_message) instead of the whole invoice',
};

/** Simplify, worded as the node's version shows the service's `filed` (output.ts, InvoiceView). */
export const simplifyProperties: INodeProperties[] = [
	{ ...simplifyProperty, displayOptions: { show: { '@version': [1, 2] } } },
	{
		...simplifyProperty,
		description:
			'Whether to return only ID, policy, type, status, sent_to_state (true once the service has sent the invoice to the state), state, premium, fees total, warnings and, where the account reports it, the state’s answer to the filing (filing_state, confirmation_number, filing_message) instead of the whole invoice',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 3 } }] } },
	},
];

const idempotencyMode: INodeProperties = {
	displayName: 'Idempotency',
	name: 'idempotency',
	type: 'options',
	default: 'derived',
	options: [
		{
			name: 'Derived From the Invoice',
			value: 'derived',
			description:
				'The same invoice sent again (a re-run, Retry On Fail) returns the first filing instead of a second one, for 24 hours',
		},
		{
			name: 'Own Key',
			value: 'own',
			description: 'Your own key, at most 255 characters, no spaces',
		},
		{ name: 'Off', value: 'off', description: 'Every run files a new invoice' },
	],
	description:
		'Whether to send an Idempotency-Key (accounts with the idempotency feature honour it). A replayed filing is marked _replayed: true.',
};

const idempotencyKey: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	required: true,
	description: 'One key per invoice, e.g. from your own row ID',
};

/** Idempotency for Create and Create Many in workflows saved with version 1: on the main panel. */
export const idempotencyProperties: INodeProperties[] = [
	{ ...idempotencyMode, displayOptions: { show: { '@version': [1] } } },
	{
		...idempotencyKey,
		displayOptions: { show: { '@version': [1], idempotency: ['own'] } },
	},
];

/**
 * From version 2 the same two settings are Options entries (the safe default needs no attention).
 * Inside a collection n8n resolves displayOptions against the collection's own values, so the key
 * is offered once Idempotency is set to Own Key (n8n-workflow getNodeParameters, editor alike).
 */
export const idempotencyOptions: INodeProperties[] = [
	{ ...idempotencyMode, displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } } },
	{
		...idempotencyKey,
		description: 'One key per invoice, e.g. from your own row ID; used when Idempotency is Own Key',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }], idempotency: ['own'] } },
	},
];

const byName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);
const fieldsOnly = { show: { inputMode: ['fields'] } };
const fromVersion2 = { '@version': [{ _cnd: { gte: 2 } }] };


const isFolded = (p: INodeProperties) => FOLDED_GROUPS.includes(p.name);
const foldedGroupOptions: INodeProperties[] = collectionProperties
	.filter(isFolded)
	.map((p) => ({ ...p, displayOptions: { show: fromVersion2 } }));
const fieldsInVersion1 = { show: { ...fieldsOnly.show, '@version': [1] } };

/** The required fields with Type right after Policy Number. */
function withTypeAfterPolicyNumber(required: INodeProperties[]): INodeProperties[] {
	const [policyNumber, ...rest] = required;
	return [policyNumber, typeCodeProperty, ...rest];
}

/** The whole body input of an operation: mode, JSON, or the fields and groups. */
export function bodyProperties(partial: boolean): INodeProperties[] {
	const fields: INodeProperties[] = partial
		? [
				{
					displayName: 'Update Fields',
					name: 'updateFields',
					type: 'collection',
					placeholder: 'Add Field',
					default: {},
					description: 'Fields sent replace the stored ones; fields left out keep theirs',
					options: [
						...requiredFieldProperties(true),
						...optionalFieldOptions,
						typeCodeProperty,
						...foldedGroupOptions,
					].sort(byName),
				},
			]
		: [
				...withTypeAfterPolicyNumber(requiredFieldProperties(false)),
				{
					displayName: 'Additional Fields',
					name: 'additionalFields',
					type: 'collection',
					placeholder: 'Add Field',
					default: {},
					options: [...optionalFieldOptions, legacyTypeCodeOption, ...foldedGroupOptions].sort(
						byName,
					),
				},
			];
	return [
		partial ? inputModeProperty : inputModeFullProperty,
		jsonBodyProperty(partial),
		...(partial ? [] : columnsProperties),
		...[...fields, ...collectionProperties].map((p) => ({
			...p,
			displayOptions: isFolded(p) ? fieldsInVersion1 : fieldsOnly,
		})),
	];
}
