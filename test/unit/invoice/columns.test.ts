import nock from 'nock';
import type { IDataObject, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { columnForName, columnKey } from '../../../nodes/sheet/columns';
import { INVOICE_FEE_CODES } from '../../../nodes/shared/rules';
import { loadOptions } from '../../harness/engine';
import { asSent, API, BASE, KEYS, envelope, invoiceFor, listingReply, run, meReply, setupSuite } from './helpers';

setupSuite();
// The account's features, for a run that asks (after a lost reply, or for a field of a newer feature).
beforeEach(() => nock(API).get('/auth/me').reply(200, meReply()).persist());

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
const columnsParams = (operation: string, columns: IDataObject = AUTO, extra: IDataObject = {}) => ({
	operation,
	inputMode: 'columns',
	columns,
	idempotency: 'off',
	...extra,
});

/** A batch endpoint that files every invoice it gets and keeps the bodies. */
function batchEndpoint(sent: IDataObject[][]) {
	let nextId = 1;
	return nock(API)
		.post('/invoices/batch')
		.times(5)
		.reply(200, (_uri, body) => {
			const invoices = (body as { invoices: IDataObject[] }).invoices;
			sent.push(invoices);
			const results = invoices.map((invoice, index) => ({ index, success: true, invoice: invoiceFor(invoice, nextId++) }));
			return envelope({ results, created: results.length, failed: 0 });
		});
}

const TYPES = ['New', 'renewal', 'Endorsement', 'Cancellation', 'NEW'];
const STATES = ['Texas', 'tx', 'FL', 'New York', 'california'];

/**
 * A bordereau as a CSV export gives it (every cell text), with the column names such sheets use,
 * an agent column the service does not know, and the spreadsheet forms of amounts and dates.
 */
function bordereauRow(n: number): IDataObject {
	const type = TYPES[n % TYPES.length];
	const returned = type === 'Cancellation';
	const premium = 1000 + n * 100;
	return {
		'Policy #': `BDX-${String(n + 1).padStart(3, '0')}`,
		'Insured Name': `Insured ${n + 1} LLC`,
		State: STATES[n % STATES.length],
		'Transaction Type': type,
		'Eff Date': n % 2 ? '03/01/2026' : '46082',
		'Exp Date': '03/01/2027',
		Premium: returned ? `($${premium.toLocaleString('en-US')}.00)` : `$${premium.toLocaleString('en-US')}.50`,
		'Policy Fee': n % 3 ? '$150.00' : '',
		'Inspection Fee': '0',
		'SL Tax': returned ? '' : `${(premium * 0.0485).toFixed(2)}`,
		'Insurer 1 NAIC': '90001',
		'Insurer 1 %': n % 4 ? '60%' : '100%',
		'Insurer 2 NAIC': n % 4 ? '90002' : '',
		'Insurer 2 %': n % 4 ? '40%' : '',
		Agent: 'Coastal Brokerage',
	};
}

describe('column names of sheets (Map Automatically)', () => {
	it('names commonly used in bordereaux find their invoice field', () => {
		const expected: Record<string, string> = {
			'Policy #': 'policy_number',
			'Policy Number': 'policy_number',
			'Policy No.': 'policy_number',
			policy_number: 'policy_number',
			'Insured Name': 'insured_name',
			Insured: 'insured_name',
			'Named Insured': 'insured_name',
			State: 'state_code',
			'Risk State': 'state_code',
			Premium: 'net_premium',
			'Net Premium': 'net_premium',
			'Eff Date': 'effective_date',
			'Eff. Date': 'effective_date',
			'Effective Date': 'effective_date',
			'Exp Date': 'expiration_date',
			'Expiration Date': 'expiration_date',
			'Transaction Type': 'type_code',
			Type: 'type_code',
			NAIC: 'insurer_1_naic',
			'NAIC #': 'insurer_1_naic',
			'Insurer 1 NAIC': 'insurer_1_naic',
			'Insurer 2 NAIC': 'insurer_2_naic',
			'Carrier 3 Name': 'insurer_3_company_name',
			Carrier: 'insurer_1_company_name',
			'Company ID': 'insurer_1_company_id',
			'Insurer 1 %': 'insurer_1_percent',
			'Insurer 12 Percent': 'insurer_12_percent',
			'Coverage 2 Code': 'coverage_2_code',
			'Coverage 1 Premium': 'coverage_1_amount',
			'Policy Fee': 'fee_policy_fee_company',
			'Broker Fee': 'fee_broker_fee',
			'SL Tax': 'fee_sl_tax',
			'Surplus Lines Tax': 'fee_sl_tax',
			'Stamping Fee': 'fee_stamping_fee',
			fire_marshall_tax: 'fee_fire_marshall_tax',
			'Fire Marshal Tax': 'fee_fire_marshal',
			'State Surcharge': 'fee_surcharge',
			'SLAS/Clearinghouse Fee': 'fee_slas_fee',
			'Filing Fee': 'fee_filing_fee',
			'Policy Fee (Broker)': 'fee_policy_fee_broker',
			ZIP: 'address_zip',
			'Address Type': 'address_type',
		};
		const found = Object.fromEntries(Object.keys(expected).map((name) => [name, columnForName(name)?.id]));
		expect(found).toEqual(expected);
		for (const name of ['Agent', 'Notes', 'Coverage', 'Row', 'Insured Phone']) expect(columnForName(name)).toBeUndefined();
	});

	it('every fee code has its own column, whose name is the code or its words', () => {
		for (const code of INVOICE_FEE_CODES) {
			expect(columnForName(code)?.id).toBe(`fee_${code}`);
			expect(columnForName(code.replace(/_/g, ' ').toUpperCase())?.id).toBe(`fee_${code}`);
		}
		expect(columnKey('Insured’s Name')).toBe('insuredsname');
	});
});

describe('Map Columns body source', () => {
	it('the resource mapper lists the invoice fields, required first, dropdowns and fee columns from the service', async () => {
		const states = nock(API).get('/reference/states').reply(200, envelope({ states: [{ code: 'TX', name: 'Texas', efile: true }, { code: 'FL', name: 'Florida', efile: true }] }));
		const lobs = nock(API).get('/lobs').reply(200, envelope({ lobs: [{ id: 2, name: 'General Liability' }] }));
		const fees = nock(API).get('/reference/fee-types').reply(200, envelope({ fee_types: [
			{ code: 'policy_fee_company', category: 'Policy Fee', accepted_by: ['calculator', 'invoices'], alias_of: null },
			{ code: 'sl_tax', category: 'Tax', accepted_by: ['invoices'], alias_of: null },
		] }));
		const result = (await loadOptions({
			node: new SurplusLinesInvoice(),
			parameters: { resource: 'invoice', operation: 'create', inputMode: 'columns' },
			credentials: { apiKey: KEYS.t2, baseUrl: BASE },
			kind: 'resourceMapping',
			method: 'getInvoiceColumns',
		})) as ResourceMapperFields;
		states.done();
		lobs.done();
		fees.done();
		const byId = new Map(result.fields.map((f: ResourceMapperField) => [f.id, f]));
		expect(result.fields.slice(0, 6).map((f) => [f.id, f.required])).toEqual([
			['policy_number', true],
			['insured_name', true],
			['state_code', true],
			['net_premium', true],
			['effective_date', true],
			['expiration_date', true],
		]);
		expect(result.fields.slice(6).every((f) => !f.required)).toBe(true);
		expect(byId.get('state_code')).toMatchObject({ type: 'options', options: [{ name: 'Florida (FL)', value: 'FL' }, { name: 'Texas (TX)', value: 'TX' }] });
		expect(byId.get('lob_id')).toMatchObject({ type: 'options', options: [{ name: 'General Liability', value: 2 }] });
		expect(byId.get('type_code')!.options!.map((o) => o.value)).toEqual(['NEW', 'RENEWAL', 'ENDORSEMENT', 'CANCELLATION']);
		expect(byId.get('net_premium')!.type).toBe('number');
		expect(byId.get('effective_date')!.type).toBe('dateTime');
		expect(byId.get('insurer_3_naic')!.displayName).toBe('Insurer 3 NAIC');
		expect(byId.get('insurer_1_percent')!.type).toBe('number');
		expect(result.fields.filter((f) => f.id.startsWith('fee_')).map((f) => [f.id, f.displayName])).toEqual([
			['fee_policy_fee_company', 'Fee: Policy Fee (Company) (policy_fee_company)'],
			['fee_sl_tax', 'Fee: Surplus Lines Tax (sl_tax)'],
		]);
		// Every column of the mapper finds itself by its own display name in Map Automatically.
		for (const field of result.fields.filter((f) => !f.id.startsWith('fee_'))) expect(columnForName(field.displayName)?.id).toBe(field.id);
	});

	it('a 25-row bordereau maps automatically, with no expression: one batch call, every value in the service’s form', async () => {
		const sent: IDataObject[][] = [];
		batchEndpoint(sent);
		const items = Array.from({ length: 25 }, (_, n) => bordereauRow(n));
		const { output, error } = await run(columnsParams('createMany'), { items, key: KEYS.t3 });
		expect(error).toBeUndefined();
		expect(sent.map((batch) => batch.length)).toEqual([25]);
		const bodies = sent[0];
		// Each row carries its mark: a row's own reading, from the sheet's columns.
		for (const body of bodies) expect(body.invoice_number).toMatch(/^SL[A-Z2-7]{16}$/);
		expect(bodies[0]).toEqual({
			invoice_number: bodies[0].invoice_number,
			policy_number: 'BDX-001',
			insured_name: 'Insured 1 LLC',
			state_code: 'TX',
			type_code: 'NEW',
			effective_date: '2026-03-01',
			expiration_date: '2027-03-01',
			net_premium: 1000.5,
			fees: [{ type: 'sl_tax', amount: 48.5 }],
			insurers: [{ naic: '90001', percent: 100 }],
		});
		expect(bodies[1]).toEqual({
			invoice_number: bodies[1].invoice_number,
			policy_number: 'BDX-002',
			insured_name: 'Insured 2 LLC',
			state_code: 'TX',
			type_code: 'RENEWAL',
			effective_date: '2026-03-01',
			expiration_date: '2027-03-01',
			net_premium: 1100.5,
			fees: [{ type: 'policy_fee_company', amount: 150 }, { type: 'sl_tax', amount: 53.35 }],
			insurers: [{ naic: '90001', percent: 60 }, { naic: '90002', percent: 40 }],
		});
		// Accounting parentheses are a returned premium; empty fee cells send no fee line.
		expect(bodies[3]).toMatchObject({ type_code: 'CANCELLATION', net_premium: -1300, state_code: 'NY' });
		expect(bodies[3].fees).toBeUndefined();
		expect(new Set(bodies.map((b) => b.state_code))).toEqual(new Set(['TX', 'FL', 'NY', 'CA']));
		expect(bodies.every((b) => !('Agent' in b) && !JSON.stringify(b).includes('inspection_fee'))).toBe(true);

		expect(output).toHaveLength(25);
		output!.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.policy_number).toBe(`BDX-${String(i + 1).padStart(3, '0')}`);
		});
		// What was read into another form is said on the item, with the sheet's column.
		expect(output![0].json._converted).toEqual(expect.arrayContaining([
			{ field: 'state_code', from: 'Texas', to: 'TX', column: 'State' },
			{ field: 'type_code', from: 'New', to: 'NEW', column: 'Transaction Type' },
			{ field: 'effective_date', from: '46082', to: '2026-03-01', column: 'Eff Date' },
			{ field: 'net_premium', from: '$1,000.50', to: 1000.5, column: 'Premium' },
			{ field: 'insurers[0].percent', from: '100%', to: 100, column: 'Insurer 1 %' },
		]));
		expect(output![1].json._converted).toEqual(expect.arrayContaining([{ field: 'fees[0].amount', from: '$150.00', to: 150, column: 'Policy Fee' }]));
	});

	it('bad rows are refused before any call, naming the field, the column and the rule', async () => {
		const trap = nock(API).post(/.*/).reply(200, envelope({}));
		const items = [
			bordereauRow(0),
			{ ...bordereauRow(1), Premium: '1.234,50' },
			{ ...bordereauRow(2), 'Eff Date': '3/1/26', 'Insurer 1 %': '0x10' },
			{ ...bordereauRow(3), State: 'Ontario', 'Policy #': '' },
		];
		const { output, error } = await run(columnsParams('createMany'), { items, key: KEYS.t3 });
		expect(output).toBeUndefined();
		expect(trap.isDone()).toBe(false);
		expect(error!.message).toBe(
			'Row 3 (item 1): Invalid input, nothing was sent: Column "Premium": Must be a number: a comma as the decimal mark is not read; write 1234.50 (got "1.234,50")',
		);
		nock.cleanAll();
		nock(API).get('/auth/me').reply(200, meReply()).persist();
		const sent: IDataObject[][] = [];
		batchEndpoint(sent);
		const run2 = await run(columnsParams('createMany'), { items, key: KEYS.t3, continueOnFail: true });
		expect(sent.map((b) => b.length)).toEqual([1]);
		expect(run2.output![2].json.fields).toEqual([
			'Column "Eff Date": Must be a valid date: write the year with four digits (MM/DD/YYYY) (got "3/1/26")',
			'Column "Insurer 1 %": Must be a number: hexadecimal, octal and binary forms are not read (got "0x10")',
		]);
		expect(run2.output![3].json.fields).toEqual([
			'Column "Policy #" is empty: the policy_number field is required',
			'Column "State": "Ontario" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)',
		]);
	});

	it('a required field no column matched says which column names would have', async () => {
		const row = bordereauRow(0);
		delete row['Eff Date'];
		const { output } = await run(columnsParams('create'), { items: [row], continueOnFail: true });
		expect(output![0].json.fields).toEqual([
			'Column "Effective Date" is missing or empty: the effective_date field is required (also read as "Eff Date", "Eff. Date")',
		]);
	});

	it('"Map Each Column Manually" takes fixed values and expressions by column id', async () => {
		const body = {
			policy_number: 'MAN-1',
			insured_name: 'Harbor Marine',
			state_code: 'FL',
			net_premium: 2500,
			effective_date: '2026-04-01',
			expiration_date: '2027-04-01',
			type_code: 'NEW',
			insurers: [{ company_id: 301, percent: 100 }],
			fees: [{ type: 'broker_fee', amount: 75 }],
			insured_address: { zip: '33101', type_id: 1 },
		};
		const scope = nock(API).post('/invoices', asSent(body)).reply(201, envelope(invoiceFor(body, 7)));
		const columns = {
			mappingMode: 'defineBelow',
			value: {
				policy_number: '={{ $json.ref }}',
				insured_name: 'Harbor Marine',
				state_code: 'FL',
				net_premium: '={{ $json.amount }}',
				effective_date: '2026-04-01T00:00:00',
				expiration_date: '={{ $json.ends }}',
				type_code: 'NEW',
				insurer_1_company_id: '301',
				insurer_1_percent: 100,
				fee_broker_fee: '$75.00',
				fee_sl_tax: null,
				address_zip: 33101,
				address_type: 1,
			},
			matchingColumns: [],
			schema: [{ id: 'net_premium', displayName: 'Net Premium', required: true, defaultMatch: false, display: true, type: 'number' }],
		};
		const { output, error } = await run(columnsParams('create', columns), { items: [{ ref: 'MAN-1', amount: '2,500', ends: '04/01/2027' }] });
		expect(error).toBeUndefined();
		scope.done();
		expect(output![0].json.id).toBe(7);
		// The date picker's own value (2026-04-01T00:00:00) is its date: not worth a note.
		expect(output![0].json._converted).toEqual([
			{ field: 'net_premium', from: '2,500', to: 2500, column: 'Net Premium' },
			{ field: 'expiration_date', from: '04/01/2027', to: '2027-04-01' },
			{ field: 'fees[0].amount', from: '$75.00', to: 75 },
		]);
	});

	it('Preview takes the same columns', async () => {
		const scope = nock(API).post('/invoices/preview', (b: IDataObject) => b.state_code === 'CA' && b.net_premium === 5000).reply(200, envelope({ validation: { valid: true, errors: [] } }));
		const { output, error } = await run(columnsParams('preview'), { items: [{ ...bordereauRow(4), Premium: '5000' }], key: KEYS.t1 });
		expect(error).toBeUndefined();
		scope.done();
		expect(output![0].json._converted).toEqual(expect.arrayContaining([{ field: 'state_code', from: 'california', to: 'CA', column: 'State' }]));
	});

	it('two columns that give one field with different values are refused, naming both', async () => {
		const trap = nock(API).post(/.*/).reply(201, envelope({}));
		const item = { ...bordereauRow(0), 'Net Premium': '900', 'Policy Number': 'OTHER' };
		const { output } = await run(columnsParams('create'), { items: [item], continueOnFail: true });
		expect(output![0].json.fields).toEqual([
			'Column "Policy #": columns "Policy #" (BDX-001) and "Policy Number" (OTHER) give this field different values, so the row is not filed; make them agree, leave one empty, or map the columns by hand (Map Each Column Manually)',
			'Column "Net Premium": columns "Net Premium" (900) and "Premium" ($1,000.50) give this field different values, so the row is not filed; make them agree, leave one empty, or map the columns by hand (Map Each Column Manually)',
		]);
		expect(trap.isDone()).toBe(false);
	});
});

