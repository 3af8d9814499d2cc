/**
 * Signs and tax lines as the sheet gives them (issue 32, items 4 and 5): every amount of a change
 * has the premium's sign (unsigned ones follow, said in `_converted`; a sign against it is
 * refused), the pass-through twins of billed taxes included; a Cancellation with a positive
 * premium is warned of; the same tax twice is refused; a 0 tax is kept and said, never replaced
 * by the preview's figure; the tax check counts a twin as its tax (Total Due included).
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { validateInvoice } from '../../../nodes/SurplusLinesInvoice/body/validation';
import { deriveIdempotencyKey } from '../../../nodes/SurplusLinesInvoice/filing/idempotency';
import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../../harness/engine';
import { API, BASE, KEYS, envelope, invoiceFor, jsonParams, meReply, row, run, setupSuite } from './helpers';

setupSuite();
beforeEach(() => nock(API).get('/auth/me').reply(200, meReply()).persist());

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

function runColumns(parameters: IDataObject, items: IDataObject[], continueOnFail = true) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', inputMode: 'columns', columns: AUTO, ...parameters },
		items,
		credentials: { apiKey: KEYS.t2, baseUrl: BASE },
		settings: { typeVersion: 2 },
		continueOnFail,
	});
}

const body = (overrides: IDataObject) => row({ policy_number: 'SG-1', ...overrides });
const sent = (value: ReturnType<typeof validateInvoice>) => (value.ok ? value.body : value.problems);
const returned = (premium: string) => `the premium ${premium} is returned: an unsigned amount of the change is filed negative`;

describe('every amount of a change has the premium’s sign', () => {
	it('a return written "(500)": its unsigned SL Tax and insurer amount are filed negative, each said in _converted', () => {
		const read = validateInvoice(
			body({
				type_code: 'RPE',
				net_premium: '(500)',
				insurers: [{ naic: '90001', amount: '500' }],
				fees: [{ type: 'SL Tax', amount: '24.25' }, { type: 'policy_fee_company', amount: 25 }],
			}),
		);
		expect(read.ok).toBe(true);
		if (!read.ok) return;
		expect(read.body).toMatchObject({
			type_code: 'ENDORSEMENT',
			net_premium: -500,
			insurers: [{ naic: '90001', amount: -500 }],
			// A policy fee is not an amount of the change: it keeps the sheet's sign.
			fees: [{ type: 'sl_tax', amount: -24.25 }, { type: 'policy_fee_company', amount: 25 }],
		});
		expect(read.converted).toEqual(
			expect.arrayContaining([
				{ field: 'insurers[0].amount', from: '500', to: -500, why: returned('(500)') },
				{ field: 'fees[0].amount', from: '24.25', to: -24.25, why: returned('(500)') },
			]),
		);
	});

	it('a plain Cancellation or Endorsement with a negative premium: the same', () => {
		for (const type_code of ['CANCELLATION', 'Endorsement']) {
			const read = validateInvoice(body({ type_code, net_premium: -1000, fees: [{ type: 'sl_tax', amount: 48.5 }] }));
			expect(sent(read)).toMatchObject({ net_premium: -1000, fees: [{ type: 'sl_tax', amount: -48.5 }] });
		}
	});

	it('the pass-through twins of billed taxes (Filing Fee, Clearinghouse Fee, Fire Marshall Tax) follow as the tax does', () => {
		const read = validateInvoice(
			body({
				state_code: 'WY',
				type_code: 'RPE',
				net_premium: 10000,
				fees: [
					{ type: 'sl_tax', amount: 300 },
					{ type: 'clearinghouse_fee', amount: 17.5 },
					{ type: 'filing_fee', amount: 4 },
					{ type: 'fire_marshall_tax', amount: 10 },
					{ type: 'broker_fee', amount: 50 },
				],
			}),
		);
		expect(sent(read)).toMatchObject({
			net_premium: -10000,
			fees: [
				{ type: 'sl_tax', amount: -300 },
				{ type: 'clearinghouse_fee', amount: -17.5 },
				{ type: 'filing_fee', amount: -4 },
				{ type: 'fire_marshall_tax', amount: -10 },
				{ type: 'broker_fee', amount: 50 },
			],
		});
	});

	it('a sign written against the premium’s is refused, naming the amount; nothing is turned', () => {
		expect(
			validateInvoice(
				body({ type_code: 'RPE', net_premium: '(500)', insurers: [{ naic: '90001', amount: '+500' }], fees: [{ type: 'sl_tax', amount: '+24.25' }] }),
			),
		).toEqual({
			ok: false,
			problems: [
				"insurers[0].amount: +500 is written positive, but the premium ((500)) is returned and every amount of a change has the premium's sign; write it unsigned or negative",
				"fees[0].amount: +24.25 is written positive, but the premium ((500)) is returned and every amount of a change has the premium's sign; write it unsigned or negative",
			],
		});
		expect(validateInvoice(body({ type_code: 'ENDORSEMENT', net_premium: 500, fees: [{ type: 'filing_fee', amount: -4 }] }))).toEqual({
			ok: false,
			problems: [
				"fees[0].amount: -4 is negative, but the premium (500) is positive and every amount of a change has the premium's sign; write it positive, or the premium negative",
			],
		});
	});

	it('a new policy keeps the sheet’s signs as written (not a change)', () => {
		expect(sent(validateInvoice(body({ type_code: 'NEW', net_premium: -500, fees: [{ type: 'sl_tax', amount: 24.25 }] })))).toMatchObject({
			net_premium: -500,
			fees: [{ type: 'sl_tax', amount: 24.25 }],
		});
	});
});

describe('the same tax twice in one row', () => {
	it('is refused naming each line (a tax code written as words counts too)', () => {
		expect(validateInvoice(body({ fees: [{ type: 'sl_tax', amount: 485 }, { type: 'SL Tax', amount: 485 }, { type: 'sl_tax', amount: 485 }] }))).toEqual({
			ok: false,
			problems: [
				"fees[0]: 'sl_tax' is given 3 times (fees[0], fees[1], fees[2]); a tax is billed once: keep one",
				"fees[1]: 'sl_tax' is given 3 times (fees[0], fees[1], fees[2]); a tax is billed once: keep one",
				"fees[2]: 'sl_tax' is given 3 times (fees[0], fees[1], fees[2]); a tax is billed once: keep one",
			],
		});
	});

	it('two fees of one non-tax code are still taken (two "other" fees are two fees)', () => {
		expect(validateInvoice(body({ fees: [{ type: 'other', amount: 10 }, { type: 'other', amount: 20 }] })).ok).toBe(true);
	});

	it('Create refuses it before any call, one line per tax line', async () => {
		const trap = nock(API).post(/.*/).reply(201, envelope({}));
		const { output } = await run(jsonParams('create', { idempotency: 'off' }), {
			items: [body({ fees: [{ type: 'sl_tax', amount: 485 }, { type: 'sl_tax', amount: 485 }] })],
			continueOnFail: true,
		});
		expect(output![0].json.code).toBe('INVALID_INPUT');
		expect(output![0].json.fields).toEqual([
			"fees[0]: 'sl_tax' is given 2 times (fees[0], fees[1]); a tax is billed once: keep one",
			"fees[1]: 'sl_tax' is given 2 times (fees[0], fees[1]); a tax is billed once: keep one",
		]);
		expect(trap.isDone()).toBe(false);
		nock.cleanAll();
	});
});

