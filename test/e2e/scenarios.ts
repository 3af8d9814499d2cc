/**
 * What each end-to-end workflow must do. Every check reads real values: the nodes' outputs in the
 * run n8n recorded, and the sandbox's state read back through the service API.
 */
import assert from 'node:assert/strict';

import { api, control, invoiceBody, storedBinary, type Scenario } from './context';
import { items, json } from './runData';
import { EXAMPLE_SCENARIOS } from './scenarios-examples';
import { MAPPER_SCENARIOS } from './scenarios-mapper';
import { TRIGGER_RESTART_SCENARIOS } from './scenarios-trigger-restart';
import { RESULT_SCENARIOS } from './scenarios-results';
import { EDITOR_SCENARIOS } from './scenarios-editor';
import { REFILE_SCENARIOS } from './scenarios-refile';
import { ACCOUNT_SCENARIOS } from './scenarios-accounts';
import { BATCH_TAX_SCENARIOS } from './scenarios-batchTaxes';
import { AGENT_SCENARIOS } from './scenarios-agent';
import { MCP_SCENARIOS } from './scenarios-mcp';
import { SLACK_SCENARIOS } from './scenarios-slack';
import { WATCH_SCENARIOS } from './scenarios-watch';
import { TRAP_SCENARIOS } from './scenarios-traps';
import { AGENCY_SCENARIOS } from './scenarios-agency';
import { WATCH_RESTART_SCENARIOS } from './scenarios-watch-restart';
import { RECONCILE_SCENARIOS } from './scenarios-reconcile';

export type { Context, Scenario } from './context';

const documents: Scenario = {
	name: 'documents',
	workflow: 'documents.json',
	// The invoice the documents go on is made through the API: this workflow is about documents.
	async before(ctx) {
		const created = await api(ctx, 'POST', '/invoices', invoiceBody({ policy_number: 'E2E-DOCS-1' }));
		assert.equal(created.status, 201, `setup: create invoice: ${JSON.stringify(created.error)}`);
		assert.equal(created.data.id, 1001, 'setup: the sandbox was reset, so the first invoice is 1001');
	},
	async check(run, ctx) {
		const [attached] = json(run, 'Attach Declaration Page');
		assert.equal(attached.outcome, 'created');
		assert.equal(attached.fetch_status, 'pending');
		assert.equal(attached.doc_type, 'declaration_page');
		assert.equal(attached.external_doc_uuid, 'e2e-dec-page-1');
		assert.equal(typeof attached.id, 'number');

		const [again] = json(run, 'Attach Same docUUID Again');
		assert.equal(again.outcome, 'updated', 'attaching the same docUUID again updates it');
		assert.equal(again.id, attached.id);

		const [bad] = json(run, 'Attach With Bad Type');
		const badText = JSON.stringify(bad);
		assert.equal(bad.code, 'INVALID_INPUT', `continue-on-fail gives an error item, got ${badText}`);
		assert.deepEqual(bad.fields, ['Document Type: May contain only letters, digits, underscore or hyphen']);

		const [waited] = json(run, 'Wait Until Fetched');
		assert.equal(waited.fetch_status, 'fetched');
		assert.equal((waited.wait as { outcome: string }).outcome, 'fetched');

		const [downloaded] = items(run, 'Download');
		assert.equal(downloaded.json.downloaded_bytes, 4096, 'the file is the size the sandbox was told');
		assert.equal(downloaded.json.url, undefined, 'the download output leaves the expiring link out');
		const file = downloaded.binary?.file;
		assert.ok(file, 'the file is in the binary field "file"');
		assert.equal(file.mimeType, 'application/pdf');
		assert.equal(file.fileName, 'dec-page-v2.pdf', 'the name given on the second attach');
		const bytes = storedBinary(ctx, file);
		assert.equal(bytes.length, 4096);
		assert.equal(bytes.subarray(0, 5).toString(), '%PDF-', 'the stored file is the PDF the link served');

		const listed = json(run, 'List Documents');
		assert.deepEqual(
			listed.map((d) => d.external_doc_uuid),
			['e2e-dec-page-1'],
			'one document: the re-attach updated it, the bad one was never sent',
		);

		// The service's own view agrees.
		const invoice = await api(ctx, 'GET', '/invoices/1001');
		const docs = invoice.data.documents as Array<{ file_name: string; fetch_status: string }>;
		assert.equal(docs.length, 1);
		assert.equal(docs[0].fetch_status, 'fetched');
	},
};

