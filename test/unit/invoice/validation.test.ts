import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { validateInvoice } from '../../../nodes/sheet/validation';
import { asSent, API, KEYS, envelope, invoiceFor, jsonParams, listingReply, meReply, row, run, setupSuite } from './helpers';

setupSuite();

/** Runs Create with the body and asserts it was refused locally, listing exactly these lines. */
async function refused(body: IDataObject, lines: string[], operation = 'create') {
	const trap = nock(API).post(/.*/).reply(201, envelope({})).put(/.*/).reply(200, envelope({}));
	const extra = operation === 'update' ? { invoiceId: { __rl: true, mode: 'id', value: '7' } } : {};
	const { output } = await run(jsonParams(operation, extra), { items: [body], continueOnFail: true, key: KEYS.t3 });
	expect(output![0].json.code).toBe('INVALID_INPUT');
	expect(output![0].json.fields).toEqual(lines);
	expect(trap.isDone()).toBe(false);
	nock.cleanAll();
}

describe('local rules (no call is made for a failing input)', () => {
	it.each([
		['required fields', {}, [
			'policy_number: This field is required',
			'insured_name: This field is required',
			'state_code: This field is required',
			'net_premium: This field is required',
			'effective_date: This field is required',
			'expiration_date: This field is required',
		]],
		['state code (50 states and DC)', row({ state_code: 'PR' }), ['state_code: "PR" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)']],
		['dates', row({ effective_date: '2026-02-30', expiration_date: '13/01/2027', invoice_date: '2026-1-1', transaction_effective_date: 'soon' }), [
			'effective_date: Must be a valid date',
			'expiration_date: Must be a valid date: dates with slashes are read as US month/day/year (MM/DD/YYYY) (got "13/01/2027")',
			'invoice_date: Must be a valid date',
			'transaction_effective_date: Must be a valid date',
		]],
		['type_code one of the four (words like "Endorsement" are read)', row({ type_code: 'Transfer' }), ['type_code: Must be one of: NEW, RENEWAL, ENDORSEMENT, CANCELLATION']],
		['net premium a number', row({ net_premium: 'twelve' }), ['net_premium: Must be a number']],
		['negative policy limit', row({ policy_limit: -1 }), ['policy_limit: Must not be negative']],
		['at most 25 fees', row({ fees: Array.from({ length: 26 }, () => ({ type: 'other', amount: 1 })) }), ['fees: Must not have more than 25 items']],
		['known fee codes', row({ fees: [{ type: 'sl_tax', amount: 1 }, { type: 'tip', amount: 2 }] }), ["fees[1].type: 'tip' is not a known fee or tax code"]],
		['alias pairs not sent together', row({ fees: [{ type: 'flat_fee', amount: 4 }, { type: 'filing_fee', amount: 4 }] }), [
			"fees: 'flat_fee' and 'filing_fee' are the same fee (one stored column); send only one of them",
		]],
		['at most 10 documents', row({ documents: Array.from({ length: 11 }, (_, n) => ({ type: 'quote', docUUID: `d${n}` })) }), ['documents: Must not have more than 10 items']],
		['document rules', row({ documents: [{ type: 'sl2 form', docUUID: 'x'.repeat(257), filename: 'f'.repeat(256), mime_type: 'text/plain' }, { docUUID: 'ok' }] }), [
			'documents[0].type: May contain only letters, digits, underscore or hyphen',
			'documents[0].docUUID: Must not exceed 256 characters',
			'documents[0].filename: Must not exceed 255 characters',
			'documents[0].mime_type: Must be one of: application/pdf, image/png, image/jpeg, image/jpg',
			'documents[1].type: This field is required',
		]],
		['document type length', row({ documents: [{ type: 'a'.repeat(51), docUUID: 'u' }] }), ['documents[0].type: Must not exceed 50 characters']],
		['coverage limits sum to the amount', row({ coverages: [{ code: 'GL', amount: 300 }, { code: 'PROP', amount: 500, limits: [{ premium: 200 }, { premium: 250 }] }] }), [
			'coverages[1].limits: premiums must sum to the coverage amount 500 (got 450)',
		]],
		['insurer without company_id', row({ insurers: [{ company_id: 301, percent: 60 }, { percent: 40 }] }), [
			'insurers[1].company_id is required and must be an integer',
		]],
		// The Company ID field's default 0 is "not set": refused locally instead of a 422 from the service.
		['insurer company_id 0 (the field left at its default)', row({ insurers: [{ company_id: 0, percent: 100 }] }), [
			'insurers[0].company_id is required and must be an integer',
		]],
		['insurer company_id an integer', row({ insurers: [{ company_id: 'abc' }] }), ['insurers[0].company_id: Must be an integer']],
		['insurer groups sum to net_premium within 1 cent', row({ insurers: [
			{ lob_id: 1, amount: 700, companies: [{ company_id: 301 }] },
			{ lob_id: 2, amount: 499.98, companies: [{ naic: '90001' }] },
		] }), ['insurers: Sum of insurers LOB amounts (1199.98) does not equal net_premium (1200.00)']],
		['insurer group needs an amount and identified companies', row({ insurers: [{ lob_name: 'General Liability', companies: [{ percent: 100 }] }] }), [
			'insurers[0].amount is required and must be a number',
			'insurers[0].companies[0].company_id is required and must be an integer',
		]],
		['insured address type', row({ insured_address: { line1: '1 Main', type_id: 3 } }), ['insured_address.type_id: Must be 1 (billing) or 2 (garaging)']],
	])('%s', async (_name, body, lines) => {
		await refused(body as IDataObject, lines as string[]);
	});

	it('lists every problem of a row at once', async () => {
		await refused(row({ state_code: 'XX', net_premium: null, coverages: [{ code: 'GL', amount: 10, limits: [{ premium: 1 }] }] }), [
			'state_code: "XX" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)',
			'net_premium: This field is required',
			'coverages[0].limits: premiums must sum to the coverage amount 10 (got 1)',
		]);
	});

	it('Update checks only what is sent, with the same rules', async () => {
		await refused({ state_code: 'ZZ', fees: [{ type: 'fire_marshal', amount: 1 }, { type: 'fire_marshall_tax', amount: 1 }] }, [
			'state_code: "ZZ" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)',
			"fees: 'fire_marshal' and 'fire_marshall_tax' are the same fee (one stored column); send only one of them",
		], 'update');
		await refused({}, ['body: Set at least one field to change'], 'update');
	});

	it('Preview uses the same schema', async () => {
		await refused(row({ type_code: 'TRANSFER' }), ['type_code: Must be one of: NEW, RENEWAL, ENDORSEMENT, CANCELLATION'], 'preview');
	});

	it('numbers in text fields (spreadsheet cells) are accepted and sent as text', async () => {
		const body = row({ policy_number: 12345, insured_address: { line1: '1 Main', zip: 75201 }, insurers: [{ naic: 12345, percent: 100 }] });
		const sent = row({ policy_number: '12345', insured_address: { line1: '1 Main', zip: '75201' }, insurers: [{ naic: '12345', percent: 100 }] });
		// An insurer by NAIC: the account is asked whether it looks insurers up itself (it does).
		nock(API).get('/auth/me').reply(200, meReply());
		const scope = nock(API).post('/invoices', asSent(sent)).reply(201, envelope(invoiceFor(sent, 9)));
		const { output, error } = await run(jsonParams('create', { idempotency: 'off' }), { items: [body] });
		expect(error).toBeUndefined();
		expect(output![0].json.policy_number).toBe('12345');
		scope.done();
	});

	it('accepts negative amounts of an endorsement or cancellation, zero premium, and groups summing within 1 cent', () => {
		const result = validateInvoice(row({
			type_code: 'CANCELLATION',
			net_premium: -1200,
			coverages: [{ code: 'GL', amount: -1200, limits: [{ premium: -700 }, { premium: -500 }] }],
			insurers: [{ lob_id: 1, amount: -600.01, companies: [{ company_name: 'Sandbox Specialty' }] }, { lob_id: 2, amount: -600, companies: [{ naic: '90001' }] }],
			fees: [{ type: 'sl_tax', amount: -58.2 }],
		}));
		expect(result.ok).toBe(true);
		expect(validateInvoice(row({ net_premium: 0 })).ok).toBe(true);
	});

	it('trims the spaces around text and lists each trim in the conversions', () => {
		const result = validateInvoice(row({ insured_name: 'Acme Roofing  ', policy_number: ' GL-1', insured_address: { line1: '1 Main St ', city: 'Austin' } }));
		if (!result.ok) throw new Error(result.problems.join('; '));
		expect(result.body).toMatchObject({ insured_name: 'Acme Roofing', policy_number: 'GL-1', insured_address: { line1: '1 Main St', city: 'Austin' } });
		const why = 'spaces around the text left out';
		expect(result.converted).toEqual(expect.arrayContaining([
			{ field: 'insured_name', from: 'Acme Roofing  ', to: 'Acme Roofing', why },
			{ field: 'policy_number', from: ' GL-1', to: 'GL-1', why },
			{ field: 'insured_address.line1', from: '1 Main St ', to: '1 Main St', why },
		]));
		expect(result.converted).toHaveLength(3);
	});
});