// TX on 2026-03-01: 4.85% and 0.04% of 10,000.
const TX_TAX = {
	state: { id: 44, code: 'TX', name: 'Texas' },
	input: { premium: 10000, policy_fees: 0, effective_date: '2026-03-01' },
	line_items: [
		{ name: 'Surplus Lines Tax', code: 'sl_tax', rate: 4.85, rate_type: 'percentage', amount: 485 },
		{ name: 'Stamping Fee', code: 'stamping_fee', rate: 0.04, rate_type: 'percentage', amount: 4 },
	],
	total_taxes_and_fees: 489,
	total_due: 10489,
};
const previewOf = (tax: IDataObject) => envelope({ validation: { valid: true, errors: [], warnings: [] }, tax_calculation: tax, invoice: null });

const SHEET_ROW = {
	'Policy Number': 'SG-ZERO',
	'Insured Name': 'Zero Tax LLC',
	State: 'TX',
	'Transaction Type': 'New',
	'Eff Date': '03/01/2026',
	'Exp Date': '03/01/2027',
	Premium: '10,000.00',
	'SL Tax': '0',
	'Stamping Fee': '4.00',
};

describe('a 0 in a tax column', () => {
	it('Bill Taxes From Preview keeps it: 0 is filed, and the item says what the preview computed', async () => {
		const preview = nock(API).post('/invoices/preview').reply(200, previewOf(TX_TAX));
		let filed: IDataObject | undefined;
		const create = nock(API)
			.post('/invoices', (b: IDataObject) => ((filed = b), true))
			.reply(201, (_uri, b) => envelope(invoiceFor(b as IDataObject, 51)));
		const { output } = await runColumns({ operation: 'create' }, [SHEET_ROW], false);
		preview.done();
		create.done();
		expect(filed!.fees).toEqual([
			{ type: 'sl_tax', amount: 0 },
			{ type: 'stamping_fee', amount: 4 },
		]);
		expect(output![0].json._warnings).toEqual([
			'fees[0] (sl_tax): the row gives 0 and 0 is filed; the preview computed Surplus Lines Tax 485.00 for TX. Bill Taxes From Preview keeps a tax the row gives: leave the cell empty (or the line out) to bill the computed amount',
			'Tax check: Surplus Lines Tax (column "SL Tax"): sheet 0.00, computed 485.00 for TX on 2026-03-01, difference -485.00',
		]);
	});

	it('the same row keeps the key it had when a 0 tax sent no line', () => {
		const withZero = row({ fees: [{ type: 'sl_tax', amount: 0 }, { type: 'stamping_fee', amount: 4 }] });
		const without = row({ fees: [{ type: 'stamping_fee', amount: 4 }] });
		expect(deriveIdempotencyKey('/invoices', withZero)).toBe(deriveIdempotencyKey('/invoices', without));
		expect(deriveIdempotencyKey('/invoices', row({ fees: [{ type: 'sl_tax', amount: 0 }] }))).toBe(deriveIdempotencyKey('/invoices', row()));
	});

	it('a 0 in a fee column that is not a tax still sends no line', async () => {
		let filed: IDataObject | undefined;
		nock(API)
			.post('/invoices', (b: IDataObject) => ((filed = b), true))
			.reply(201, (_uri, b) => envelope(invoiceFor(b as IDataObject, 52)));
		await runColumns({ operation: 'create', billTaxesFromPreview: false }, [{ ...SHEET_ROW, 'SL Tax': '485', 'Broker Fee': '0' }], false);
		expect(filed!.fees).toEqual([
			{ type: 'sl_tax', amount: 485 },
			{ type: 'stamping_fee', amount: 4 },
		]);
	});
});

