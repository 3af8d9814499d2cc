import nock from 'nock';

import { invoiceWarnings } from '../../../nodes/sheet/warnings';
import { asSent, API, envelope, invoiceFor, jsonParams, listingReply, row, run, setupSuite } from '../invoice/helpers';

setupSuite();
// Creates look for each row on its policy's listing first (Look for Rows Already Filed, on every
// account): these rows are on none, so each is sent. No row here uses a newer feature, so the
// account is not asked (GET /auth/me) and no reply is given for it: an unexpected call fails.
const emptyListing = (policy: string) => nock(API).get('/invoices').query({ policy_number: policy, page: 1, per_page: 100 }).reply(200, listingReply([]));

describe('invoiceWarnings (the rules)', () => {
	it('a negative premium on NEW (also by default) or RENEWAL, not on ENDORSEMENT or CANCELLATION', () => {
		expect(invoiceWarnings(row({ net_premium: -500 }))).toEqual([expect.stringMatching(/^net_premium: -500 is negative on a NEW transaction; a new or renewal transaction normally has a positive premium/)]);
		expect(invoiceWarnings(row({ net_premium: -1, type_code: 'RENEWAL' }))[0]).toContain('RENEWAL');
		expect(invoiceWarnings(row({ net_premium: -500, type_code: 'ENDORSEMENT' }))).toEqual([]);
		expect(invoiceWarnings(row({ net_premium: -500, type_code: 'CANCELLATION' }))).toEqual([]);
		// An Update without a type is not judged on the sign.
		expect(invoiceWarnings({ net_premium: -5 }, 'partial')).toEqual([]);
		expect(invoiceWarnings({ net_premium: -5, type_code: 'NEW' }, 'partial')).toHaveLength(1);
	});

	it('an expiration before the effective date', () => {
		expect(invoiceWarnings(row({ effective_date: '2026-05-01', expiration_date: '2026-04-30' }))).toEqual([
			'expiration_date: 2026-04-30 is before the effective date 2026-05-01; check the policy term',
		]);
		expect(invoiceWarnings(row({ effective_date: '2026-05-01', expiration_date: '2026-05-01' }))).toEqual([]);
	});

	it('insurer percents that do not add up to 100, at the top and inside a line-of-business group', () => {
		expect(invoiceWarnings(row({ insurers: [{ company_id: 1, percent: 60 }, { company_id: 2, percent: 30 }] }))).toEqual([
			"insurers: the percent shares add up to 90, not 100; check each insurer's percent",
		]);
		expect(invoiceWarnings(row({ insurers: [{ company_id: 1, percent: 33.33 }, { company_id: 2, percent: 33.33 }, { company_id: 3, percent: 33.34 }] }))).toEqual([]);
		expect(invoiceWarnings(row({ insurers: [{ company_id: 1, amount: 1200 }] }))).toEqual([]);
		expect(invoiceWarnings(row({ insurers: [{ lob_id: 3, amount: 1200, companies: [{ company_id: 1, percent: 50 }] }] }))).toEqual([
			"insurers[0].companies: the percent shares add up to 50, not 100; check each insurer's percent",
		]);
	});

	it('absurd amounts anywhere in the body', () => {
		const warnings = invoiceWarnings(row({ net_premium: 1e308, fees: [{ type: 'broker_fee', amount: 25 }, { type: 'other', amount: -2e12 }], coverages: [{ code: 'GL', amount: 5e13 }] }));
		expect(warnings.map((w) => w.split(':')[0])).toEqual(['net_premium', 'fees[1].amount', 'coverages[0].amount']);
		expect(invoiceWarnings(row({ net_premium: 999_999_999_999 }))).toEqual([]);
	});
});

describe('on the items: sent anyway, warned', () => {
	it('Create sends a negative NEW premium and puts the warning on the item', async () => {
		const body = row({ net_premium: -500 });
		const listed = emptyListing('POL-100');
		const scope = nock(API).post('/invoices', asSent(body)).reply(201, envelope(invoiceFor(body, 7)));
		const { output, error } = await run(jsonParams('create'), { items: [body] });
		expect(error).toBeUndefined();
		listed.done();
		scope.done();
		expect(output![0].json).toMatchObject({ id: 7, _warnings: [expect.stringContaining('net_premium: -500 is negative on a NEW transaction')] });
	});

	it('Preview shows every warning next to the service reply; a clean body has none', async () => {
		const odd = row({ net_premium: -500, type_code: 'RENEWAL', expiration_date: '2025-01-01', insurers: [{ company_id: 1, percent: 80 }] });
		nock(API).post('/invoices/preview').times(2).reply(200, envelope({ validation: { valid: true, errors: [], warnings: [] }, tax_calculation: {}, invoice: {} }));
		const { output } = await run(jsonParams('preview'), { items: [odd, row()] });
		expect(output![0].json._warnings).toEqual([
			expect.stringContaining('net_premium: -500 is negative on a RENEWAL transaction'),
			expect.stringContaining('expiration_date: 2025-01-01 is before the effective date 2026-01-01'),
			expect.stringContaining('insurers: the percent shares add up to 80'),
		]);
		expect(output![0].json.validation).toEqual({ valid: true, errors: [], warnings: [] });
		expect(output![1].json._warnings).toBeUndefined();
	});

	it('Create Many: each filed row carries its own warnings', async () => {
		const bodies = [row({ policy_number: 'A' }), row({ policy_number: 'B', net_premium: 1e308 })];
		emptyListing('A');
		emptyListing('B');
		nock(API)
			.post('/invoices')
			.times(2)
			.reply(201, (_uri, body) => envelope(invoiceFor(body as never, 1)));
		const { output } = await run(jsonParams('createMany'), { items: bodies });
		expect(output![0].json._warnings).toBeUndefined();
		expect(output![1].json._warnings).toEqual([expect.stringContaining('net_premium: 1e+308 is larger than any real amount')]);
	});
});
