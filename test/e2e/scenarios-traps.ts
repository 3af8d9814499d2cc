/**
 * Issue 32 in a real n8n: a bordereau holding the traps the review found (two same-day
 * endorsements of one policy with their own numbers and insurers, a code column beside a type
 * column, gross and net premium, home and risk state, a cancellation date, fees named for a
 * state, a return written "(500.00)" with its taxes unsigned) is read from disk with n8n's
 * Extract From File and filed with Create Many (version 2, Map Automatically) on a legacy and a
 * keyed account, then given again to Create on both. Each row is stored as the sheet says (read
 * back through the service API) or is an error item naming its columns; none is lost; both
 * accounts store the same filings; the second pass files nothing and finds each row's own invoice.
 * The legacy account gets the rows as Extract From File gives them by default (empty cells left
 * out), the keyed one with its Include Empty Cells option (each empty cell an empty string, as a
 * Google Sheets read gives them too): an empty cell is nothing to use and nothing to say. Check
 * Sheet reads the same rows first and says the same, with no call.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { isDerivedMark } from '../../nodes/filing/mark';
import { keyByName } from '../sandbox';
import type { Context, Scenario } from './context';
import { items, type Run } from './runData';

const ACCOUNTS = [
	{ kind: 'legacy-t2', again: 'already_filed', rows: 'Extract Rows' },
	{ kind: 't3', again: 'already_filed', rows: 'Extract Rows With Empty Cells' },
] as const;
type Kind = (typeof ACCOUNTS)[number]['kind'];

const HEADER = [
	'Policy Number',
	'Insured Name',
	'Home State',
	'Risk State',
	'Transaction Type',
	'Transaction Code',
	'Endorsement #',
	'Eff Date',
	'Exp Date',
	'Transaction Effective Date',
	'Cancellation Effective Date',
	'Gross Premium',
	'Net Premium',
	'SL Tax',
	'TX Stamping Fee',
	'NY Stamping Fee',
	'Insurer NAIC',
] as const;
type Cells = Partial<Record<(typeof HEADER)[number], string>>;

/** A stored row: the filing as the state sees it, and what the item must say about its columns. */
interface Filed {
	filing: IDataObject;
	/** `_columnRules` as [field, column]: the fields a domain rule decided or took from another column. */
	rules: Array<[string, string]>;
	/** `_converted` of the amounts whose sign the row's direction gave, as [column, to]. */
	signed?: Array<[string, number]>;
}
interface Row {
	/** What the row holds, for the summary line. */
	trap: string;
	cells: Cells;
	expect: Filed | { refused: string };
}

const TX_FEE: [string, string] = ['fees (stamping_fee)', 'TX Stamping Fee'];
const DIRECTION: [string, string] = ['type_code', 'Transaction Code'];

/** A TX row of the sheet: a policy term 03/01/2026-03/01/2027, insurer NAIC 90001. */
const cells = (own: Cells): Cells => ({
	'Insured Name': 'Harbor Storage, LLC',
	'Home State': 'TX',
	'Risk State': 'TX',
	'Eff Date': '03/01/2026',
	'Exp Date': '03/01/2027',
	'Insurer NAIC': '90001',
	...own,
});

/** What the state sees of a stored TX filing of this sheet (the same on every account). */
const filing = (own: IDataObject): IDataObject => ({
	type: 'New',
	state: 'TX',
	change_date: '2026-03-01',
	invoice_number: 'mark',
	...own,
});