describe('a plain Cancellation with a positive premium', () => {
	it('is filed as written and warned of on the item', async () => {
		nock(API).post('/invoices').reply(201, (_uri, b) => envelope(invoiceFor(b as IDataObject, 61)));
		const { output } = await run(jsonParams('create', { idempotency: 'off' }), { items: [body({ type_code: 'Cancellation', net_premium: 500 })] });
		expect(output![0].json.net_premium).toBe(500);
		expect(output![0].json._warnings).toEqual([
			'net_premium: 500 is positive on a CANCELLATION; a cancellation normally returns premium (negative). It is filed as written: write it negative, or use FC / PC, if premium is returned',
		]);
	});
});

describe('the tax check counts a pass-through twin as its tax', () => {
	// FL on 2026-03-01: 4.94%, 0.06%, flat 4, FIGA 1% of 10,000. The calculation adds the sent
	// filing_fee to total_due as a fee and its flat_fee line as a tax.
	const FL_TAX = {
		state: { id: 10, code: 'FL', name: 'Florida' },
		input: { premium: 10000, policy_fees: 4, effective_date: '2026-03-01' },
		line_items: [
			{ name: 'Surplus Lines Tax', code: 'sl_tax', rate: 4.94, rate_type: 'percentage', amount: 494 },
			{ name: 'Service Fee', code: 'service_fee', rate: 0.06, rate_type: 'percentage', amount: 6 },
			{ name: 'Filing Fee', code: 'flat_fee', rate: 4, rate_type: 'flat', amount: 4 },
			{ name: 'FIGA Assessment', code: 'figa', rate: 1, rate_type: 'percentage', amount: 100 },
		],
		total_taxes_and_fees: 604,
		total_due: 10608,
	};
	const FL_ROW = {
		'Policy Number': 'SG-FL',
		'Insured Name': 'Sunshine Docks LLC',
		State: 'FL',
		'Transaction Type': 'New',
		'Eff Date': '03/01/2026',
		'Exp Date': '03/01/2027',
		Premium: '10000',
		'SL Tax': '494',
		'Service Fee': '6',
		'FIGA Assessment': '100',
		'Filing Fee': '4',
		'Total Taxes': '604',
		'Total Due': '10604',
	};

	it('a correct FL row with a Filing Fee column passes in Fail mode, Total Due included', async () => {
		nock(API).post('/invoices/preview').reply(200, previewOf(FL_TAX));
		let filed: IDataObject | undefined;
		nock(API)
			.post('/invoices', (b: IDataObject) => ((filed = b), true))
			.reply(201, (_uri, b) => envelope(invoiceFor(b as IDataObject, 71)));
		const { output } = await runColumns({ operation: 'create', options: { sheetTaxCheck: 'fail' } }, [FL_ROW]);
		expect(output![0].json.id).toBe(71);
		const check = output![0].json._taxCheck as IDataObject;
		expect(check.differences).toBe(0);
		expect(check.lines).toEqual(
			expect.arrayContaining([
				{ code: 'flat_fee', name: 'Filing Fee', column: 'Filing Fee', sheet: 4, computed: 4, difference: 0 },
				{ code: 'total_due', name: 'Total Due', sheet: 10604, computed: 10604, difference: 0 },
			]),
		);
		// Filed with the row's own code; the preview's flat_fee is not added beside its twin.
		expect(filed!.fees).toEqual(expect.arrayContaining([{ type: 'filing_fee', amount: 4 }]));
		expect((filed!.fees as IDataObject[]).some((f) => f.type === 'flat_fee')).toBe(false);
	});
});