const reference: Scenario = {
	name: 'reference',
	workflow: 'reference.json',
	check(run) {
		const [info] = json(run, 'Key Info');
		assert.equal(info.tier, 't2');
		assert.deepEqual((info.account as { mode: string }).mode, 'test');
		assert.deepEqual(info.scopes, ['invoices', 'documents', 'calculator']);
		assert.equal((info.rate_limit_now as { remaining: number }).remaining, 999, 'the first call of the hour');
		assert.equal(JSON.stringify(info).includes('sltax_'), false, 'the key never appears in output');

		// Check Key runs with the t1 credential.
		const [check] = json(run, 'Check Key');
		assert.equal(check.valid, true);
		assert.equal(check.tier, 't1');
		assert.equal(check.checked, 'service');

		const states = json(run, 'States');
		assert.equal(states.length, 51, '50 states and DC');
		assert.deepEqual(states.find((s) => s.code === 'TX'), { id: 44, code: 'TX', name: 'Texas', efile: true });
		assert.equal(states.filter((s) => s.efile === true).length, 26, 'states with e-filing');

		assert.deepEqual(json(run, 'Find Company by NAIC'), [{ id: 301, name: 'Sandbox Specialty Insurance Company', naic: '90001' }]);

		const codes = json(run, 'Calculator Fee Codes').map((f) => f.code);
		assert.ok(codes.includes('inspection_fee') && codes.includes('broker_fee') && codes.includes('filing_fee'));
		for (const taxCode of ['sl_tax', 'stamping_fee', 'service_fee']) {
			assert.equal(codes.includes(taxCode), false, `tax code ${taxCode} is for invoices only`);
		}
	},
};

const calculator: Scenario = {
	name: 'calculator',
	workflow: 'calculator.json',
	async check(run, ctx) {
		const rows = json(run, 'Estimate Tax');
		assert.equal(rows.length, 3, 'one output per input item, the wrong one included');
		// TX on 2025-06-01: 4.85% tax and 0.04% stamping fee on premium + policy fees (10,200).
		assert.deepEqual(rows[0], {
			state: 'TX',
			state_name: 'Texas',
			effective_date: '2025-06-01',
			premium: 10000,
			policy_fees: 200,
			tax_base: 10200,
			sl_tax: 494.7,
			stamping_fee: 4.08,
			total_taxes_and_fees: 498.78,
			total_due: 10698.78,
		});
		// A 2023 date takes the stamping rate then in force (0.075%); "tx" is accepted in lower case.
		assert.equal(rows[1].effective_date, '2023-06-01');
		assert.equal(rows[1].sl_tax, 485);
		assert.equal(rows[1].stamping_fee, 7.5);
		assert.equal(rows[1].total_due, 10492.5);
		// The wrong item is an error item naming every problem; the run goes on.
		assert.equal(rows[2].code, 'INVALID_INPUT');
		assert.deepEqual(rows[2].fields, ['State: "ZZ" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)', 'Premium: Must be at least 0.01']);

		// Itemized fees: TX taxes the inspection fee, not the pass-through filing fee.
		const lines = json(run, 'Line Items TX');
		assert.deepEqual(
			lines.map((l) => [l.code, l.amount, l.tax_base]),
			[
				['sl_tax', 489.85, 10100],
				['stamping_fee', 4.04, 10100],
			],
		);

		// Three estimates reached the service, the wrong item none: this read is the 4th call of the hour.
		const me = await fetch(`${ctx.sandbox.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${ctx.keys.t2}` } });
		assert.equal(me.headers.get('x-ratelimit-remaining'), String(1000 - 4));
	},
};