const ROWS: Row[] = [
	{
		trap: 'Gross Premium 10,000.00 beside Net Premium 8,500.00; TX Stamping Fee; New beside PN (agree)',
		cells: cells({ 'Policy Number': 'TRAP-NEW-1', 'Transaction Type': 'New', 'Transaction Code': 'PN', 'Gross Premium': '10,000.00', 'Net Premium': '8,500.00', 'SL Tax': '485.00', 'TX Stamping Fee': '4.00' }),
		expect: {
			filing: filing({ net_premium: 10000, fees: [['sl_tax', 485], ['stamping_fee', 4]], insurers: [[301, 10000]] }),
			rules: [['net_premium', 'Gross Premium'], TX_FEE],
		},
	},
	{
		trap: 'endorsement END-001 of TRAP-END-1, insurer 90001, 07/01/2026',
		cells: cells({ 'Policy Number': 'TRAP-END-1', 'Transaction Type': 'Endorsement', 'Transaction Code': 'APE', 'Endorsement #': 'END-001', 'Transaction Effective Date': '07/01/2026', 'Gross Premium': '500.00', 'SL Tax': '24.25', 'TX Stamping Fee': '0.20' }),
		expect: {
			filing: filing({ type: 'Endorsement', change_date: '2026-07-01', invoice_number: 'END-001', net_premium: 500, fees: [['sl_tax', 24.25], ['stamping_fee', 0.2]], insurers: [[301, 500]] }),
			rules: [DIRECTION, TX_FEE, ['invoice_number', 'Endorsement #']],
		},
	},
	{
		trap: 'endorsement END-002 of TRAP-END-1 the same day, insurer 90002',
		cells: cells({ 'Policy Number': 'TRAP-END-1', 'Transaction Type': 'Endorsement', 'Transaction Code': 'APE', 'Endorsement #': 'END-002', 'Transaction Effective Date': '07/01/2026', 'Gross Premium': '500.00', 'SL Tax': '24.25', 'TX Stamping Fee': '0.20', 'Insurer NAIC': '90002' }),
		expect: {
			filing: filing({ type: 'Endorsement', change_date: '2026-07-01', invoice_number: 'END-002', net_premium: 500, fees: [['sl_tax', 24.25], ['stamping_fee', 0.2]], insurers: [[302, 500]] }),
			rules: [DIRECTION, TX_FEE, ['invoice_number', 'Endorsement #']],
		},
	},
	{
		trap: 'return "(500.00)" with SL Tax and TX Stamping Fee unsigned; Endorsement beside RPE',
		cells: cells({ 'Policy Number': 'TRAP-RET-1', 'Transaction Type': 'Endorsement', 'Transaction Code': 'RPE', 'Transaction Effective Date': '08/01/2026', 'Gross Premium': '(500.00)', 'SL Tax': '24.25', 'TX Stamping Fee': '0.20' }),
		expect: {
			filing: filing({ type: 'Endorsement', change_date: '2026-08-01', net_premium: -500, fees: [['sl_tax', -24.25], ['stamping_fee', -0.2]], insurers: [[301, -500]] }),
			rules: [DIRECTION, TX_FEE],
			// The premium's own parentheses are its sign; the unsigned taxes follow it.
			signed: [['SL Tax', -24.25], ['TX Stamping Fee', -0.2]],
		},
	},
	{
		trap: 'New beside RPE',
		cells: cells({ 'Policy Number': 'TRAP-TYPE-1', 'Transaction Type': 'New', 'Transaction Code': 'RPE', 'Gross Premium': '500.00', 'SL Tax': '24.25', 'TX Stamping Fee': '0.20' }),
		expect: { refused: 'columns "Transaction Type" (New) and "Transaction Code" (RPE) give this field different values' },
	},
	{
		trap: 'Home State NY beside Risk State NJ; NY Stamping Fee',
		cells: cells({ 'Policy Number': 'TRAP-HOME-1', 'Home State': 'NY', 'Risk State': 'NJ', 'Transaction Type': 'New', 'Transaction Code': 'PN', 'Gross Premium': '10,000.00', 'SL Tax': '360.00', 'NY Stamping Fee': '15.00' }),
		expect: {
			filing: filing({ state: 'NY', net_premium: 10000, fees: [['sl_tax', 360], ['stamping_fee', 15]], insurers: [[301, 10000]] }),
			rules: [['state_code', 'Home State'], ['fees (stamping_fee)', 'NY Stamping Fee']],
		},
	},
	{
		trap: 'Cancellation beside PC, Cancellation Effective Date 09/01/2026, amounts unsigned',
		cells: cells({ 'Policy Number': 'TRAP-CXL-1', 'Transaction Type': 'Cancellation', 'Transaction Code': 'PC', 'Cancellation Effective Date': '09/01/2026', 'Gross Premium': '500.00', 'SL Tax': '24.25', 'TX Stamping Fee': '0.20' }),
		expect: {
			filing: filing({ type: 'Cancelled', change_date: '2026-09-01', net_premium: -500, fees: [['sl_tax', -24.25], ['stamping_fee', -0.2]], insurers: [[301, -500]] }),
			rules: [DIRECTION, TX_FEE, ['transaction_effective_date', 'Cancellation Effective Date']],
			signed: [['Gross Premium', -500], ['SL Tax', -24.25], ['TX Stamping Fee', -0.2]],
		},
	},
	{
		trap: 'NY Stamping Fee 1.50 on a TX row',
		cells: cells({ 'Policy Number': 'TRAP-FEE-1', 'Transaction Type': 'New', 'Transaction Code': 'PN', 'Gross Premium': '1,000.00', 'SL Tax': '48.50', 'NY Stamping Fee': '1.50' }),
		expect: { refused: 'column "NY Stamping Fee" (1.50) is a fee for NY, but the row\'s state is TX' },
	},
];

