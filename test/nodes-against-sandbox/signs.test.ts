/**
 * Issue 32, items 4 and 5, in n8n's engine against the sandbox: the sheets the review ran (typeVersion
 * 2, Map Automatically and JSON bodies) through Create and Create Many on keyed and legacy t2
 * and t3 keys. Each row is either stored as the sheet says (amounts and signs read back from the
 * sandbox) or refused naming its columns; no row is lost; every key stores the same filings.
 */
import type { IDataObject } from 'n8n-workflow';

import { runInvoiceOn, useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';
import { client } from '../sandbox/testkit';

const sb = useSandboxSuite();

/** The account kinds: one replaying by key, one legacy; a t2 and a t3 key of each. */
const KEYS = ['t2', 't3', 'legacy-t2', 'legacy-t3'] as const;
const OPERATIONS = ['create', 'createMany'] as const;
const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
const COLUMNS = { inputMode: 'columns', columns: AUTO };
const JSON_BODY = { inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' };

const run = (keyName: string, parameters: IDataObject, items: IDataObject[]) => runInvoiceOn(sb, keyName, parameters, items, 2);

/** What the state sees of a stored invoice: type, premium, each fee and insurer amount with its sign. */
async function stored(keyName: string, id: unknown): Promise<IDataObject> {
	const res = await client(sb.baseUrl, keyByName(keyName).key).get(`/invoices/${String(id)}`);
	const invoice = (res.data as { data: IDataObject }).data;
	const fees = (invoice.fees as IDataObject[]).map((f) => [f.type, f.amount]);
	fees.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
	return {
		type: (invoice.type as IDataObject).name,
		net_premium: invoice.net_premium,
		fees,
		insurers: (invoice.insurers as IDataObject[]).map((i) => i.amount),
	};
}

/** Every invoice stored under the policies (a lost or extra row shows here). */
async function storedCount(keyName: string, policies: string[]): Promise<number> {
	let count = 0;
	for (const policy of policies) {
		const res = await client(sb.baseUrl, keyByName(keyName).key).get(`/invoices?policy_number=${encodeURIComponent(policy)}&per_page=100`);
		count += ((res.data as { data: { invoices: unknown[] } }).data.invoices ?? []).length;
	}
	return count;
}

const sheetRow = (policy: string, columns: IDataObject): IDataObject => ({
	'Policy Number': policy,
	'Insured Name': 'Harbor Storage LLC',
	State: 'TX',
	'Eff Date': '03/01/2026',
	'Exp Date': '03/01/2027',
	...columns,
});

/** The review's sheet: a row per input of items 4 and 5. */
function sheet(prefix: string): IDataObject[] {
	return [
		// 4: a return written "(500)", its SL Tax and insurer amount unsigned.
		sheetRow(`${prefix}-RET`, { 'Transaction Type': 'RPE', Premium: '(500.00)', 'SL Tax': '24.25', 'Insurer 1 NAIC': '90001', 'Insurer 1 Amount': '500' }),
		// 4: a plain Cancellation with a positive premium.
		sheetRow(`${prefix}-CXL`, { 'Transaction Type': 'Cancellation', Premium: '500', 'SL Tax': '24.25' }),
		// 4: a WY return with its Clearinghouse Fee (the pass-through twin of slas_fee) unsigned.
		sheetRow(`${prefix}-WY`, { State: 'WY', 'Transaction Type': 'Return Premium', Premium: '10,000.00', 'SL Tax': '300', 'Clearinghouse Fee': '17.50' }),
		// 4: signs that disagree: refused, naming the column.
		sheetRow(`${prefix}-BAD`, { 'Transaction Type': 'RPE', Premium: '(500.00)', 'SL Tax': '+24.25' }),
		// 5: an explicit 0 in SL Tax.
		sheetRow(`${prefix}-ZERO`, { 'Transaction Type': 'New', Premium: '10,000.00', 'SL Tax': '0', 'Stamping Fee': '4.00' }),
	];
}

/** The same inputs as JSON bodies, with the same tax twice (only a JSON or Fields body can say that). */
function jsonRows(prefix: string): IDataObject[] {
	const base = { insured_name: 'Harbor Storage LLC', state_code: 'TX', effective_date: '2026-03-01', expiration_date: '2027-03-01' };
	return [
		{ ...base, policy_number: `${prefix}-JRET`, type_code: 'RPE', net_premium: '(500)', insurers: [{ naic: '90001', amount: '500' }], fees: [{ type: 'sl_tax', amount: '24.25' }] },
		{ ...base, policy_number: `${prefix}-JDUP`, net_premium: 10000, fees: [{ type: 'sl_tax', amount: 485 }, { type: 'sl_tax', amount: 485 }] },
	];
}

const policiesOf = (rows: IDataObject[]) => rows.map((r) => String(r['Policy Number'] ?? r.policy_number));
const errorOf = (json: IDataObject) => ({ code: json.code, fields: json.fields });

describe('signs and tax lines as the sheet gives them, on every account kind', () => {
	it.each(OPERATIONS)('%s: every row filed as the sheet says or refused naming its columns; the same filings on every key', async (operation) => {
		const filings: Record<string, IDataObject[]> = {};
		for (const keyName of KEYS) {
			const prefix = `SG-${operation}-${keyName}`;
			const rows = sheet(prefix);
			const json = jsonRows(prefix);
			const fromSheet = await run(keyName, { operation, ...COLUMNS }, rows);
			const fromJson = await run(keyName, { operation, ...JSON_BODY }, json);
			const out = [...fromSheet.output!, ...fromJson.output!].map((o) => o.json);
			expect(out).toHaveLength(rows.length + json.length);

			// Refused, naming the column (or the JSON field), nothing stored for them.
			expect(errorOf(out[3])).toEqual({
				code: 'INVALID_INPUT',
				fields: [
					`Column "SL Tax": +24.25 is written positive, but the premium ((500.00)) is returned and every amount of a change has the premium's sign; write it unsigned or negative`,
				],
			});
			expect(errorOf(out[6])).toEqual({
				code: 'INVALID_INPUT',
				fields: [
					"fees[0]: 'sl_tax' is given 2 times (fees[0], fees[1]); a tax is billed once: keep one",
					"fees[1]: 'sl_tax' is given 2 times (fees[0], fees[1]); a tax is billed once: keep one",
				],
			});
			// Every other row filed once: none lost, none twice.
			const filedRows = [0, 1, 2, 4, 5];
			for (const n of filedRows) expect(out[n].id).toEqual(expect.any(Number));
			expect(await storedCount(keyName, policiesOf([...rows, ...json]))).toBe(filedRows.length);

			// The signs each row said, said back on the item.
			expect(out[0]._converted).toEqual(
				expect.arrayContaining([
					expect.objectContaining({ field: 'fees[0].amount', from: '24.25', to: -24.25, column: 'SL Tax' }),
					expect.objectContaining({ field: 'insurers[0].amount', from: '500', to: -500 }),
				]),
			);
			expect(out[1]._warnings).toEqual(
				expect.arrayContaining([expect.stringMatching(/^net_premium: 500 is positive on a CANCELLATION/)]),
			);
			if (operation === 'create') {
				// Bill Taxes From Preview (version 2's default) kept the 0 and said what it computed.
				expect(out[4]._warnings).toEqual(
					expect.arrayContaining([expect.stringMatching(/^Surplus Lines Tax \(sl_tax\): the row gives 0 and 0 is filed; the preview computed 485\.00 for TX/)]),
				);
			}
			filings[keyName] = await Promise.all(filedRows.map((n) => stored(keyName, out[n].id)));
		}

		// Create bills the preview's other lines (stamping fee) beside the sheet's; Create Many makes no preview.
		const billed = (lines: Array<[string, number]>, extra: Array<[string, number]>) =>
			(operation === 'create' ? [...lines, ...extra] : lines).sort((a, b) => a[0].localeCompare(b[0]));
		expect(filings.t2).toEqual([
			{ type: 'Endorsement', net_premium: -500, fees: billed([['sl_tax', -24.25]], [['stamping_fee', -0.2]]), insurers: [-500] },
			{ type: 'Cancelled', net_premium: 500, fees: billed([['sl_tax', 24.25]], [['stamping_fee', 0.2]]), insurers: [] },
			{ type: 'Endorsement', net_premium: -10000, fees: billed([['clearinghouse_fee', -17.5], ['sl_tax', -300]], []), insurers: [] },
			{ type: 'New', net_premium: 10000, fees: [['sl_tax', 0], ['stamping_fee', 4]], insurers: [] },
			{ type: 'Endorsement', net_premium: -500, fees: billed([['sl_tax', -24.25]], [['stamping_fee', -0.2]]), insurers: [-500] },
		]);
		for (const keyName of KEYS) expect(filings[keyName]).toEqual(filings.t2);
	});

	it.each(KEYS)('%s: correct FL and WY rows with a Filing Fee or Clearinghouse Fee column pass the tax check in Fail mode and are filed as the sheet says', async (keyName) => {
		const rows = [
			sheetRow(`SG-FL-${keyName}`, { State: 'FL', 'Transaction Type': 'New', Premium: '10,000.00', 'SL Tax': '494', 'Service Fee': '6', 'FIGA Assessment': '100', 'Filing Fee': '4', 'Total Taxes': '604', 'Total Due': '10604' }),
			sheetRow(`SG-WYN-${keyName}`, { State: 'WY', 'Transaction Type': 'New', Premium: '10,000.00', 'SL Tax': '300', 'Clearinghouse Fee': '17.50', 'Total Due': '10317.50' }),
			sheetRow(`SG-WYR-${keyName}`, { State: 'WY', 'Transaction Type': 'RPE', Premium: '10,000.00', 'SL Tax': '300', 'Clearinghouse Fee': '17.50', 'Total Due': '10317.50' }),
		];
		const { output } = await run(keyName, { operation: 'create', ...COLUMNS, options: { sheetTaxCheck: 'fail' } }, rows);
		const out = output!.map((o) => o.json);
		for (const json of out) {
			expect(json.code).toBeUndefined();
			expect((json._taxCheck as IDataObject).differences).toBe(0);
		}
		expect(await Promise.all(out.map((json) => stored(keyName, json.id)))).toEqual([
			{ type: 'New', net_premium: 10000, fees: [['figa', 100], ['filing_fee', 4], ['service_fee', 6], ['sl_tax', 494]], insurers: [] },
			{ type: 'New', net_premium: 10000, fees: [['clearinghouse_fee', 17.5], ['sl_tax', 300]], insurers: [] },
			{ type: 'Endorsement', net_premium: -10000, fees: [['clearinghouse_fee', -17.5], ['sl_tax', -300]], insurers: [] },
		]);
	});

	it('Fail mode: the same tax twice no longer passes the check; it is refused before any preview', async () => {
		const body = { ...jsonRows('SG-F')[1], policy_number: 'SG-FDUP' };
		const { output } = await run('t2', { operation: 'create', ...JSON_BODY, options: { sheetTaxCheck: 'fail' } }, [body]);
		expect(output![0].json.code).toBe('INVALID_INPUT');
		expect(await storedCount('t2', ['SG-FDUP'])).toBe(0);
	});
});
