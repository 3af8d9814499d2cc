// The service as the project understands it: the service description plus the project's assumptions (docs/assumptions.md). Hand-written so it
// states the contract the nodes rely on; the sandbox's contract tests validate every reply
// against it with ajv, so the two cannot drift apart silently.

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const num: Schema = { type: 'number' };
const bool: Schema = { type: 'boolean' };
const date: Schema = { type: 'string', format: 'date' };
const nullable = (s: Schema): Schema => ({ ...s, nullable: true });
// OpenAPI 3.0 allows no siblings next to $ref, so a nullable reference is "the object or null".
const nullableRef = (name: string): Schema => ({ anyOf: [ref(name), { type: 'object', nullable: true, enum: [null] }] });
const arr = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
	type: 'object',
	required,
	properties,
});
const centralTime: Schema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', description: 'US Central, no zone' };

const schemas: Record<string, Schema> = {
	Meta: obj({
		timestamp: { type: 'string', format: 'date-time' },
		request_id: { type: 'string', pattern: '^req_[A-Za-z0-9]+$' },
		response_time_ms: { type: 'integer', minimum: 0 },
	}),
	Error: obj(
		{
			code: {
				type: 'string',
				enum: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'TIER_REQUIRED', 'NOT_FOUND', 'METHOD_NOT_ALLOWED', 'CONFLICT', 'PAYLOAD_TOO_LARGE', 'VALIDATION_ERROR', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR'],
			},
			message: str,
			details: {
				type: 'object',
				properties: {
					fields: { type: 'object', additionalProperties: arr(str), description: 'field name to messages (422)' },
					invoice_id: { ...int, description: 'kept rejected invoice (some accounts)' },
				},
			},
		},
		['code', 'message', 'details'],
	),
	ErrorEnvelope: obj({ success: { type: 'boolean', enum: [false] }, error: ref('Error'), meta: ref('Meta') }),
	StateRef: obj({ id: int, code: { type: 'string', minLength: 2, maxLength: 2 }, name: str }),
	Filing: obj({
		state_status: { type: 'string', enum: ['not_sent', 'sent', 'accepted', 'confirmed', 'rejected', 'refused'] },
		updated_at: nullable(str),
		confirmation_number: nullable(str),
		submission_number: nullable(str),
		message: nullable(str),
		api_error: nullable(str),
	}),
	Document: obj({
		id: int,
		doc_type: str,
		file_name: str,
		mime_type: nullable(str),
		file_size: nullable(int),
		is_excluded: bool,
		external_doc_uuid: nullable(str),
		fetch_status: { type: 'string', enum: ['pending', 'fetching', 'fetched', 'failed', 'none'] },
		url: nullable({ type: 'string', format: 'uri', description: 'valid 60 minutes; do not store' }),
		url_expires_in_seconds: nullable(int),
		added: str,
	}),
	Invoice: obj(
		{
			id: int,
			policy_number: str,
			invoice_number: nullable(str),
			invoice_date: date,
			insured_name: str,
			state: ref('StateRef'),
			type: obj({ id: int, name: { type: 'string', enum: ['New', 'Renewal', 'Endorsement', 'Cancelled'] } }),
			lob: nullable(obj({ id: int, name: str })),
			net_premium: num,
			commission: nullable(num),
			effective_date: date,
			expiration_date: date,
			status: { type: 'string', enum: ['new', 'sent', 'success', 'error', 're-submitted'] },
			filed: bool,
			paid: bool,
			created: centralTime,
			company: nullable(obj({ id: int, name: str })),
			policy_id: int,
			policy_fee: num,
			stamps_fee: num,
			service_fee: num,
			notes: nullable(str),
			fees: arr(obj({ type: str, amount: num })),
			coverages: arr(obj({ code: str, title: str, amount: num })),
			insurers: arr(obj({ company_id: int, name: str, naic: str, percent: nullable(num), amount: nullable(num) })),
			documents: arr(ref('Document')),
			transaction_effective_date: { ...date, description: 'accounts with the new features only' },
			filing: { allOf: [ref('Filing')], description: 'accounts with the new features only' },
			warnings: arr(str),
		},
		['id', 'policy_number', 'invoice_number', 'invoice_date', 'insured_name', 'state', 'type', 'lob', 'net_premium', 'commission', 'effective_date', 'expiration_date', 'status', 'filed', 'paid', 'created', 'company', 'policy_id', 'policy_fee', 'stamps_fee', 'service_fee', 'notes', 'fees', 'coverages', 'insurers', 'documents'],
	),
	FeeLine: obj({ type: str, amount: num }),
	DocumentRef: obj(
		{ type: { type: 'string', maxLength: 50, pattern: '^[A-Za-z0-9_-]+$' }, docUUID: { type: 'string', maxLength: 256 }, filename: { type: 'string', maxLength: 255 }, mime_type: { type: 'string', enum: ['application/pdf', 'image/png', 'image/jpeg', 'image/jpg'] } },
		['type', 'docUUID'],
	),
	InvoiceRequest: obj(
		{
			policy_number: str,
			insured_name: str,
			state_code: { type: 'string', minLength: 2, maxLength: 2 },
			net_premium: num,
			effective_date: date,
			expiration_date: date,
			type_code: { type: 'string', enum: ['NEW', 'RENEWAL', 'ENDORSEMENT', 'CANCELLATION'], default: 'NEW' },
			insured_address: { type: 'object', properties: { line1: str, line2: str, city: str, zip: str, type_id: { type: 'integer', enum: [1, 2], default: 2 } } },
			coverages: arr({ type: 'object', required: ['code', 'amount'], properties: { code: str, title: str, amount: num, limits: arr({ type: 'object', properties: { premium: num } }) } }),
			insurers: arr({
				type: 'object',
				description: 'an insurer, or a line-of-business group (lob_id or lob_name, companies[], amount)',
				properties: { company_id: int, naic: str, company_name: str, percent: num, amount: num, lob_id: int, lob_name: str, companies: arr({ type: 'object' }) },
			}),
			lob_id: int,
			lob_name: str,
			transaction_effective_date: date,
			fees: arr(ref('FeeLine'), { maxItems: 25 }),
			invoice_number: str,
			invoice_date: date,
			commission: num,
			policy_limit: { type: 'number', minimum: 0 },
			class_code: str,
			notes: str,
			documents: arr(ref('DocumentRef'), { maxItems: 10 }),
		},
		['policy_number', 'insured_name', 'state_code', 'net_premium', 'effective_date', 'expiration_date'],
	),
	LineItem: obj({
		name: str,
		code: { type: 'string', enum: ['sl_tax', 'stamping_fee', 'fire_marshal', 'figa', 'service_fee', 'surcharge', 'regulatory_fee', 'slas_fee', 'municipal_tax', 'flat_fee'] },
		rate: num,
		rate_type: { type: 'string', enum: ['percentage', 'flat'] },
		amount: num,
		unrounded_amount: num,
	}),
	CalculatorResult: obj(
		{
			state: ref('StateRef'),
			input: obj({ premium: num, policy_fees: num, effective_date: date }),
			tax_base: num,
			line_items: arr(ref('LineItem')),
			rounding_rule: { type: 'string', enum: ['standard', 'whole_dollar', 'no_rounding'] },
			total_taxes_and_fees: num,
			total_due: num,
			fee_breakdown: nullable(obj({ policy_fees_taxable: num, inspection_fees_taxable: num, broker_fees_taxable: num, non_taxable_fees: num, total_fees: num, total_taxable_fees: num })),
			special_notes: nullable(str),
			calculated_at: { type: 'string', format: 'date-time' },
			disclaimer: { type: 'string', minLength: 1 },
			warnings: arr(str),
		},
		['state', 'input', 'tax_base', 'line_items', 'rounding_rule', 'total_taxes_and_fees', 'total_due', 'fee_breakdown', 'special_notes', 'calculated_at', 'disclaimer'],
	),
	CalculatorRequest: obj(
		{
			state: { type: 'string', minLength: 2, maxLength: 2 },
			premium: { type: 'number', minimum: 0.01 },
			policy_fees: { type: 'number', minimum: 0, default: 0 },
			fees: arr(ref('FeeLine'), { maxItems: 15 }),
			effective_date: date,
		},
		['state', 'premium'],
	),
};