const FILED = ROWS.filter((row) => !('refused' in row.expect)).length;

const csvCell = (text = '') => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function writeSheet(ctx: Context): void {
	const dir = join(ctx.userFolder, 'files');
	mkdirSync(dir, { recursive: true });
	const lines = [HEADER.join(','), ...ROWS.map((row) => HEADER.map((column) => csvCell(row.cells[column])).join(','))];
	writeFileSync(join(dir, 'sheet-traps.csv'), `${lines.join('\n')}\n`);
}

async function apiGet(ctx: Context, kind: Kind, path: string): Promise<IDataObject> {
	const res = await fetch(`${ctx.sandbox.baseUrl}${path}`, { headers: { authorization: `Bearer ${keyByName(kind).key}` } });
	assert.equal(res.status, 200, `${kind} GET ${path}: ${res.status}`);
	return ((await res.json()) as { data: IDataObject }).data;
}

/** The stored invoice as the state sees it (legacy accounts store the change date as effective_date). */
async function storedFiling(ctx: Context, kind: Kind, id: unknown): Promise<IDataObject> {
	const invoice = await apiGet(ctx, kind, `/invoices/${String(id)}`);
	const fees = (invoice.fees as IDataObject[]).map((f) => [f.type, f.amount]);
	fees.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
	return {
		policy_number: invoice.policy_number,
		filing: {
			type: (invoice.type as IDataObject).name,
			state: (invoice.state as IDataObject).code,
			change_date: invoice.transaction_effective_date ?? invoice.effective_date,
			// A row without its own number carries the package's mark (SL…, derived from the row).
			invoice_number: isDerivedMark(invoice.invoice_number) ? 'mark' : (invoice.invoice_number ?? null),
			net_premium: invoice.net_premium,
			fees,
			insurers: (invoice.insurers as IDataObject[]).map((i) => [i.company_id, i.amount]),
		},
	};
}

/** A node's items with the input row each is paired with. */
function outputOf(run: Run, node: string): Array<{ json: IDataObject; row: number }> {
	const out = items(run, node) as Array<{ json: IDataObject; pairedItem?: { item: number } | Array<{ item: number }> }>;
	return out.map((o) => ({ json: o.json, row: (Array.isArray(o.pairedItem) ? o.pairedItem[0] : o.pairedItem)?.item ?? -1 }));
}

function hintsOf(run: Run, node: string): string[] {
	const tasks = run.data.resultData.runData[node] as Array<{ hints?: Array<{ message: string }> }>;
	return (tasks[tasks.length - 1].hints ?? []).map((h) => h.message);
}

/**
 * `_columnRules` as [field, column], without the note each row of this sheet carries for its
 * dates of days 1-12 read month first (nothing in the sheet proves the order; issue 53).
 */
const rulesBesideDates = (rules: unknown) =>
	((rules ?? []) as IDataObject[])
		.filter((r) => !String(r.rule).includes('reads both ways and no date in the sheet shows'))
		.map((r) => [r.field, r.column]);

const show = (json: IDataObject) => JSON.stringify(json).slice(0, 600);

