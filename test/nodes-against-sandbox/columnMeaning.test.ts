/**
 * Issue 38, against the sandbox in n8n's engine: columns whose meaning goes beyond one field, on
 * keyed and legacy t2 and t3 with Create and Create Many. Each row is filed as the sheet says
 * (read back through the API) or refused naming its columns, before anything is filed.
 */
import type { IDataObject } from 'n8n-workflow';

import { runInvoiceOn, storedInvoice, useSandboxSuite, EVERY_ACCOUNT_AND_OPERATION } from '../helpers/sandboxSuite';

const sb = useSandboxSuite();

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

const base = (policy: string): IDataObject => ({
	'Policy Number': policy,
	'Insured Name': 'Harbor Freight Storage LLC',
	State: 'TX',
	Type: 'New',
	'Effective Date': '2026-03-01',
	'Expiration Date': '2027-03-01',
	'Insurer 1 NAIC': '90001',
});

interface Case {
	what: string;
	cells: IDataObject;
	/** The columns a refusal names, or what the stored invoice holds. */
	refusedNaming?: string[];
	stored?: IDataObject;
	ignored?: string[];
}

const CASES: Case[] = [
	{ what: 'a total beside its fee and tax', cells: { 'Total Premium': '1,123.50', 'Policy Fee': '75.00', 'SL Tax': '48.50' }, refusedNaming: ['Total Premium'] },
	{ what: 'a commission percent', cells: { Premium: '1,000.00', 'Commission %': '10' }, stored: { net_premium: 1000, commission: 100 } },
	{ what: 'a commission percent beside a commission that disagrees', cells: { Premium: '1,000.00', 'Commission %': '10', Commission: '150.00' }, refusedNaming: ['Commission %', 'Commission'] },
	{ what: 'a tax exemption', cells: { Premium: '1,000.00', 'Tax Exempt': 'Y' }, refusedNaming: ['Tax Exempt'] },
	{ what: "an insurer's percent and amount that disagree", cells: { Premium: '1,000.00', 'Insurer 1 %': '60', 'Insurer 1 Amount': '500.00' }, refusedNaming: ['Insurer 1 %', 'Insurer 1 Amount'] },
	{ what: 'a mailing state beside the taxing state', cells: { Premium: '1,000.00', 'Mailing State': 'NY' }, stored: { state: 'TX', net_premium: 1000 }, ignored: ['Mailing State'] },
];

async function run(keyName: string, operation: string, items: IDataObject[]) {
	return (await runInvoiceOn(sb, keyName, { operation, inputMode: 'columns', columns: AUTO, options: {} }, items, 2)).output!;
}

const stored = async (keyName: string, id: unknown) => await storedInvoice(sb, keyName, id);

describe('columns whose meaning goes beyond one field', () => {
	it.each(EVERY_ACCOUNT_AND_OPERATION)('on %s with %s: each row filed as the sheet says or refused naming its columns', async (keyName, operation) => {
		const items = CASES.map((c, n) => ({ ...base(`MEANING-${keyName}-${operation}-${n}`), ...c.cells }));
		const output = await run(keyName, operation, items);
		expect(output.map((o) => (o.pairedItem as { item: number }).item)).toEqual([...CASES.keys()]);
		for (const [n, c] of CASES.entries()) {
			const json = output[n].json;
			if (c.refusedNaming) {
				const said = [json.error, ...((json.fields as string[] | undefined) ?? [])].join('\n');
				for (const column of c.refusedNaming) expect({ what: c.what, said: said.includes(`"${column}"`) }).toEqual({ what: c.what, said: true });
				expect({ what: c.what, id: json.id }).toEqual({ what: c.what, id: undefined });
				continue;
			}
			expect({ what: c.what, error: json.error }).toEqual({ what: c.what, error: undefined });
			const invoice = await stored(keyName, json.id);
			const read = (field: string) => (field === 'state' ? (invoice.state as IDataObject).code : Number(invoice[field]));
			for (const [field, value] of Object.entries(c.stored ?? {})) expect({ what: c.what, field, value: read(field) }).toEqual({ what: c.what, field, value });
			const ignored = ((json._ignoredColumns ?? []) as IDataObject[]).map((i) => String(i.column));
			for (const column of c.ignored ?? []) expect({ what: c.what, ignored: ignored.includes(column) }).toEqual({ what: c.what, ignored: true });
		}
	});
});