describe('Fields mode', () => {
	it('builds the same body shape as JSON mode from the fields and groups', async () => {
		const expected = {
			policy_number: 'POL-9',
			insured_name: 'Acme',
			state_code: 'FL',
			net_premium: 1000,
			effective_date: '2026-03-01',
			expiration_date: '2027-03-01',
			type_code: 'RENEWAL',
			invoice_number: 'INV-1',
			lob_id: 2,
			insured_address: { line1: '1 Main St', city: 'Miami', zip: '33101', type_id: 1 },
			coverages: [{ code: 'WIND', amount: 1000, title: 'Windstorm', limits: [{ premium: 600 }, { premium: 400 }] }],
			insurers: [
				{ company_id: 301, percent: 100 },
				{ lob_id: 1, amount: 1000, companies: [{ naic: '90001', amount: 1000 }] },
			],
			fees: [{ type: 'policy_fee_broker', amount: 25 }],
			documents: [{ type: 'declaration_page', docUUID: 'doc-1', mime_type: 'application/pdf' }],
		};
		// An insurer by NAIC: the account is asked whether it looks insurers up itself (it does).
		const me = nock(API).get('/auth/me').reply(200, meReply());
		// Idempotency derived (version 1's default): the policy is looked at first; nothing on it yet.
		const listing = nock(API).get('/invoices').query({ policy_number: 'POL-9', page: 1, per_page: 100 }).reply(200, listingReply([]));
		const scope = nock(API).post('/invoices', asSent(expected)).reply(201, envelope(invoiceFor(expected, 77)));
		const { output, error } = await run({
			operation: 'create',
			inputMode: 'fields',
			policyNumber: 'POL-9',
			insuredName: 'Acme',
			stateCode: 'FL',
			netPremium: 1000,
			effectiveDate: '2026-03-01',
			expirationDate: '2027-03-01',
			additionalFields: { typeCode: 'RENEWAL', invoiceNumber: 'INV-1', lobId: '2' },
			insuredAddress: { address: { line1: '1 Main St', line2: '', city: 'Miami', zip: '33101', typeId: 1 } },
			coverages: { coverage: [{ code: 'WIND', title: 'Windstorm', amount: 1000, limits: { limit: [{ premium: 600 }, { premium: 400 }] } }] },
			insurers: { insurer: [{ identifyBy: 'companyId', companyId: 301, shareBy: 'percent', percent: 100 }] },
			insurerGroups: { group: [{ lobId: 1, amount: 1000, companies: { company: [{ identifyBy: 'naic', naic: '90001', shareBy: 'amount', amount: 1000 }] } }] },
			fees: { fee: [{ type: 'policy_fee_broker', amount: 25 }] },
			documents: { document: [{ type: 'declaration_page', docUUID: 'doc-1', filename: '', mimeType: 'application/pdf' }] },
		});
		expect(error).toBeUndefined();
		expect(output![0].json.id).toBe(77);
		me.done();
		listing.done();
		scope.done();
	});
});
