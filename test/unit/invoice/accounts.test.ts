/**
 * One workflow, every account: on an account without carrier_lookup, lob_name or
 * transaction_effective_date each row is adapted before it is filed (insurers by NAIC or name →
 * company_id, lob_name → lob_id, the date of a change → effective_date), or fails before any
 * filing call. Every call is counted: one `GET /auth/me`, one search per distinct value and one
 * `GET /lobs` per run.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { derivedMark } from '../../../nodes/filing/mark';

import { asSent, API, KEYS, NEW_FEATURES, derivedKey, envelope, failure, invoiceFor, jsonParams, listingReply, meReply, row, run, setupSuite } from './helpers';

setupSuite();

const COMPANIES = [
	{ id: 301, name: 'Sandbox Specialty Insurance Company', naic: '90001' },
	{ id: 303, name: 'Gulf Coast Surplus Lines Insurance Company', naic: '90003' },
	{ id: 305, name: 'Atlantic Excess Insurance Company', naic: '90005' },
	{ id: 307, name: 'Atlantic Excess Insurance Company', naic: '90007' },
];
const LOBS = [
	{ id: 1, name: 'General Liability' },
	{ id: 2, name: 'Commercial Property' },
];

/** Counts every call to the look-up endpoints and to the account check. */
function lookups(features: string[], tier = 't2') {
	const calls = { me: 0, lobs: 0, search: [] as string[] };
	nock(API)
		.get('/auth/me')
		.reply(() => {
			calls.me++;
			return [200, meReply(features, tier)];
		})
		.persist();
	nock(API)
		.get('/companies/search')
		.query(true)
		.reply((uri) => {
			const q = new URL(uri, API).searchParams.get('q') ?? '';
			calls.search.push(q);
			const needle = q.toLowerCase();
			const found = COMPANIES.filter((c) => c.name.toLowerCase().includes(needle) || c.naic.includes(needle));
			return [200, envelope({ companies: found })];
		})
		.persist();
	nock(API)
		.get('/lobs')
		.reply(() => {
			calls.lobs++;
			return [200, envelope({ lobs: LOBS })];
		})
		.persist();
	return calls;
}

/** Every POST /invoices, answered with the invoice of what was sent. */
function creates() {
	const sent: Array<{ body: IDataObject; key?: string }> = [];
	nock(API)
		.post('/invoices')
		.reply(function (_uri, body) {
			sent.push({ body: body as IDataObject, key: this.req.headers['idempotency-key'] as string | undefined });
			return [201, envelope(invoiceFor(body as IDataObject, 1000 + sent.length))];
		})
		.persist();
	return sent;
}

/** Every policy listing: empty, or the invoices given for a policy. */
function listings(stored: Record<string, IDataObject[]> = {}) {
	const listed: string[] = [];
	nock(API)
		.get('/invoices')
		.query(true)
		.reply((uri) => {
			const policy = new URL(uri, API).searchParams.get('policy_number') ?? '';
			listed.push(policy);
			return [200, listingReply(stored[policy] ?? [])];
		})
		.persist();
	return listed;
}

const noLookFirst = { options: { lookFirst: false } };