const invoice: Scenario = {
	name: 'invoice',
	workflow: 'invoice.json',
	async check(run, ctx) {
		const [preview] = json(run, 'Preview');
		assert.deepEqual(preview.validation, { valid: true, errors: [], warnings: [] });
		const taxes = preview.tax_calculation as { line_items: Array<{ code: string; amount: number }>; total_due: number };
		// TX in 2026: 4.85% tax and 0.04% stamping fee on 10,000.
		assert.deepEqual(taxes.line_items.map((l) => [l.code, l.amount]), [['sl_tax', 485], ['stamping_fee', 4]]);
		assert.equal(taxes.total_due, 10489);

		const [created] = json(run, 'Create');
		assert.equal(created.id, 1001);
		assert.equal(created.status, 'new');
		assert.equal(created.filed, false);
		assert.deepEqual(created.fees, [{ type: 'sl_tax', amount: 485 }, { type: 'stamping_fee', amount: 4 }], 'taxes billed from the preview');
		assert.deepEqual((created.company as { id: number }).id, 301, 'the insurer found by its NAIC code');
		assert.equal(created._replayed, undefined);

		const [again] = json(run, 'Create Again (Same Invoice)');
		assert.equal(again.id, 1001, 'the same invoice: found on its policy before anything was sent');
		assert.equal(again.outcome, 'already_filed');
		assert.equal(again.recognisedBy, 'mark ACME-1', 'recognised by the invoice number the first create wrote (ACME-0001, the row’s own mark, in its compared form)');

		assert.deepEqual(json(run, 'Get'), [
			{ id: 1001, policy_number: 'E2E-INV-1', type: 'New', status: 'sent', filed: true, state: 'TX', net_premium: 10000, fees_total: 489, warnings: [], filing_state: 'accepted', confirmation_number: null, filing_message: null },
		]);
		const [updated] = json(run, 'Update Commission');
		assert.equal(updated.commission, 1500);
		assert.equal(updated.status, 'sent', 'an update keeps the status');
		assert.deepEqual(json(run, 'Policy Transactions').map((i) => i.id), [1001], 'one transaction: the replay filed nothing');

		const [doc] = json(run, 'Attach Declaration Page');
		assert.equal(doc.outcome, 'created');

		// Tier refused before any call, as an error item (continue on fail).
		const [t1] = json(run, 'Create With t1 Key');
		assert.match(String(t1.error), /needs a t2 \(Standard\) key or higher; this credential's key is t1/);

		const [wrong] = json(run, 'Preview Wrong Invoice');
		assert.equal(wrong.code, 'INVALID_INPUT');
		assert.deepEqual(wrong.fields, [
			'effective_date: Must be a valid date',
			'expiration_date: This field is required',
			'coverages[0].limits: premiums must sum to the coverage amount 900 (got 800)',
		]);

		// The service's own state agrees.
		const stored = await api(ctx, 'GET', '/invoices/1001');
		assert.equal(stored.data.commission, 1500);
		assert.deepEqual((stored.data.filing as { state_status: string }).state_status, 'accepted');
		assert.deepEqual((stored.data.documents as Array<{ external_doc_uuid: string }>).map((d) => d.external_doc_uuid), ['acme-dec-2026']);
		const t1Policy = await api(ctx, 'GET', '/invoices?policy_number=E2E-INV-T1');
		assert.equal(JSON.stringify(t1Policy.data).includes('E2E-INV-T1'), false, 'nothing filed with the t1 key');
		const second = await api(ctx, 'GET', '/invoices/1002');
		assert.equal(second.status, 404, 'no second invoice exists');
	},
};

const createMany: Scenario = {
	name: 'create-many',
	workflow: 'create-many.json',
	async check(run, ctx) {
		const out = json(run, 'Create Many');
		assert.equal(out.length, 5, 'one output item per row, in row order');
		assert.deepEqual(
			[out[0], out[1], out[4]].map((i) => [i.id, i.policy_number, i.state, i.net_premium, i.status]),
			[
				[1001, 'E2E-CM-1', 'TX', 12000, 'new'],
				[1002, 'E2E-CM-2', 'CA', 8500.5, 'new'],
				[1003, 'E2E-CM-5', 'KS', 6400, 'new'],
			],
		);
		// Row 3 fails the local checks (every problem listed, nothing sent) ...
		assert.equal(out[2].code, 'INVALID_INPUT');
		assert.deepEqual(out[2].fields, ['insured_name: This field is required', 'effective_date: Must be a valid date']);
		// ... row 4 is refused by the service (unknown NAIC), and the rows after it are still filed.
		assert.equal(out[3].code, 'VALIDATION_ERROR');
		assert.equal(out[3].httpStatus, 422);
		assert.deepEqual(out[3].fields, ["insurers: insurers[0].naic: no company found with NAIC '12345'"]);
		assert.match(String(out[3].requestId), /^req_[0-9a-f]{16}$/);
		// Once calls are made the node never fails (a re-run would file the filed rows again): the
		// error items say how the run went, and a warning over the output lists every row not filed.
		assert.equal(out[2].summary, '2 of 5 rows not filed');
		assert.equal(out[3].summary, '2 of 5 rows not filed');
		const hints = (run.data.resultData.runData['Create Many']?.[0] as { hints?: Array<{ message: string }> }).hints ?? [];
		// One summary of the outcomes, then the rows as a sheet with a header row shows them (item 0 = row 2).
		assert.equal(String(hints[0]?.message), 'Of 5 rows: 3 filed, 2 refused (error items, listed in the warning); nothing was filed twice.');
		assert.match(String(hints[1]?.message), /^2 of 5 rows refused: rows 4 \(item 2[^)]*\), 5 \(item 3[^)]*\)\. Rows are counted as a sheet with a header row shows them: the first item is row 2\./);

		for (const [id, policy] of [[1001, 'E2E-CM-1'], [1002, 'E2E-CM-2'], [1003, 'E2E-CM-5']] as const) {
			const stored = await api(ctx, 'GET', `/invoices/${id}`);
			assert.equal(stored.data.policy_number, policy);
		}
		assert.equal((await api(ctx, 'GET', '/invoices/1004')).status, 404, 'three invoices, no more');
	},
};

