/**
 * One canonical create body: every way of writing the same invoice gives the same body,
 * so the same Idempotency-Key.
 */
import type { IDataObject } from 'n8n-workflow';

import { canonicalInvoice } from '../../../nodes/filing/canonical';
import { deriveIdempotencyKey } from '../../../nodes/filing/idempotency';

const base = {
	policy_number: 'P-1',
	insured_name: 'Acme',
	state_code: 'TX',
	net_premium: 1000,
	effective_date: '2026-01-01',
	expiration_date: '2027-01-01',
};
const key = (body: IDataObject) => deriveIdempotencyKey('/invoices', canonicalInvoice(body));

describe('canonicalInvoice', () => {
	it('writes out the default type, trims text, leaves out null, empty text and empty lists', () => {
		expect(
			canonicalInvoice({ ...base, policy_number: ' P-1 ', insured_name: 'Acme  ', class_code: null, invoice_number: '', fees: [], insured_address: { line2: '' } }),
		).toEqual({ ...base, type_code: 'NEW' });
	});

	it('sorts fees, coverages and documents by code; keeps the order of a coverage’s limits and of insurers', () => {
		const body = canonicalInvoice({
			...base,
			fees: [{ type: 'sl_tax', amount: 48.5 }, { type: 'broker_fee', amount: 25 }],
			insurers: [{ company_id: 303, percent: 60 }, { company_id: 301, percent: 40 }],
			coverages: [{ code: 'WIND', amount: 1000, limits: [{ premium: 600 }, { premium: 400 }] }],
		});
		expect(body.fees).toEqual([{ type: 'broker_fee', amount: 25 }, { type: 'sl_tax', amount: 48.5 }]);
		// Insurers keep the order given: an account adaptation may rename them.
		expect(body.insurers).toEqual([{ company_id: 303, percent: 60 }, { company_id: 301, percent: 40 }]);
		expect(body.coverages).toEqual([{ code: 'WIND', amount: 1000, limits: [{ premium: 600 }, { premium: 400 }] }]);
	});

	it('gives one key for every way of writing the same invoice, another for another invoice', () => {
		const one = key(base);
		expect(key({ ...base, type_code: 'NEW' })).toBe(one);
		expect(key({ ...base, insured_name: ' Acme ', class_code: null })).toBe(one);
		expect(key({ ...base, class_code: '' })).toBe(one);
		expect(key({ ...base, type_code: 'RENEWAL' })).not.toBe(one);
		expect(key({ ...base, net_premium: 1000.01 })).not.toBe(one);
		const fees = [{ type: 'sl_tax', amount: 48.5 }, { type: 'broker_fee', amount: 25 }];
		expect(key({ ...base, fees })).toBe(key({ ...base, fees: [...fees].reverse() }));
	});

	it('gives one key whichever code of a fee alias pair the row writes, and sends the code written', () => {
		const written = (fees: IDataObject[]) => key({ ...base, fees });
		const one = written([{ type: 'sl_tax', amount: 48.5 }, { type: 'slas_fee', amount: 2 }, { type: 'fire_marshal', amount: 3 }]);
		expect(written([{ type: 'clearinghouse_fee', amount: 2 }, { type: 'sl_tax', amount: 48.5 }, { type: 'fire_marshall_tax', amount: 3 }])).toBe(one);
		expect(written([{ type: 'sl_tax', amount: 48.5 }, { type: 'slas_fee', amount: 2.01 }, { type: 'fire_marshal', amount: 3 }])).not.toBe(one);
		expect(written([{ type: 'flat_fee', amount: 5 }])).toBe(written([{ type: 'filing_fee', amount: 5 }]));
		expect(canonicalInvoice({ ...base, fees: [{ type: 'slas_fee', amount: 2 }] }).fees).toEqual([{ type: 'slas_fee', amount: 2 }]);
	});

	it('does not change the body it is given', () => {
		const body = { ...base, insured_name: ' Acme ' };
		canonicalInvoice(body);
		expect(body).toEqual({ ...base, insured_name: ' Acme ' });
	});
});