describe('insurers by NAIC or name on an account without carrier_lookup', () => {
	it('each distinct value is searched once per run; rows are sent with company_id and say so (_adapted)', async () => {
		const calls = lookups([]);
		const sent = creates();
		const items = [
			row({ policy_number: 'A', insurers: [{ naic: '90001', percent: 100 }] }),
			row({ policy_number: 'B', insurers: [{ naic: '90001', percent: 60 }, { naic: '90003', percent: 40 }] }),
			row({ policy_number: 'C', insurers: [{ company_name: 'SANDBOX specialty insurance company' }] }),
			row({ policy_number: 'D', insurers: [{ company_id: 305, naic: '99999' }] }),
		];
		const { output, error } = await run(jsonParams('createMany', noLookFirst), { items });
		expect(error).toBeUndefined();
		expect(calls).toEqual({ me: 1, lobs: 0, search: ['90001', '90003', 'SANDBOX specialty insurance company'] });
		expect(sent.map((s) => s.body.insurers)).toEqual([
			[{ company_id: 301, percent: 100 }],
			[{ company_id: 301, percent: 60 }, { company_id: 303, percent: 40 }],
			[{ company_id: 301 }],
			[{ company_id: 305, naic: '99999' }], // company_id wins, as on every account
		]);
		expect(output![0].json._adapted).toEqual([
			{
				field: 'insurers[0].naic',
				from: '90001',
				sentAs: 'insurers[0].company_id',
				to: 301,
				why: expect.stringContaining("no carrier_lookup feature and would refuse an insurer without company_id: NAIC '90001' is Sandbox Specialty Insurance Company, company 301 in GET /companies/search."),
			},
		]);
		expect(output![3].json._adapted).toBeUndefined();
	});

	it('inside line-of-business groups too, with the group names turned into lob_id (one GET /lobs)', async () => {
		const calls = lookups([]);
		const sent = creates();
		const body = row({
			net_premium: 1000,
			insurers: [
				{ lob_name: 'General Liability', amount: 600, companies: [{ naic: '90003' }] },
				{ lob_name: 'commercial property', amount: 400, companies: [{ naic: '90003', percent: 50 }, { naic: '90001', percent: 50 }] },
			],
		});
		const { output, error } = await run(jsonParams('create', noLookFirst), { items: [body, body] });
		expect(error).toBeUndefined();
		expect(calls).toEqual({ me: 1, lobs: 1, search: ['90003', '90001'] });
		expect(sent[0].body.insurers).toEqual([
			{ lob_id: 1, amount: 600, companies: [{ company_id: 303 }] },
			{ lob_id: 2, amount: 400, companies: [{ company_id: 303, percent: 50 }, { company_id: 301, percent: 50 }] },
		]);
		expect((output![0].json._adapted as IDataObject[]).map((a) => `${String(a.field)} → ${String(a.sentAs)} = ${String(a.to)}`)).toEqual([
			'insurers[0].companies[0].naic → insurers[0].companies[0].company_id = 303',
			'insurers[1].companies[0].naic → insurers[1].companies[0].company_id = 303',
			'insurers[1].companies[1].naic → insurers[1].companies[1].company_id = 301',
			'insurers[0].lob_name → insurers[0].lob_id = 1',
			'insurers[1].lob_name → insurers[1].lob_id = 2',
		]);
	});

	it('no match and several matches: the row fails naming column, value and candidates; nothing is filed', async () => {
		const calls = lookups([]);
		const sent = creates();
		const items = [
			{ 'Policy #': 'P-1', 'Insured Name': 'A', State: 'TX', Premium: '100', 'Eff Date': '2026-01-01', 'Exp Date': '2027-01-01', NAIC: '99999' },
			{ 'Policy #': 'P-2', 'Insured Name': 'B', State: 'TX', Premium: '100', 'Eff Date': '2026-01-01', 'Exp Date': '2027-01-01', 'Insurer 1 Name': 'Atlantic Excess Insurance Company' },
			{ 'Policy #': 'P-3', 'Insured Name': 'C', State: 'TX', Premium: '100', 'Eff Date': '2026-01-01', 'Exp Date': '2027-01-01', NAIC: '9000' },
			{ 'Policy #': 'P-4', 'Insured Name': 'D', State: 'TX', Premium: '100', 'Eff Date': '2026-01-01', 'Exp Date': '2027-01-01', NAIC: '99999' },
		];
		const columns = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
		const { output } = await run({ operation: 'createMany', inputMode: 'columns', columns, ...noLookFirst }, { items, continueOnFail: true });
		expect(sent).toEqual([]);
		expect(calls.search).toEqual(['99999', 'Atlantic Excess Insurance Company', '9000']);
		const errors = output!.map((o) => String(o.json.error));
		expect(errors[0]).toBe(
			'The invoice was not sent: Column "NAIC": no company has NAIC \'99999\' (the search found none). This account has no carrier_lookup feature, so the node looks the insurer up before filing: give its company_id, or a NAIC that matches exactly one company.',
		);
		expect(errors[1]).toContain(
			'Column "Insurer 1 Name": 2 companies have the name \'Atlantic Excess Insurance Company\' (Atlantic Excess Insurance Company (id 305, NAIC 90005); Atlantic Excess Insurance Company (id 307, NAIC 90007))',
		);
		expect(errors[2]).toContain("no company has NAIC '9000'; the search found Sandbox Specialty Insurance Company (id 301, NAIC 90001);");
		expect(errors[3]).toBe(errors[0]);
		expect(output![0].json.policy_number).toBe('P-1');
	});

	it('without continue-on-fail the run stops before any filing call', async () => {
		lookups([]);
		const sent = creates();
		const items = [row({ policy_number: 'OK', insurers: [{ naic: '90001' }] }), row({ insurers: [{ naic: '12345' }] })];
		const { error } = await run(jsonParams('createMany', noLookFirst), { items });
		expect(error!.message).toContain("Row 3 (item 1): The invoice was not sent: insurers[0].naic: no company has NAIC '12345'");
		expect(sent).toEqual([]);
	});

	it('a search that fails fails its rows, saying nothing was filed', async () => {
		nock(API).get('/auth/me').reply(200, meReply([])).persist();
		nock(API).get('/companies/search').query(true).reply(403, failure('FORBIDDEN', 'no')).persist();
		const sent = creates();
		const { output } = await run(jsonParams('create', noLookFirst), { items: [row({ insurers: [{ naic: '90001' }] })], continueOnFail: true });
		expect(String(output![0].json.error)).toContain("the insurer insurers[0].naic '90001' could not be looked up (GET /companies/search), so nothing was filed");
		expect(sent).toEqual([]);
	});

	it('the account check fails: every row fails saying nothing was filed, and the check is made once', async () => {
		let checks = 0;
		nock(API)
			.get('/auth/me')
			.reply(() => {
				checks++;
				return [403, failure('FORBIDDEN', 'not allowed')];
			})
			.persist();
		const sent = creates();
		const items = [1, 2, 3].map((n) => row({ policy_number: `P-${n}`, insurers: [{ naic: '90001' }] }));
		const { output } = await run(jsonParams('createMany', noLookFirst), { items, continueOnFail: true });
		expect(checks).toBe(1);
		expect(sent).toEqual([]);
		for (const item of output!) expect(String(item.json.error)).toContain('the account could not be asked which features it has (GET /auth/me), so nothing was filed');
	});

	it('an account with carrier_lookup gets the row as given: no look-up at all', async () => {
		const calls = lookups(NEW_FEATURES);
		const sent = creates();
		const body = row({ insurers: [{ naic: '90001' }], lob_name: 'Cyber', type_code: 'ENDORSEMENT', transaction_effective_date: '2026-07-01' });
		const { output } = await run(jsonParams('create', noLookFirst), { items: [body] });
		expect(calls).toEqual({ me: 1, lobs: 0, search: [] });
		expect(sent[0].body).toEqual(asSent(body));
		expect(output![0].json._adapted).toBeUndefined();
	});

	it('a row without these fields asks nothing (no account check when nothing else needs it)', async () => {
		const calls = lookups([]);
		creates();
		await run(jsonParams('create', { idempotency: 'off' }), { items: [row({ insurers: [{ company_id: 301 }] })] });
		expect(calls).toEqual({ me: 0, lobs: 0, search: [] });
	});
});