const createManyStops: Scenario = {
	name: 'create-many-stops',
	workflow: 'create-many-stops.json',
	expectRunError: true,
	async check(run, ctx) {
		const error = run.data.resultData.error;
		assert.equal(error?.node?.name, 'Create Many');
		assert.equal(error?.message, 'Row 4 (item 2): Invalid input, nothing was sent: insured_name: This field is required');
		assert.match(String(error?.description), /1 of 5 rows failed\.\nNo invoice was filed\./);
		// Without "continue on error" a bad row stops the node before any call: not even the good rows.
		const me = await fetch(`${ctx.sandbox.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${ctx.keys.t2}` } });
		assert.equal(me.headers.get('x-ratelimit-remaining'), '999', 'this read is the first call of the hour');
		assert.equal((await api(ctx, 'GET', '/invoices/1001')).status, 404);
	},
};

// The one workflow left on the hidden type `surplusLinesTrigger`, so workflows saved with it keep
// running; the examples and the other trigger workflows use the type the node list shows.
const trigger: Scenario = {
	name: 'trigger',
	workflow: 'trigger.json',
	via: 'server',
	async before(ctx) {
		for (const policy of ['E2E-TRG-1', 'E2E-TRG-2']) {
			const created = await api(ctx, 'POST', '/invoices', invoiceBody({ policy_number: policy }));
			assert.equal(created.status, 201);
		}
		await control(ctx, '/invoices/1001/status', { status: 'sent', state_status: 'accepted' });
	},
	check(run) {
		// A manual run ("Fetch Test Event") shows the current state of each watched invoice.
		const events = json(run, 'Filing Changed');
		assert.deepEqual(
			events.map((e) => [e.event, e.invoice_id, e.previous, e.current, e.sample]),
			[
				['invoice_status_changed', 1001, null, 'sent', true],
				['filing_state_changed', 1001, null, 'accepted', true],
				['invoice_status_changed', 1002, null, 'new', true],
				['filing_state_changed', 1002, null, 'not_sent', true],
			],
		);
		const budget = events[0].budget as { hourly_limit: number; watched_items: number; calls_per_poll: number };
		assert.deepEqual([budget.hourly_limit, budget.watched_items, budget.calls_per_poll], [1000, 2, 4], 't2: 25% of 1000 calls over 60 polls an hour');
		assert.equal(json(run, 'Notify (Stand-in for Email)').length, 4, 'the events flow on to the next node');
		assert.equal(JSON.stringify(events).includes('sltax_'), false, 'the key never appears in output');
	},
};