describe('Input Item As Is body source', () => {
	it('the item is the request body, read with the same rules and conversions; no expression is evaluated', async () => {
		const item = { policy_number: 'AS-IS-1', insured_name: 'Acme', state_code: 'Texas', net_premium: '$1,200.00', effective_date: '03/01/2026', expiration_date: '2027-03-01', fees: [{ type: 'SL Tax', amount: '58.20' }] };
		const sent = { policy_number: 'AS-IS-1', insured_name: 'Acme', state_code: 'TX', net_premium: 1200, effective_date: '2026-03-01', expiration_date: '2027-03-01', fees: [{ type: 'sl_tax', amount: 58.2 }], type_code: 'NEW' };
		const scope = nock(API).post('/invoices', asSent(sent)).reply(201, envelope(invoiceFor(sent, 3)));
		const { output, error } = await run({ operation: 'create', inputMode: 'inputItem', idempotency: 'off' }, { items: [item] });
		expect(error).toBeUndefined();
		scope.done();
		expect(output![0].json._converted).toEqual([
			{ field: 'state_code', from: 'Texas', to: 'TX' },
			{ field: 'net_premium', from: '$1,200.00', to: 1200 },
			{ field: 'effective_date', from: '03/01/2026', to: '2026-03-01' },
			{ field: 'fees[0].type', from: 'SL Tax', to: 'sl_tax' },
		]);
	});

	it('Create Many files input items as they are in batch calls', async () => {
		const sent: IDataObject[][] = [];
		batchEndpoint(sent);
		const items = Array.from({ length: 3 }, (_, n) => ({ policy_number: `AI-${n}`, insured_name: 'X', state_code: 'FL', net_premium: 100 + n, effective_date: '2026-01-01', expiration_date: '2027-01-01' }));
		// Each row is looked for on its policy first (Look for Rows Already Filed, on by default): not there.
		const looks = items.map((item) =>
			nock(API).get('/invoices').query({ policy_number: item.policy_number, page: 1, per_page: 100 }).reply(200, listingReply([])),
		);
		const { output, error } = await run({ operation: 'createMany', inputMode: 'inputItem' }, { items, key: KEYS.t3 });
		expect(error).toBeUndefined();
		looks.forEach((l) => l.done());
		// Each row as it came, plus the key a single Create of it would carry.
		// Sent in the one canonical form: the service's default type written out.
		expect(sent).toEqual([items.map((item) => ({ ...asSent({ ...item, type_code: 'NEW' }), idempotency_key: expect.stringMatching(/^n8n-sl-[0-9a-f]{64}$/) }))]);
		expect(output!.map((o) => o.json._converted)).toEqual([undefined, undefined, undefined]);
	});
});