/** Create Many on one account: each row stored as the sheet says or refused naming its columns; returns the ids by row. */
async function checkFiled(run: Run, ctx: Context, kind: Kind): Promise<Array<number | undefined>> {
	const node = `Create Many (${kind})`;
	const out = outputOf(run, node);
	assert.equal(out.length, ROWS.length, `${kind}: one item per row, none lost (got ${out.length})`);
	const ids: Array<number | undefined> = [];
	for (const [n, row] of ROWS.entries()) {
		const { json, row: paired } = out[n];
		const label = `${kind} row ${n + 1} (${row.trap})`;
		assert.equal(paired, n, `${label}: the item is paired with its own row`);
		if ('refused' in row.expect) {
			assert.ok(json.error, `${label}: an error item, got ${show(json)}`);
			const fields = (json.fields ?? []) as string[];
			assert.ok(fields.some((f) => f.includes((row.expect as { refused: string }).refused)), `${label}: the reason names the columns: ${JSON.stringify(fields)}`);
			ids.push(undefined);
			continue;
		}
		const expected = row.expect;
		assert.equal(json.error, undefined, `${label}: filed, got ${show(json)}`);
		assert.equal(json.outcome, 'filed', `${label}: ${show(json)}`);
		assert.deepEqual(rulesBesideDates(json._columnRules), expected.rules, `${label}: the rules the item says were applied`);
		assert.deepEqual(json._ignoredColumns ?? [], [], `${label}: no column listed as not used (its empty cells are nothing to use): ${JSON.stringify(json._ignoredColumns)}`);
		const converted = (json._converted ?? []) as IDataObject[];
		for (const [column, to] of expected.signed ?? []) {
			assert.ok(converted.some((c) => c.column === column && c.to === to && /return/.test(String(c.why))), `${label}: _converted says "${column}" became ${to} because the premium is returned: ${JSON.stringify(converted)}`);
		}
		const stored = await storedFiling(ctx, kind, json.id);
		assert.equal(stored.policy_number, row.cells['Policy Number'], `${label}: the item's invoice is its own row's`);
		assert.deepEqual(stored.filing, expected.filing, `${label}: stored as the sheet says`);
		ids.push(Number(json.id));
	}
	// Rows as a sheet with a header row shows them: item 0 is row 2.
	const refusedRows = ROWS.flatMap((row, n) => ('refused' in row.expect ? [n + 2] : []));
	assert.ok(
		hintsOf(run, node).some(
			(m) =>
				m.startsWith(`${refusedRows.length} of ${ROWS.length} rows refused: row`) &&
				refusedRows.every((r) => m.includes(` ${r} (item ${r - 2}`)),
		),
		`${kind}: the warning lists the rows not filed: ${JSON.stringify(hintsOf(run, node))}`,
	);
	assert.ok(
		hintsOf(run, node).some((m) => m.startsWith(`Of ${ROWS.length} rows: ${FILED} filed, ${refusedRows.length} refused`)),
		`${kind}: the summary counts the rows filed and not filed: ${JSON.stringify(hintsOf(run, node))}`,
	);
	return ids;
}

/** The account's whole store: every filed row once, the refused rows' policies absent. */
async function storedPolicies(ctx: Context, kind: Kind): Promise<string[]> {
	const listed = (await apiGet(ctx, kind, '/invoices?per_page=100')).invoices as IDataObject[];
	return listed.map((inv) => String(inv.policy_number)).sort();
}

/** The same rows given to Create: nothing filed again, each stored row found as its own invoice. */
function checkAgain(run: Run, kind: Kind, again: string, ids: Array<number | undefined>): void {
	const node = `Create Again (${kind})`;
	const out = outputOf(run, node);
	const before = outputOf(run, `Create Many (${kind})`);
	assert.equal(out.length, ROWS.length, `${kind} Create: one item per row`);
	for (const [n, row] of ROWS.entries()) {
		const { json, row: paired } = out[n];
		const label = `${kind} Create row ${n + 1} (${row.trap})`;
		assert.equal(paired, n, `${label}: paired with its own row`);
		if (ids[n] === undefined) {
			assert.deepEqual(json.fields, before[n].json.fields, `${label}: refused for the same reason as by Create Many: ${show(json)}`);
			continue;
		}
		assert.equal(json.outcome, again, `${label}: ${show(json)}`);
		assert.equal(json.id, ids[n], `${label}: found as its own invoice, not another row's`);
		if (again === 'already_filed') {
			// Found by the one rule of "the same filing": the fields that tell these rows apart were compared.
			const compared = (json.outcomeCompared as { compared?: string[] } | undefined)?.compared ?? [];
			for (const field of ['state', 'invoice_number', 'insurers', 'net_premium', 'fees']) {
				assert.ok(compared.includes(field), `${label}: the item says ${field} was compared: ${JSON.stringify(json.outcomeCompared)}`);
			}
		}
	}
}

