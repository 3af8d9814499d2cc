/**
 * Panel weight: from Invoice typeVersion 2 the groups users fill least (Insured
 * Address, Documents, Insurer Groups by Line of Business) are Additional Fields entries (Update
 * Fields on Update) instead of empty sections; Coverages, Insurers and Fees and Taxes stay on the
 * panel. Version 1 keeps all six where they were, read from there.
 */
import nock from 'nock';
import { NodeHelpers, type IDataObject, type INode, type INodeProperties } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode } from '../../harness/engine';
import { asSent, API, BASE, KEYS, envelope, invoiceFor, meReply, row, setupSuite, type Body } from './helpers';

setupSuite();
beforeEach(() => nock(API).get('/auth/me').reply(200, meReply()).persist());

const REQUIRED = {
	policyNumber: 'POL-9',
	insuredName: 'Acme',
	stateCode: 'TX',
	netPremium: 1200,
	effectiveDate: '2026-06-01',
	expirationDate: '2027-01-01',
};
const GROUPS = {
	insuredAddress: { address: { line1: '1 Main St', city: 'Austin', zip: '78701' } },
	documents: { document: [{ type: 'DEC', docUUID: 'doc-9' }] },
	insurerGroups: { group: [{ lobName: 'General Liability', amount: 1200, companies: { company: [{ identifyBy: 'naic', naic: '90001', shareBy: 'whole' }] } }] },
};
/** What the groups above send, whichever place they were read from. */
const sent: Body = {
	...row({ policy_number: 'POL-9', insured_name: 'Acme', net_premium: 1200, effective_date: '2026-06-01' }),
	invoice_number: 'INV-9',
	insured_address: { line1: '1 Main St', city: 'Austin', zip: '78701', type_id: 2 },
	documents: [{ type: 'DEC', docUUID: 'doc-9' }],
	insurers: [{ lob_name: 'General Liability', amount: 1200, companies: [{ naic: '90001' }] }],
	fees: [{ type: 'sl_tax', amount: 58.2 }],
} as Body;
const FEES = { fees: { fee: [{ type: 'sl_tax', amount: 58.2 }] } };

function runInvoice(typeVersion: number, parameters: IDataObject) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', inputMode: 'fields', ...parameters },
		items: [{}],
		credentials: { apiKey: KEYS.t2, baseUrl: BASE },
		settings: { typeVersion },
	});
}

async function createSends(typeVersion: number, parameters: IDataObject) {
	const scope = nock(API).post('/invoices', asSent(sent)).reply(201, envelope(invoiceFor(sent, 91)));
	const { output, error } = await runInvoice(typeVersion, { operation: 'create', ...REQUIRED, ...FEES, ...parameters });
	expect(error).toBeUndefined();
	expect(output![0].json.id).toBe(91);
	scope.done();
}

describe('the folded groups are read where each version shows them', () => {
	it('version 2: from Additional Fields', async () => {
		await createSends(2, {
			billTaxesFromPreview: false,
			options: { idempotency: 'off' },
			additionalFields: { invoiceNumber: 'INV-9', ...GROUPS },
		});
	});

	it('version 1: from the panel, as saved workflows hold them', async () => {
		await createSends(1, { idempotency: 'off', additionalFields: { invoiceNumber: 'INV-9' }, ...GROUPS });
	});

	it('version 2 does not read them from the panel (it does not show them there)', async () => {
		const bare = { ...row({ policy_number: 'POL-9', insured_name: 'Acme', net_premium: 1200, effective_date: '2026-06-01' }), fees: sent.fees } as Body;
		const scope = nock(API).post('/invoices', asSent(bare)).reply(201, envelope(invoiceFor(bare, 92)));
		const { error } = await runInvoice(2, { operation: 'create', ...REQUIRED, ...FEES, ...GROUPS, billTaxesFromPreview: false, options: { idempotency: 'off' } });
		expect(error).toBeUndefined();
		scope.done();
	});

	it('version 2 Update: from Update Fields, only what is set', async () => {
		const address = { insured_address: { line1: '1 Main St', city: 'Austin', zip: '78701', type_id: 2 } } as Body;
		const scope = nock(API).put('/invoices/9', address).reply(200, envelope(invoiceFor(row(), 9)));
		const { error } = await runInvoice(2, {
			operation: 'update',
			invoiceId: { __rl: true, mode: 'id', value: '9' },
			updateFields: { insuredAddress: GROUPS.insuredAddress },
		});
		expect(error).toBeUndefined();
		scope.done();
	});
});

describe('what each version’s Fields panel shows', () => {
	const { properties } = new SurplusLinesInvoice().description;
	const groups = ['insuredAddress', 'coverages', 'insurers', 'insurerGroups', 'fees', 'documents'];

	function shown(list: INodeProperties[], values: IDataObject, typeVersion: number): INodeProperties[] {
		return list.filter((p) => NodeHelpers.displayParameter(values as never, p, { typeVersion } as INode, null));
	}

	function panel(typeVersion: number, operation: string) {
		const values = { resource: 'invoice', operation, inputMode: 'fields' };
		const top = shown(properties, values, typeVersion);
		const holder = top.find((p) => p.name === (operation === 'update' ? 'updateFields' : 'additionalFields'))!;
		return {
			sections: top.map((p) => p.name).filter((name) => groups.includes(name)),
			inHolder: shown(holder.options as INodeProperties[], {}, typeVersion).map((p) => p.name).filter((name) => groups.includes(name)),
		};
	}

	it.each(['create', 'createMany', 'preview', 'update'])('%s: version 2 shows 3 sections, the 3 others in its fields collection', (operation) => {
		expect(panel(2, operation)).toEqual({ sections: ['coverages', 'insurers', 'fees'], inHolder: ['documents', 'insuredAddress', 'insurerGroups'] });
	});

	it.each(['create', 'createMany', 'preview', 'update'])('%s: version 1 shows the six sections as before', (operation) => {
		expect(panel(1, operation)).toEqual({ sections: groups, inHolder: [] });
	});
});
