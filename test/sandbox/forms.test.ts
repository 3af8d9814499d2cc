import { formsFromEnv, halfEvenCents } from './invoices/forms';
import { client, invoiceBody, useSandbox } from './testkit';

describe('the forms switch: stored invoices shown in the service’s other forms', () => {
	const kit = useSandbox();
	const body = invoiceBody({
		policy_number: 'FORM-1',
		insured_name: 'Harbor  Marine Co.',
		invoice_number: 'inv-0042',
		net_premium: 1000.125,
		insurers: [{ company_id: 301, percent: 100 }],
		fees: [
			{ type: 'other', amount: 10 },
			{ type: 'other', amount: 15.5 },
		],
	});
	const read = async () => (await kit().api('t2').get('/invoices/1001')).data.data;
	const listed = async () => (await kit().api('t2').get('/invoices?policy_number=FORM-1')).data.data.invoices[0];

	beforeEach(async () => {
		expect((await kit().api('t2').post('/invoices', body)).status).toBe(201);
	});

	it('off: shown exactly as sent', async () => {
		expect(await read()).toMatchObject({ insured_name: 'Harbor  Marine Co.', invoice_number: 'inv-0042', net_premium: 1000.125, effective_date: body.effective_date });
	});

	it('all at once: every form on get and on the policy’s listing; the stored invoice is unchanged', async () => {
		const set = await kit().control('/forms', { forms: 'all', mode: 'all' });
		expect(set.data.data.mode).toBe('all');
		for (const shown of [await read(), await listed()]) {
			expect(shown.insured_name).toBe('HARBOR MARINE CO');
			expect(shown.invoice_number).toBe('INV-42');
			// Money as JSON strings (money_strings), after the cents.
			expect(shown.net_premium).toBe('1000.12');
			expect(shown.commission).toBe('0.00');
			expect(shown.insurers[0].percent).toBe(1);
			expect(shown.fees).toEqual([
				{ type: 'other', amount: '25.50', posted: true },
				{ type: 'surcharge', amount: '1.00', posted: true },
			]);
			expect(shown.source_system).toBe('register');
			// US form applied after the Central instant: the central form is replaced only on plain days.
			expect(shown.effective_date).toMatch(/^\d{4}-\d{2}-\d{2}T18:00:00-06:00$|^\d{4}-\d{2}-\d{2}T19:00:00-05:00$/);
		}
		await kit().control('/forms', { forms: [] });
		expect((await read()).insured_name).toBe('Harbor  Marine Co.');
	});

	it('one form per invoice (forms[id % n]) and reset back to the start’s forms', async () => {
		await kit().control('/forms', { forms: ['name_upper', 'number_zeros'] });
		// 1001 % 2 = 1: number_zeros only.
		expect(await read()).toMatchObject({ insured_name: 'Harbor  Marine Co.', invoice_number: 'inv-42' });
		await kit().control('/reset');
		const again = await client(kit().sb.baseUrl.replace('/api/v1', ''), null).get('/_sandbox/forms');
		expect(again.data.data.forms).toEqual([]);
	});

	it('bad values are refused naming the field', async () => {
		const bad = await client(kit().sb.baseUrl.replace('/api/v1', ''), null).post('/_sandbox/forms', { forms: ['shout'] });
		expect(bad.status).toBe(422);
		expect(Object.keys(bad.data.error.details.fields)).toEqual(['forms']);
		expect(() => formsFromEnv('all:sideways')).toThrow();
		expect(formsFromEnv('name_upper, amount_cents')).toEqual({ forms: ['name_upper', 'amount_cents'], mode: 'per_invoice', clockOffsetSeconds: 0 });
	});

	it('half-even cents from the decimal text, not from binary arithmetic', () => {
		expect([halfEvenCents(1000.125), halfEvenCents(1000.135), halfEvenCents(1.005), halfEvenCents(-2.675), halfEvenCents(3)]).toEqual([1000.12, 1000.14, 1, -2.68, 3]);
	});

	it('names: "&" shown as AND, punctuation and accents dropped', async () => {
		await kit().control('/forms', { forms: ['name_and', 'name_plain'], mode: 'all' });
		const res = await kit().api('t2').post('/invoices', { ...body, policy_number: 'FORMS-NAME', insured_name: "Café O'Brien & Sons, L.L.C." });
		expect(res.status).toBe(201);
		const shown = await kit().api('t2').get(`/invoices/${String(res.data.data.id)}`);
		expect(shown.data.data.insured_name).toBe('Cafe OBrien AND Sons LLC');
	});

	it('a clock offset moves every created and meta.timestamp', async () => {
		const before = Date.parse((await kit().api('t2').get('/auth/me')).data.meta.timestamp);
		await kit().control('/forms', { forms: [], clock_offset_seconds: 3600 });
		const after = Date.parse((await kit().api('t2').get('/auth/me')).data.meta.timestamp);
		expect(after - before).toBeGreaterThanOrEqual(3600_000);
		expect(after - before).toBeLessThan(3660_000);
	});
});