const success = (data: Schema, description = 'Success'): Schema => ({
	description,
	headers: {
		'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
		'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
		'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
	},
	content: { 'application/json': { schema: obj({ success: { type: 'boolean', enum: [true] }, data, meta: ref('Meta') }) } },
});

const ERROR_RESPONSES: Record<string, [string, string]> = {
	'400': ['BadRequest', 'Body empty or not valid JSON'],
	'401': ['Unauthorized', 'Key missing, wrong, revoked or expired'],
	'403': ['Forbidden', 'FORBIDDEN (no calculator scope, calculator off, t1 writing) or TIER_REQUIRED'],
	'404': ['NotFound', 'Resource or endpoint does not exist (another account\u2019s invoice too)'],
	'405': ['MethodNotAllowed', 'Wrong method for the path'],
	'409': ['Conflict', 'Invoice in status success; Idempotency-Key reused with another body'],
	'413': ['PayloadTooLarge', 'Body over 1 MB (sandbox limit)'],
	'422': ['ValidationError', 'Rule failed; error.details.fields maps field to messages'],
	'429': ['RateLimited', 'Hourly limit spent; wait Retry-After seconds'],
	'500': ['InternalError', 'Unexpected; quote meta.request_id'],
};

const errors = (...codes: string[]): Record<string, Schema> =>
	Object.fromEntries(['400', '401', '413', '429', '500', ...codes].map((c) => [c, { $ref: `#/components/responses/${ERROR_RESPONSES[c][0]}` }]));

