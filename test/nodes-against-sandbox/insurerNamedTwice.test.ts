/**
 * Issue 38, against the sandbox in n8n's engine: an insurer given by NAIC and by name ("Carrier"
 * beside "Carrier NAIC"). The service uses one of the two, which is not shown; so a row whose two
 * columns are two companies is refused naming both, before anything is filed, on every account
 * kind; a name written in another form of the same company ("Ins. Co.") is filed.
 */
import type { IDataObject } from 'n8n-workflow';

import { runInvoiceOn, useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';

const sb = useSandboxSuite();

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

function row(policy: string, carrier: string): IDataObject {
	return {
		'Policy Number': policy,
		'Insured Name': 'Harbor Freight Storage LLC',
		State: 'TX',
		Type: 'New',
		'Effective Date': '2026-03-01',
		'Expiration Date': '2027-03-01',
		Premium: '1000.00',
		Carrier: carrier,
		'Carrier NAIC': '90001',
	};
}

async function run(keyName: string, operation: string, items: IDataObject[]) {
	return (await runInvoiceOn(sb, keyName, { operation, inputMode: 'columns', columns: AUTO, options: {} }, items, 2)).output!;
}

async function storedOnPolicy(keyName: string, policy: string): Promise<IDataObject[]> {
	const res = await fetch(`${sb.baseUrl}/invoices?policy_number=${policy}`, {
		headers: { authorization: `Bearer ${keyByName(keyName).key}` },
	});
	const body = (await res.json()) as { data: IDataObject };
	const list = (body.data.invoices ?? body.data.items ?? body.data) as IDataObject[];
	return Array.isArray(list) ? list.filter((i) => i.policy_number === policy) : [];
}

describe('an insurer named by NAIC and by name', () => {
	it.each([
		['t2', 'create'],
		['legacy-t2', 'create'],
		['t3', 'createMany'],
		['legacy-t3', 'createMany'],
	])('on %s with %s: two companies are refused naming both columns; one company in another form is filed', async (keyName, operation) => {
		const other = `TWICE-${keyName}-${operation}-A`;
		const same = `TWICE-${keyName}-${operation}-B`;
		const output = await run(keyName, operation, [
			row(other, 'Atlantic Excess Insurance Company'),
			row(same, 'SANDBOX SPECIALTY INS. CO.'),
		]);
		expect(output.map((o) => (o.pairedItem as { item: number }).item)).toEqual([0, 1]);
		const refused = output[0].json;
		expect(String(refused.error)).toContain('"Carrier NAIC"');
		expect(String(refused.error)).toContain('"Carrier"');
		expect(String(refused.error)).toContain('Sandbox Specialty Insurance Company');
		expect(String(refused.error)).toContain('Atlantic Excess Insurance Company');
		expect(output[1].json.error).toBeUndefined();
		expect(output[1].json.id).toBeDefined();
		expect(await storedOnPolicy(keyName, other)).toHaveLength(0);
		expect(await storedOnPolicy(keyName, same)).toHaveLength(1);
	});
});
