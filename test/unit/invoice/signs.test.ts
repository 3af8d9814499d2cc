/**
 * Signs and tax lines as the sheet gives them (issue 32, items 4 and 5): every amount of a change
 * has the premium's sign (unsigned ones follow, said in `_converted`; a sign against it is
 * refused), the pass-through twins of billed taxes included; a Cancellation with a positive
 * premium is warned of; the same tax twice is refused; a 0 tax line leaves the key as no line did.
 * The 0 kept by Bill Taxes From Preview and the twin in the tax check: taxCheck.test.ts.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { validateInvoice } from '../../../nodes/sheet/validation';
import { deriveIdempotencyKey } from '../../../nodes/filing/idempotency';
import { API, envelope, invoiceFor, jsonParams, meReply, row, run, setupSuite } from './helpers';

setupSuite();
beforeEach(() => nock(API).get('/auth/me').reply(200, meReply()).persist());

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

	it('the sum rules compare the amounts as filed: unsigned groups and a coverage under "(500)" follow before they are summed', () => {
		const read = validateInvoice(
			body({
				type_code: 'ENDORSEMENT',
				net_premium: '(500)',
				insurers: [
					{ lob_id: 1, amount: '300', companies: [{ company_id: 1, amount: '300' }] },
					{ lob_id: 2, amount: '200', companies: [{ company_id: 2, percent: 100 }] },
				],
				coverages: [{ code: 'GL', amount: '500', limits: [{ premium: '(500)' }] }],
			}),
		);
		expect(sent(read)).toMatchObject({
			net_premium: -500,
			coverages: [{ amount: -500, limits: [{ premium: -500 }] }],
			insurers: [{ amount: -300, companies: [{ amount: -300 }] }, { amount: -200 }],
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

describe('a 0 tax line and the key', () => {
	it('the same row keeps the key it had when a 0 tax sent no line', () => {
		const withZero = row({ fees: [{ type: 'sl_tax', amount: 0 }, { type: 'stamping_fee', amount: 4 }] });
		const without = row({ fees: [{ type: 'stamping_fee', amount: 4 }] });
		expect(deriveIdempotencyKey('/invoices', withZero)).toBe(deriveIdempotencyKey('/invoices', without));
		expect(deriveIdempotencyKey('/invoices', row({ fees: [{ type: 'sl_tax', amount: 0 }] }))).toBe(deriveIdempotencyKey('/invoices', row()));
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