describe('lob_name on an account without the lob_name feature', () => {
	it('a known name is sent as lob_id', async () => {
		const calls = lookups([]);
		const sent = creates();
		const { output } = await run(jsonParams('create', noLookFirst), { items: [row({ lob_name: ' general liability ' }), row({ lob_name: 'Commercial Property' })] });
		expect(calls.lobs).toBe(1);
		expect(sent.map((s) => [s.body.lob_id, s.body.lob_name])).toEqual([[1, undefined], [2, undefined]]);
		expect(output![0].json._adapted).toEqual([expect.objectContaining({ field: 'lob_name', from: 'general liability', sentAs: 'lob_id', to: 1 })]);
	});

	it('an unknown name fails the row, listing the lines of business', async () => {
		lookups([]);
		const sent = creates();
		const { output } = await run(jsonParams('create', noLookFirst), { items: [row({ lob_name: 'Cyber' })], continueOnFail: true });
		expect(String(output![0].json.error)).toBe(
			"The invoice was not sent: lob_name: 'Cyber' is not a line of business of this account (GET /lobs lists: General Liability, Commercial Property). This account has no lob_name feature and would store the invoice without one: give a listed name or lob_id, or choose Options → Unknown Line of Business Name → File Without a Line of Business.",
		);
		expect(sent).toEqual([]);
	});

	it('or, when chosen, is sent as given (the service stores it without one) and the item says so', async () => {
		lookups([]);
		const sent = creates();
		const options = { lookFirst: false, unknownLineOfBusiness: 'fileWithout' };
		const { output } = await run(jsonParams('create', { options }), { items: [row({ lob_name: 'Cyber' })] });
		expect(sent[0].body.lob_name).toBe('Cyber');
		expect(output![0].json._adapted).toEqual([
			expect.objectContaining({ field: 'lob_name', sentAs: 'lob_name', to: 'Cyber', why: expect.stringContaining('stored without a line of business') }),
		]);
	});
});

