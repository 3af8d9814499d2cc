/**
 * Invoice typeVersion 2 in the real n8n (v2 bills the preview's taxes): a node saved with version 1 runs as before
 * (no preview, the invoice filed as given, now with the tax warning), and a version 2 node with no
 * Bill Taxes From Preview setting bills the preview's taxes; its date picker values go as YYYY-MM-DD.
 */
import assert from 'node:assert/strict';

import { api, type Scenario } from './context';
import { json } from './runData';

const invoiceVersions: Scenario = {
	name: 'invoice versions 1 and 2',
	workflow: 'invoice-versions.json',
	async check(run, ctx) {
		const [v1] = json(run, 'Create (Saved With Version 1)');
		assert.deepEqual(v1.fees, [], 'version 1: filed as given, no preview');
		assert.match(String(v1._taxWarning), /^Filed without a Surplus Lines Tax \(sl_tax\) line: every state levies surplus lines tax, and TX gets none/);
		assert.match(String(v1.created_utc), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);

		const [v2] = json(run, 'Create (Version 2)');
		assert.deepEqual(v2.fees, [{ type: 'sl_tax', amount: 485 }, { type: 'stamping_fee', amount: 4 }], 'version 2 bills the taxes by default');
		assert.equal(v2._taxWarning, undefined);
		assert.equal(v2.effective_date, '2026-01-01', 'the date picker value went as YYYY-MM-DD');

		const stored = await api(ctx, 'GET', '/invoices?policy_number=E2E-VER-1');
		const invoices = stored.data.invoices as Array<{ fees: unknown[] }>;
		assert.deepEqual(invoices.map((i) => i.fees), [[]], 'the service holds the version 1 invoice as sent');
	},
};

export const EDITOR_SCENARIOS: Scenario[] = [invoiceVersions];