const body = (schema: Schema): Schema => ({ required: true, content: { 'application/json': { schema } } });
const idParam = { name: 'id', in: 'path', required: true, schema: int, description: 'invoice id' };
const docParam = { name: 'doc', in: 'path', required: true, schema: str, description: 'service document id (all digits) or docUUID; on PUT always the docUUID' };

interface Op {
	summary: string;
	tier?: string;
	params?: Schema[];
	request?: Schema;
	ok: [string, Schema | null];
	errors?: string[];
	headers?: Schema[];
}

function op(o: Op): Schema {
	const responses: Record<string, Schema> = errors('403', ...(o.errors ?? []));
	responses[o.ok[0]] = o.ok[1] === null ? { description: 'No Content' } : success(o.ok[1]);
	return {
		summary: o.summary,
		description: o.tier ? `Needs ${o.tier} or higher.` : undefined,
		parameters: [...(o.params ?? []), ...(o.headers ?? [])],
		requestBody: o.request ? body(o.request) : undefined,
		responses,
	};
}

const listOf = (prop: string, item: Schema): Schema => obj({ [prop]: arr(item) });
const invoiceList = obj({ invoices: arr(ref('Invoice')), pagination: obj({ page: int, per_page: int, total: int }) });

const paths: Record<string, Record<string, Schema>> = {
	'/auth/me': {
		get: op({
			summary: 'Key information',
			ok: [
				'200',
				obj({
					key_name: str,
					tier: { type: 'string', enum: ['t1', 't2', 't3'] },
					rate_limit: obj({ limit: int, remaining: int, reset: int }),
					account: obj({
						mode: { type: 'string', enum: ['test', 'live'] },
						features: arr({ type: 'string', enum: ['idempotency', 'carrier_lookup', 'lob_name', 'transaction_effective_date', 'filing', 'coverage_warnings'] }),
						calculator_enabled: bool,
					}),
					scopes: arr(str),
				}),
			],
		}),
	},
	'/auth/token': {
		post: op({
			summary: 'Check a key (does not create one)',
			request: obj({ api_key: str }),
			ok: ['200', obj({ valid: { type: 'boolean', enum: [true] }, key_name: str, tier: { type: 'string', enum: ['t1', 't2', 't3'] } })],
			errors: ['422'],
		}),
	},
	'/invoices': {
		get: op({
			summary: 'List invoices (a policy\u2019s transactions with policy_number), oldest first',
			params: [
				{ name: 'policy_number', in: 'query', schema: str },
				{ name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
				{ name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
			],
			ok: ['200', invoiceList],
			errors: ['422'],
		}),
		post: op({
			summary: 'Create an invoice',
			tier: 't2',
			headers: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string', maxLength: 255, pattern: '^\\S+$' }, description: 'new-features accounts; replay window 24 h' }],
			request: ref('InvoiceRequest'),
			ok: ['201', ref('Invoice')],
			errors: ['409', '422'],
		}),
	},
	'/invoices/preview': {
		post: op({
			summary: 'Preview an invoice without storing it (data problems in validation.errors)',
			tier: 't1',
			request: ref('InvoiceRequest'),
			ok: [
				'200',
				obj({
					validation: obj({ valid: bool, errors: arr(str), warnings: arr(str) }),
					tax_calculation: nullableRef('CalculatorResult'),
					invoice: { type: 'object', nullable: true, description: 'the invoice as it would be stored, without id' },
				}),
			],
		}),
	},
	'/invoices/batch': {
		post: op({
			summary: 'Create up to 500 invoices; each item stands alone and may carry idempotency_key (accounts with the idempotency feature)',
			tier: 't3',
			request: obj({ invoices: arr({ allOf: [ref('InvoiceRequest'), obj({ idempotency_key: str }, [])] }, { minItems: 1, maxItems: 500 }) }),
			ok: [
				'200',
				obj({
					results: arr(obj({ index: int, success: bool, invoice: ref('Invoice'), replayed: bool, error: ref('Error') }, ['index', 'success'])),
					created: int,
					failed: int,
				}),
			],
			errors: ['422'],
		}),
	},
	'/invoices/{id}': {
		get: op({ summary: 'Read an invoice (status, filing, documents)', params: [idParam], ok: ['200', ref('Invoice')], errors: ['404'] }),
		put: op({ summary: 'Update an invoice: fields sent replace stored ones', tier: 't2', params: [idParam], request: { type: 'object' }, ok: ['200', ref('Invoice')], errors: ['404', '409', '422'] }),
		delete: op({ summary: 'Delete an invoice', tier: 't2', params: [idParam], ok: ['204', null], errors: ['404', '409'] }),
	},
	'/invoices/{id}/documents': {
		get: op({ summary: 'List an invoice\u2019s documents (POST here gives 405)', params: [idParam], ok: ['200', listOf('documents', ref('Document'))], errors: ['404', '405'] }),
	},
	'/invoices/{id}/documents/{doc}': {
		put: op({
			summary: 'Add or update a document reference by docUUID (201 new, 200 existing)',
			tier: 't2',
			params: [idParam, docParam],
			request: obj({ type: str, filename: str, mime_type: str }, ['type']),
			ok: ['200', ref('Document')],
			errors: ['404', '422'],
		}),
		get: op({ summary: 'One document with a fresh download link', params: [idParam, docParam], ok: ['200', ref('Document')], errors: ['404'] }),
		delete: op({ summary: 'Delete a document', tier: 't2', params: [idParam, docParam], ok: ['204', null], errors: ['404'] }),
	},
	'/calculator/estimate': {
		post: op({ summary: 'Estimate surplus lines taxes and fees (calculator scope)', request: ref('CalculatorRequest'), ok: ['200', ref('CalculatorResult')], errors: ['422'] }),
	},
	'/companies/search': {
		get: op({ summary: 'Find companies by name or NAIC', params: [{ name: 'q', in: 'query', required: true, schema: str }], ok: ['200', listOf('companies', obj({ id: int, name: str, naic: str }))], errors: ['422'] }),
	},
	'/lobs': { get: op({ summary: 'Lines of business', ok: ['200', listOf('lobs', obj({ id: int, name: str }))] }) },
	'/coverages': { get: op({ summary: 'Coverage codes (without their states)', ok: ['200', listOf('coverages', obj({ code: str, title: str }))] }) },
	'/reference/fee-types': {
		get: op({
			summary: 'Fee and tax codes',
			ok: ['200', listOf('fee_types', obj({ code: str, category: str, accepted_by: arr({ type: 'string', enum: ['calculator', 'invoices'] }), alias_of: nullable(str) }))],
		}),
	},
	'/reference/document-types': { get: op({ summary: 'Document types', ok: ['200', listOf('document_types', obj({ code: str, name: str, sent_to_state: bool }))] }) },
	'/reference/states': {
		get: op({ summary: '50 states and DC', ok: ['200', listOf('states', obj({ id: int, code: { type: 'string', minLength: 2, maxLength: 2 }, name: str, efile: bool }))] }),
	},
};

// The PUT document endpoint answers 201 for a new reference as well as 200.
(paths['/invoices/{id}/documents/{doc}'].put.responses as Record<string, Schema>)['201'] = success(ref('Document'), 'Created');

const errorResponse = (description: string): Schema => ({
	description,
	headers: { 'Retry-After': { description: 'seconds (429 only)', schema: int } },
	content: { 'application/json': { schema: ref('ErrorEnvelope') } },
});

export function buildOpenApi(baseUrl: string): Record<string, unknown> {
	return {
		openapi: '3.0.3',
		info: {
			title: 'Surplus Lines Filing and Tax Calculation Service (as understood by n8n-nodes-surplus-lines)',
			version: 'v1',
			description: 'Written from the service description and the project\u2019s assumptions. Served by the local sandbox.',
		},
		servers: [{ url: baseUrl }],
		security: [{ bearer: [] }],
		paths: JSON.parse(JSON.stringify(paths)) as unknown,
		components: {
			securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sltax_<t1|t2|t3>_<32 lowercase letters and digits>' } },
			headers: {
				'X-RateLimit-Limit': { description: 'calls allowed per window', schema: int },
				'X-RateLimit-Remaining': { description: 'calls left in the window', schema: int },
				'X-RateLimit-Reset': { description: 'Unix time the count restarts', schema: int },
			},
			schemas,
			responses: Object.fromEntries(Object.values(ERROR_RESPONSES).map(([name, description]) => [name, errorResponse(description)])),
		},
	};
}
