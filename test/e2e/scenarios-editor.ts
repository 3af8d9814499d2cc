/**
 * Invoice typeVersions in the real n8n: a node saved with version 1 runs as before (no preview, the
 * invoice filed as given, now with the tax warning); a version 2 node with no Bill Taxes From
 * Preview setting bills the preview's taxes, its date picker values sent as YYYY-MM-DD; both keep
 * the service's `filed`. A version 3 node files the same way and shows it as `sent_to_state`.
 */
import assert from 'node:assert/strict';

import { api, type Scenario } from './context';
import { json } from './runData';

const invoiceVersions: Scenario = {
	name: 'invoice versions',
	workflow: 'invoice-versions.json',
	// Saved workflows of every version keep working on the oldest supported n8n too.
	compat: true,
	async check(run, ctx) {
		const [v1] = json(run, 'Create (Saved With Version 1)');
		assert.deepEqual(v1.fees, [], 'version 1: filed as given, no preview');
		assert.match(String(v1._taxWarning), /^Filed without a Surplus Lines Tax \(sl_tax\) line: every state levies surplus lines tax, and TX gets none/);
		assert.match(String(v1.created_utc), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);

		const [v2] = json(run, 'Create (Version 2)');
		assert.deepEqual(v2.fees, [{ type: 'sl_tax', amount: 485 }, { type: 'stamping_fee', amount: 4 }], 'version 2 bills the taxes by default');
		assert.equal(v2._taxWarning, undefined);
		assert.equal(v2.effective_date, '2026-01-01', 'the date picker value went as YYYY-MM-DD');
		assert.equal(v2.filed, false, 'version 2 keeps the service’s filed');
		assert.equal(v2.sent_to_state, undefined);

		const [v3] = json(run, 'Create (Version 3)');
		assert.deepEqual(v3.fees, v2.fees, 'version 3 files as version 2 does');
		assert.equal(v3.outcome, 'filed');
		assert.equal(v3.sent_to_state, false, 'filed with the service, not yet sent to the state');
		assert.equal('filed' in v3, false, 'no filed: false beside outcome filed');

		const stored = await api(ctx, 'GET', '/invoices?policy_number=E2E-VER-1');
		const invoices = stored.data.invoices as Array<{ fees: unknown[] }>;
		assert.deepEqual(invoices.map((i) => i.fees), [[]], 'the service holds the version 1 invoice as sent');
	},
};

export const EDITOR_SCENARIOS: Scenario[] = [invoiceVersions];