/**
 * Check Sheet on the same rows, before anything is filed: each row said to be sent or refused as
 * Create Many then does, with the same rules named, and no call made with its key.
 */
async function checkSheetRead(run: Run, ctx: Context): Promise<void> {
	const out = outputOf(run, 'Check Sheet (t2)');
	assert.equal(out.length, ROWS.length, 'Check Sheet: one item per row');
	for (const [n, row] of ROWS.entries()) {
		const { json, row: paired } = out[n];
		// The row as the file shows it: the header is line 1, item 0 is row 2.
		const label = `Check Sheet row ${n + 2} (${row.trap})`;
		assert.deepEqual([paired, json.row], [n, n + 2], `${label}: paired with its own row`);
		if ('refused' in row.expect) {
			assert.equal(json.result, 'refused', `${label}: ${show(json)}`);
			assert.ok(((json.reasons ?? []) as string[]).some((r) => r.includes((row.expect as { refused: string }).refused)), `${label}: ${JSON.stringify(json.reasons)}`);
			continue;
		}
		const { filing: expected, rules } = row.expect;
		assert.equal(json.result, 'would be sent', `${label}: ${show(json)}`);
		const body = json.body as IDataObject;
		assert.deepEqual([body.state_code, body.net_premium], [expected.state, expected.net_premium], `${label}: the state and signed premium it would send`);
		assert.deepEqual(rulesBesideDates(json._columnRules), rules, `${label}: the rules it names`);
	}
	// The key's counter, read with one call: Check Sheet made none.
	const res = await fetch(`${ctx.sandbox.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${keyByName('t2').key}` } });
	assert.equal(Number(res.headers.get('x-ratelimit-limit')) - Number(res.headers.get('x-ratelimit-remaining')), 1, 'Check Sheet made no call with its key');
	const sent = out.filter((o) => o.json.result === 'would be sent').length;
	console.log(`[e2e]         sheet-traps check-sheet: ${sent} would be sent, ${out.length - sent} refused, no call made`);
}

const refusedSummary = () =>
	ROWS.flatMap((row, n) => ('refused' in row.expect ? [`row ${n + 1}: ${row.trap}`] : [])).join('; ');

const sheetTraps: Scenario = {
	name: 'sheet-traps',
	workflow: 'sheet-traps.json',
	// One `n8n execute` (20-40 s on either n8n under load): the bordereau's rules hold on the oldest n8n too.
	compat: true,
	async before(ctx) {
		writeSheet(ctx);
	},
	async check(run, ctx) {
		await checkSheetRead(run, ctx);
		const shapes: Record<string, IDataObject[]> = {};
		// The two reads of the sheet: empty cells left out, or kept as empty strings.
		const [left, kept] = ACCOUNTS.map((account) => items(run, account.rows).map((i) => i.json));
		assert.deepEqual([left.length, kept.length], [ROWS.length, ROWS.length], 'one item per row from each read');
		assert.equal('Endorsement #' in left[0], false, 'by default Extract From File leaves an empty cell out');
		assert.equal(kept[0]['Endorsement #'], '', 'with Include Empty Cells an empty cell is an empty string');
		for (const { kind, again } of ACCOUNTS) {
			const ids = await checkFiled(run, ctx, kind);
			const filedPolicies = ROWS.filter((_, n) => ids[n] !== undefined).map((row) => String(row.cells['Policy Number'])).sort();
			checkAgain(run, kind, again, ids);
			assert.deepEqual(await storedPolicies(ctx, kind), filedPolicies, `${kind}: the store holds each filed row once and nothing else, after both passes`);
			shapes[kind] = await Promise.all(ids.flatMap((id) => (id === undefined ? [] : [storedFiling(ctx, kind, id)])));
			console.log(`[e2e]         sheet-traps ${kind}: ${filedPolicies.length} stored, ${ROWS.length - filedPolicies.length} refused (${refusedSummary()}); Create again: ${filedPolicies.length} ${again}, 0 filed`);
		}
		assert.deepEqual(shapes['legacy-t2'], shapes.t3, 'the same filings stored on the legacy and the keyed account');
	},
};

export const TRAP_SCENARIOS: Scenario[] = [sheetTraps];