describe('sheet-friendly values in the JSON and Fields sources', () => {
	it('JSON: a US date, a state name, a type word and a dollar amount are read and said on the item', async () => {
		const sent = { policy_number: 'J-1', insured_name: 'Acme', state_code: 'NY', net_premium: -250, effective_date: '2026-06-01', expiration_date: '2027-01-01', type_code: 'ENDORSEMENT' };
		const scope = nock(API).post('/invoices', asSent(sent)).reply(201, envelope(invoiceFor(sent, 4)));
		const json = '={{ JSON.stringify({ policy_number: "J-1", insured_name: "Acme", state_code: "new york", net_premium: "($250.00)", effective_date: "6/1/2026", expiration_date: "2027-01-01", type_code: "Endorsement" }) }}';
		const { output, error } = await run({ operation: 'create', inputMode: 'json', invoiceJson: json, idempotency: 'off' });
		expect(error).toBeUndefined();
		scope.done();
		expect(output![0].json._converted).toHaveLength(4);
	});

	it('Fields: an amount given as text by an expression is read by the same reader; "0x10" is refused', async () => {
		const fields = { operation: 'create', inputMode: 'fields', policyNumber: 'F-1', insuredName: 'Acme', stateCode: 'TX', effectiveDate: '2026-01-01', expirationDate: '2027-01-01', idempotency: 'off' };
		const sent = { policy_number: 'F-1', insured_name: 'Acme', state_code: 'TX', net_premium: 1200.5, effective_date: '2026-01-01', expiration_date: '2027-01-01', type_code: 'NEW' };
		const scope = nock(API).post('/invoices', asSent(sent)).reply(201, envelope(invoiceFor(sent, 5)));
		const ok = await run({ ...fields, netPremium: '={{ "1200.5" }}' });
		expect(ok.error).toBeUndefined();
		scope.done();
		expect(ok.output![0].json._converted).toBeUndefined();
		const trap = nock(API).post(/.*/).reply(201, envelope({}));
		const bad = await run({ ...fields, netPremium: '={{ "0x10" }}' }, { continueOnFail: true });
		expect(bad.output![0].json.fields).toEqual(['net_premium: Must be a number: hexadecimal, octal and binary forms are not read (got "0x10")']);
		expect(trap.isDone()).toBe(false);
	});
});
