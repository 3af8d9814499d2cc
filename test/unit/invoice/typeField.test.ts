/**
 * Type (type_code) as a top-level field right after Policy Number in Fields mode (Create, Preview,
 * Create Many), optional in Update's fields. Workflows saved when Type was in Additional Fields
 * still send it from there.
 */
import nock from 'nock';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { asSent, API, envelope, invoiceFor, row, run, setupSuite, type Body } from './helpers';

setupSuite();

const REQUIRED = {
	policyNumber: 'POL-8',
	insuredName: 'Acme',
	stateCode: 'TX',
	netPremium: -250,
	effectiveDate: '2026-06-01',
	expirationDate: '2027-01-01',
};
const sentRequired = {
	policy_number: 'POL-8',
	insured_name: 'Acme',
	state_code: 'TX',
	net_premium: -250,
	effective_date: '2026-06-01',
	expiration_date: '2027-01-01',
};
const fieldsCreate = (extra: IDataObject) => ({ operation: 'create', inputMode: 'fields', idempotency: 'off', ...REQUIRED, ...extra });

/** Files through nock expecting exactly `expected`; returns whether the node succeeded. */
async function createSends(expected: Body, parameters: IDataObject) {
	const scope = nock(API).post('/invoices', asSent(expected)).reply(201, envelope(invoiceFor(expected, 81)));
	const { output, error } = await run(parameters);
	expect(error).toBeUndefined();
	expect(output![0].json.id).toBe(81);
	scope.done();
}

describe('Type in Fields mode', () => {
	it('a create sends type_code from the top-level Type', async () => {
		await createSends({ ...sentRequired, type_code: 'ENDORSEMENT' }, fieldsCreate({ typeCode: 'ENDORSEMENT' }));
	});

	it('the top-level default NEW (the service default) is sent written out, as every body source sends it (one body, one key)', async () => {
		await createSends({ ...sentRequired, net_premium: 1000, type_code: 'NEW' }, fieldsCreate({ netPremium: 1000 }));
		await createSends({ ...sentRequired, net_premium: 1000, type_code: 'NEW' }, fieldsCreate({ netPremium: 1000, typeCode: 'NEW' }));
	});

	it('an older workflow with Type in Additional Fields still sends it, over the top-level default', async () => {
		await createSends(
			{ ...sentRequired, type_code: 'CANCELLATION', invoice_number: 'INV-8' },
			fieldsCreate({ additionalFields: { typeCode: 'CANCELLATION', invoiceNumber: 'INV-8' } }),
		);
		await createSends({ ...sentRequired, type_code: 'NEW' }, fieldsCreate({ additionalFields: { typeCode: 'NEW' } }));
	});

	it('Update sends Type only when it is set in Update Fields', async () => {
		const byId = { __rl: true, mode: 'id', value: '9' };
		const scope = nock(API)
			.put('/invoices/9', { type_code: 'ENDORSEMENT', net_premium: -100 })
			.reply(200, envelope(invoiceFor(row(), 9)))
			.put('/invoices/9', { commission: 5 })
			.reply(200, envelope(invoiceFor(row(), 9)));
		for (const updateFields of [{ typeCode: 'ENDORSEMENT', netPremium: -100 }, { commission: 5 }]) {
			const { error } = await run({ operation: 'update', invoiceId: byId, inputMode: 'fields', updateFields });
			expect(error).toBeUndefined();
		}
		scope.done();
	});

	it('is a top-level options field right after Policy Number for Create, Preview and Create Many; in Update Fields for Update', () => {
		const props = new SurplusLinesInvoice().description.properties;
		const forOp = (op: string) => props.filter((p) => (p.displayOptions?.show?.operation as string[] | undefined)?.includes(op));
		for (const op of ['create', 'preview', 'createMany']) {
			const names = forOp(op).map((p) => p.name);
			expect(names[names.indexOf('policyNumber') + 1]).toBe('typeCode');
			const type = forOp(op).find((p) => p.name === 'typeCode')!;
			expect(type).toMatchObject({ type: 'options', default: 'NEW' });
			expect(type.displayOptions?.show?.inputMode).toEqual(['fields']);
			// Kept in Additional Fields only for older workflows: shown only where it is already set.
			const additional = forOp(op).find((p) => p.name === 'additionalFields')!.options as INodeProperties[];
			expect(additional.find((o) => o.name === 'typeCode')?.displayOptions).toEqual({ show: { typeCode: [{ _cnd: { exists: true } }] } });
		}
		const update = forOp('update');
		expect(update.map((p) => p.name)).not.toContain('typeCode');
		const updateFields = update.find((p) => p.name === 'updateFields')!.options as INodeProperties[];
		expect(updateFields.find((o) => o.name === 'typeCode')).toMatchObject({ type: 'options', default: 'NEW' });
		expect(updateFields.find((o) => o.name === 'typeCode')!.displayOptions).toBeUndefined();
	});
});
