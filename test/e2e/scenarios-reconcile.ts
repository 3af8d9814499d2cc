/**
 * Invoice → Reconcile Sheet in a real n8n on every account kind (keyed t2 and t3, legacy t2 and
 * t3, and the keyed account's t1 read-only key): a sheet with one row for each answer, against
 * invoices filed through the API with the sheet's own invoice numbers (the mark) and by hand;
 * then the same with the sandbox showing a service's own forms: the answers are the same.
 */
import assert from 'node:assert/strict';

import type { IDataObject } from 'n8n-workflow';

import { keyByName } from '../sandbox';
import { api, control, invoiceBody, type Context, type Scenario } from './context';
import { json } from './runData';

const KINDS = [
	{ kind: 't2', filer: 't2', filing: true },
	{ kind: 't3', filer: 't3', filing: true },
	{ kind: 'legacy-t2', filer: 'legacy-t2', filing: false },
	{ kind: 'legacy-t3', filer: 'legacy-t3', filing: false },
	{ kind: 't1', filer: 't2', filing: true },
] as const;

/** A transaction as the sheet's rows give it (the Code node "Sheet" of the workflow). */
const sheetBody = (policy: string, extra: IDataObject = {}) =>
	invoiceBody({ policy_number: policy, insured_name: 'Harbor Marine Co', net_premium: 1200, effective_date: '2026-03-01', expiration_date: '2027-03-01', ...extra });

async function file(ctx: Context, filer: string, body: IDataObject): Promise<number> {
	const res = await api(ctx, 'POST', '/invoices', body, keyByName(filer).key);
	assert.equal(res.status, 201, JSON.stringify(res.error ?? res.data));
	return Number(res.data.id);
}

function reconcileScenario({ kind, filer, filing }: (typeof KINDS)[number], forms: boolean): Scenario {
	const ids: Record<string, number> = {};
	return {
		name: `reconcile-${kind}${forms ? '-forms' : ''}`,
		workflow: `reconcile-${kind}.json`,
		compat: true,
		async before(ctx) {
			// The service's own forms (test/sandbox/invoices/forms.ts): the answers must not change.
			if (forms) await control(ctx, '/forms', { forms: 'all', mode: 'all' });
			ids.a = await file(ctx, filer, sheetBody('REC-A', { invoice_number: 'INV-A-1' }));
			ids.b = await file(ctx, filer, sheetBody('REC-B', { invoice_number: 'INV-B-1', net_premium: 1250 }));
			ids.c = await file(ctx, filer, sheetBody('REC-C'));
			ids.e = await file(ctx, filer, sheetBody('REC-E', { insured_name: 'Harbour Marine Company' }));
			ids.extra = await file(ctx, filer, sheetBody('REC-A', { type_code: 'ENDORSEMENT', effective_date: '2026-06-01', net_premium: 300 }));
			if (filing) {
				await control(ctx, `/invoices/${ids.a}/status`, { status: 'success', state_status: 'confirmed', confirmation_number: 'TX-CONF-1' });
				await control(ctx, `/invoices/${ids.extra}/status`, { status: 'error', state_status: 'rejected', message: 'Missing affidavit' });
			}
		},
		check(run) {
			const out = json(run, 'Reconcile Sheet');
			assert.deepEqual(
				out.map((o) => [o.row, o.policy_number, o.answer]),
				// Rows as the sheet shows them (the header is row 1). REC-C was entered by hand, so it
				// carries no mark: under the service's forms its dates read as either of two days, a
				// match only through a second reading, never "the same" (issue 44).
				[
					[2, 'REC-A', 'filed as the sheet says'],
					[3, 'REC-B', 'filed differently'],
					[4, 'REC-C', forms ? 'cannot tell' : 'filed as the sheet says'],
					[5, 'REC-D', 'not filed'],
					[6, 'REC-E', 'cannot tell'],
					[7, 'REC-F', 'refused'],
					[null, 'REC-A', 'on the service, not on the sheet'],
				],
				`${kind}: ${JSON.stringify(out).slice(0, 600)}`,
			);
			const [a, b, c, , e, refused, extra] = out;
			assert.equal(a.invoice_id, ids.a);
			// The sheet's own number, in whatever form the service shows it (filing/mark.ts's form).
			assert.equal(a.recognised_by, 'mark');
			if (filing) assert.deepEqual([a.filing_state, a.confirmation_number], ['confirmed', 'TX-CONF-1']);
			assert.equal(b.invoice_id, ids.b);
			if (!forms) assert.deepEqual(b.differences, [{ column: 'Premium', field: 'net_premium', sheet: '1,200.00', service: '1250' }]);
			else assert.deepEqual((b.differences as IDataObject[]).map((d) => d.column), ['Premium']);
			if (forms) assert.deepEqual((c.candidates as IDataObject[]).map((x) => x.invoice_id), [ids.c]);
			else assert.deepEqual([c.invoice_id, c.recognised_by], [ids.c, 'forms']);
			assert.deepEqual((e.candidates as IDataObject[]).map((x) => x.invoice_id), [ids.e]);
			assert.match((refused.reasons as string[]).join(' '), /Column "State"/);
			assert.equal(extra.invoice_id, ids.extra);
			if (filing) assert.equal(extra.filing_state, 'rejected');
			const summary = a.summary as IDataObject;
			assert.deepEqual(
				[summary.filed, summary.differently, summary.notFiled, summary.cannotTell, summary.refused, summary.notOnSheet, summary.rejectedByState],
				[forms ? 1 : 2, 1, 1, forms ? 2 : 1, 1, 1, filing ? 1 : 0],
			);
		},
	};
}

export const RECONCILE_SCENARIOS: Scenario[] = [false, true].flatMap((forms) => KINDS.map((kind) => reconcileScenario(kind, forms)));