const triggerActive: Scenario = {
	name: 'trigger-active',
	workflow: 'trigger-active.json',
	via: 'active',
	async before(ctx) {
		assert.equal((await api(ctx, 'POST', '/invoices', invoiceBody({ policy_number: 'E2E-ACT-1' }))).status, 201);
	},
	active: {
		// The workflow polls every 5 s (a custom cron); activation itself polls once, as a baseline.
		async afterActivation(ctx) {
			await control(ctx, '/invoices/1001/status', { status: 'sent', state_status: 'sent' });
			const endorsement = invoiceBody({ policy_number: 'E2E-ACT-1', type_code: 'ENDORSEMENT', net_premium: 500, transaction_effective_date: '2026-06-01' });
			assert.equal((await api(ctx, 'POST', '/invoices', endorsement)).status, 201);
		},
		// A poll may fall between the two changes: count events over every execution.
		until: (runs) => runs.flatMap((run) => json(run, 'Policy Changed')).length >= 3,
		// Three more polls must emit nothing: each change comes out once.
		quietMs: 16_000,
		timeoutMs: 120_000,
	},
	check(_run, _ctx, runs) {
		const events = runs.flatMap((run) => json(run, 'Policy Changed'));
		assert.deepEqual(
			events.map((e) => [e.event, e.invoice_id, e.previous, e.current]),
			[
				['invoice_status_changed', 1001, 'new', 'sent'],
				['filing_state_changed', 1001, 'not_sent', 'sent'],
				['new_transaction', 1002, null, 'new'],
			],
			'each change once, none at activation (the baseline), none on the later polls',
		);
		assert.ok(runs.length <= 2, `the changes came in ${runs.length} executions`);
		assert.equal(events.some((e) => e.sample === true), false, 'real poll events, not samples');
		assert.equal(json(runs[runs.length - 1], 'Notify').length > 0, true, 'the events flow on to the next node');
	},
};

export const SCENARIOS: Scenario[] = [
	reference,
	calculator,
	invoice,
	documents,
	createMany,
	createManyStops,
	trigger,
	triggerActive,
	...EXAMPLE_SCENARIOS,
	...MAPPER_SCENARIOS,
	...TRIGGER_RESTART_SCENARIOS,
	...RESULT_SCENARIOS,
	...EDITOR_SCENARIOS,
	...REFILE_SCENARIOS,
	...ACCOUNT_SCENARIOS,
	...BATCH_TAX_SCENARIOS,
	...TRAP_SCENARIOS,
	...AGENCY_SCENARIOS,
	...SLACK_SCENARIOS,
	...WATCH_SCENARIOS,
	...WATCH_RESTART_SCENARIOS,
	...RECONCILE_SCENARIOS,
	// Last among the server scenarios: mcp-tools ends with the key's rate-limit window closed.
	...AGENT_SCENARIOS,
	...MCP_SCENARIOS,
];
