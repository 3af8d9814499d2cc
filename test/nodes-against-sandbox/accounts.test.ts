/**
 * One workflow, every account, against the sandbox: the same node parameters and rows on an
 * account with the new features (t2) and on a legacy one (legacy-t2, legacy-t3) store the same
 * invoices, through every body source (Fields, JSON, Input Item As Is, Map Columns). The
 * sandbox's own counter of calls says what the look-ups cost.
 */
import type { IDataObject } from 'n8n-workflow';

import { runInvoiceOn, useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';

const sb = useSandboxSuite();

const run = (keyName: string, parameters: IDataObject, items?: IDataObject[], typeVersion?: number) =>
	runInvoiceOn(sb, keyName, parameters, items, typeVersion);

async function stored(keyName: string, id: unknown): Promise<IDataObject> {
	const res = await fetch(`${sb.baseUrl}/invoices/${String(id)}`, { headers: { authorization: `Bearer ${keyByName(keyName).key}` } });
	return ((await res.json()) as { data: IDataObject }).data;
}

/** The stored invoice as the state sees it, the same on every account. */
async function filing(keyName: string, id: unknown): Promise<IDataObject> {
	const invoice = await stored(keyName, id);
	return {
		type: (invoice.type as IDataObject).name,
		lob: invoice.lob,
		net_premium: invoice.net_premium,
		change_date: invoice.transaction_effective_date ?? invoice.effective_date,
		insurers: (invoice.insurers as IDataObject[]).map((i) => [i.company_id, i.percent, i.amount]),
	};
}

/** Calls the key made, from the sandbox's rate-limit header of one more call. */
async function callsMade(keyName: string): Promise<number> {
	const res = await fetch(`${sb.baseUrl}/reference/states`, { headers: { authorization: `Bearer ${keyByName(keyName).key}` } });
	return Number(res.headers.get('x-ratelimit-limit')) - Number(res.headers.get('x-ratelimit-remaining')) - 1;
}

const ROWS: IDataObject[] = [
	{
		policy_number: 'ACC-1',
		insured_name: 'Blue Ridge Storage Inc',
		state_code: 'TX',
		net_premium: 1000,
		effective_date: '2026-03-01',
		expiration_date: '2027-03-01',
		insurers: [
			{ lob_name: 'General Liability', amount: 600, companies: [{ naic: '90001' }] },
			{ lob_name: 'Commercial Property', amount: 400, companies: [{ company_name: 'atlantic excess insurance company' }] },
		],
	},
	{
		policy_number: 'ACC-1',
		insured_name: 'Blue Ridge Storage Inc',
		state_code: 'TX',
		type_code: 'ENDORSEMENT',
		net_premium: 250,
		effective_date: '2026-03-01',
		expiration_date: '2027-03-01',
		transaction_effective_date: '2026-07-01',
		lob_name: 'Excess Liability',
		insurers: [{ naic: '90001', percent: 100 }],
	},
];

describe('the same rows on a new-features and a legacy account', () => {
	it.each([
		['JSON', { inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' }],
		['Input Item As Is', { inputMode: 'inputItem' }],
	])('Create Many, %s: the same filings; on legacy t2 one search per value and one GET /lobs', async (_source, params) => {
		const filings: Record<string, IDataObject[]> = {};
		const calls: Record<string, number> = {};
		for (const keyName of ['t2', 'legacy-t2', 'legacy-t3']) {
			// legacy-t2 and legacy-t3 share one account: a policy of its own for each.
			const rows = ROWS.map((r) => ({ ...r, policy_number: `${String(r.policy_number)}-${keyName}` }));
			const { output } = await run(keyName, { operation: 'createMany', ...params }, rows);
			expect(output!.map((o) => o.json.outcome)).toEqual(['filed', 'filed']);
			calls[keyName] = await callsMade(keyName);
			filings[keyName] = await Promise.all(output!.map((o) => filing(keyName, o.json.id)));
		}
		expect(filings.t2).toEqual([
			{ type: 'New', lob: null, net_premium: 1000, change_date: '2026-03-01', insurers: [[301, 100, 600], [305, 100, 400]] },
			{ type: 'Endorsement', lob: { id: 4, name: 'Excess Liability' }, net_premium: 250, change_date: '2026-07-01', insurers: [[301, 100, 250]] },
		]);
		expect(filings['legacy-t2']).toEqual(filings.t2);
		expect(filings['legacy-t3']).toEqual(filings.t2);
		// legacy-t2: GET /auth/me, 2 searches (90001 twice, one name), GET /lobs, 1 policy listing, 2 creates.
		// legacy-t3: the same with one batch call instead of two creates; t2: GET /auth/me (the rows
		// use newer features), 1 policy listing (the look first, on every account) and 2 creates.
		expect(calls).toEqual({ t2: 4, 'legacy-t2': 7, 'legacy-t3': 6 });
	});

	it('Fields (version 2) and Map Columns name what they looked up, on the legacy account', async () => {
		const fields = {
			operation: 'create',
			inputMode: 'fields',
			policyNumber: 'ACC-F',
			insuredName: 'Acme',
			stateCode: 'TX',
			netPremium: 500,
			effectiveDate: '2026-03-01',
			expirationDate: '2027-03-01',
			additionalFields: { lobName: 'Inland Marine' },
			insurers: { insurer: [{ identifyBy: 'companyName', companyName: 'Lone Star Specialty Underwriters', shareBy: 'percent', percent: 100 }] },
		};
		const viaFields = await run('legacy-t2', fields, [{}], 2);
		expect(viaFields.output![0].json.outcome).toBe('filed');
		expect((viaFields.output![0].json._adapted as IDataObject[]).map((a) => [a.field, a.to])).toEqual([
			['insurers[0].company_name', 304],
			['lob_name', 5],
		]);
		expect(await filing('legacy-t2', viaFields.output![0].json.id)).toMatchObject({ lob: { id: 5, name: 'Inland Marine' }, insurers: [[304, 100, 500]] });

		const sheet = { 'Policy #': 'ACC-M', 'Insured Name': 'Acme', State: 'Texas', Premium: '$800.00', 'Eff Date': '03/01/2026', 'Exp Date': '03/01/2027', 'Insurer 1 NAIC': '90002', 'Insurer 2 Name': 'Sandbox', 'Insurer 1 %': '50%', 'Insurer 2 %': '50%' };
		const columns = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
		const viaColumns = await run('legacy-t2', { operation: 'create', inputMode: 'columns', columns }, [sheet]);
		// "Sandbox" is a part of one company's name, not its name: refused, naming the column and what the search found.
		expect(String(viaColumns.output![0].json.error)).toContain(
			'Column "Insurer 2 Name": no company has the name \'Sandbox\'; the search found Sandbox Specialty Insurance Company (id 301, NAIC 90001).',
		);
		const fixed = await run('legacy-t2', { operation: 'create', inputMode: 'columns', columns }, [{ ...sheet, 'Insurer 2 Name': 'Sandbox Specialty Insurance Company' }]);
		expect((fixed.output![0].json._adapted as IDataObject[]).map((a) => [a.field, a.column, a.to])).toEqual([
			['insurers[0].naic', 'Insurer 1 NAIC', 302],
			['insurers[1].company_name', 'Insurer 2 Name', 301],
		]);
	});
});