describe('transaction_effective_date on an account without the feature', () => {
	it('an endorsement is sent with the date of the change as effective_date; the key and the look-up use what was sent', async () => {
		lookups([]);
		const sent = creates();
		const listed = listings();
		const endorsement = row({ type_code: 'ENDORSEMENT', net_premium: 250, effective_date: '2026-03-01', expiration_date: '2027-03-01', transaction_effective_date: '2026-07-01' });
		const { output, error } = await run(jsonParams('create'), { items: [endorsement] });
		expect(error).toBeUndefined();
		// The mark comes from the row as read (before the adaptation): the same on every account.
		const expected = { ...row({ type_code: 'ENDORSEMENT', net_premium: 250, effective_date: '2026-07-01', expiration_date: '2027-03-01' }), invoice_number: derivedMark(endorsement) };
		expect(sent).toEqual([{ body: expected, key: derivedKey(expected) }]);
		expect(listed).toEqual(['POL-100']);
		expect(output![0].json._adapted).toEqual([
			{
				field: 'transaction_effective_date',
				from: '2026-07-01',
				sentAs: 'effective_date',
				to: '2026-07-01',
				why: "This account has no transaction_effective_date feature and ignores it: there the effective_date of an ENDORSEMENT is the date of the change, which the state filing uses. So the change date is sent as effective_date, and the policy term's effective date 2026-03-01 is not sent.",
			},
		]);
	});

	it('run again: the endorsement filed that way is found on its policy, not filed twice', async () => {
		lookups([]);
		const sent = creates();
		const endorsement = row({ type_code: 'ENDORSEMENT', net_premium: 250, effective_date: '2026-03-01', transaction_effective_date: '2026-07-01' });
		const stored = invoiceFor({ ...row({ type_code: 'ENDORSEMENT', net_premium: 250, effective_date: '2026-07-01' }), invoice_number: derivedMark(endorsement) }, 880, { type: { id: 3, name: 'Endorsement' } });
		listings({ 'POL-100': [stored] });
		const { output } = await run(jsonParams('create'), { items: [endorsement] });
		expect(sent).toEqual([]);
		expect(output![0].json).toMatchObject({ id: 880, outcome: 'already_filed' });
	});

	it('on a NEW transaction a date of change is a warning, and is left to the service', async () => {
		lookups([]);
		const sent = creates();
		const { output } = await run(jsonParams('create', noLookFirst), { items: [row({ transaction_effective_date: '2026-07-01' })] });
		expect(sent[0].body.transaction_effective_date).toBe('2026-07-01');
		expect(output![0].json._warnings).toEqual([
			'transaction_effective_date: 2026-07-01 is a date of change on a NEW transaction; only an endorsement or cancellation has one, and this account (without the transaction_effective_date feature) ignores it: check the type',
		]);
	});

	it('on a NEW transaction a date of change equal to its effective date is simply read, with no warning (docs/reading-sheets.md)', async () => {
		lookups([]);
		creates();
		const { output } = await run(jsonParams('create', noLookFirst), { items: [row({ transaction_effective_date: '2026-01-01' })] });
		expect(output![0].json.id).toBeDefined();
		expect(output![0].json._warnings).toBeUndefined();
	});

	it('Update: with the type it is adapted; without the type it fails before the PUT', async () => {
		lookups([]);
		const puts: IDataObject[] = [];
		nock(API)
			.put('/invoices/7')
			.reply((_uri, body) => {
				puts.push(body as IDataObject);
				return [200, envelope(invoiceFor(row(), 7))];
			})
			.persist();
		const update = (fields: IDataObject) => ({ operation: 'update', invoiceId: '7', inputMode: 'json', invoiceJson: JSON.stringify(fields) });
		const ok = await run(update({ type_code: 'CANCELLATION', transaction_effective_date: '2026-09-01', insurers: [{ naic: '90003' }] }), { items: [{}] });
		expect(puts).toEqual([{ type_code: 'CANCELLATION', effective_date: '2026-09-01', insurers: [{ company_id: 303 }] }]);
		expect((ok.output![0].json._adapted as IDataObject[]).map((a) => a.sentAs)).toEqual(['insurers[0].company_id', 'effective_date']);
		const refused = await run(update({ transaction_effective_date: '2026-09-01' }), { items: [{}], continueOnFail: true });
		expect(String(refused.output![0].json.error)).toContain('send the type (type_code) with this update');
		expect(puts).toHaveLength(1);
	});
});

describe('Preview shows the adaptations before filing', () => {
	it('previews what Create would send, with _adapted', async () => {
		const calls = lookups([], 't1');
		const previewed: IDataObject[] = [];
		nock(API)
			.post('/invoices/preview')
			.reply((_uri, body) => {
				previewed.push(body as IDataObject);
				return [200, envelope({ validation: { valid: true, errors: [], warnings: [] }, tax_calculation: { line_items: [] } })];
			});
		const body = row({ insurers: [{ naic: '90001' }], lob_name: 'General Liability' });
		const { output } = await run(jsonParams('preview'), { items: [body], key: KEYS.t1 });
		expect(calls).toEqual({ me: 1, lobs: 1, search: ['90001'] });
		expect(previewed).toEqual([row({ insurers: [{ company_id: 301 }], lob_id: 1 })]);
		expect((output![0].json._adapted as IDataObject[]).map((a) => a.field)).toEqual(['insurers[0].naic', 'lob_name']);
	});
});

describe('identical rows in one Create Many on an account without keys', () => {
	it('t3: the second is the first one’s duplicate in the same run, said on its item', async () => {
		lookups([], 't3');
		listings();
		const batches: IDataObject[][] = [];
		nock(API)
			.post('/invoices/batch')
			.reply((_uri, body) => {
				const invoices = (body as { invoices: IDataObject[] }).invoices;
				batches.push(invoices);
				return [200, envelope({ results: invoices.map((inv, index) => ({ index, success: true, invoice: invoiceFor(inv, 500 + index) })) })];
			})
			.persist();
		const same = row({ policy_number: 'DUP', insurers: [{ naic: '90001' }] });
		const other = row({ policy_number: 'OTHER' });
		const { output, error } = await run(jsonParams('createMany', { simplify: true }), { items: [same, other, same], key: KEYS.t3 });
		expect(error).toBeUndefined();
		expect(batches).toHaveLength(1);
		expect(batches[0].map((b) => b.policy_number)).toEqual(['DUP', 'OTHER']);
		expect(output!.map((o) => [o.json.id, o.json.outcome])).toEqual([
			[500, 'filed'],
			[501, 'filed'],
			[500, 'already_filed'],
		]);
		expect(output![2].json.outcomeNote).toBe(
			'Identical to row 2 of this run, which filed it, so it was not filed twice (on an account with the idempotency feature the service replays such a row).',
		);
	});

	it('t3: when the first is refused, the duplicate is not sent and says why', async () => {
		lookups([], 't3');
		listings();
		nock(API)
			.post('/invoices/batch')
			.reply(200, envelope({ results: [{ index: 0, success: false, error: { code: 'VALIDATION_ERROR', message: 'state_code: Must be a valid state_code' } }] }));
		const same = row({ policy_number: 'DUP' });
		const { output } = await run(jsonParams('createMany'), { items: [same, same], key: KEYS.t3, continueOnFail: true });
		expect(String(output![1].json.error)).toBe('Identical to row 2 of this run, which did not come back filed: state_code: Must be a valid state_code');
	});
});
