/**
 * Issue 38 in a real n8n: an agency-management export of the project's own making
 * (test/helpers/agencyExport.ts: abbreviated headers, CR credits, `-` zeros, state names, ACORD
 * codes, a day-first change-date column, a mailing state, unknown columns and one named in
 * Columns Not to File) read from disk by Extract From File, read by Check Sheet, and filed with
 * Create (version 2, Map Automatically, taxes billed from the preview) on a keyed and a legacy t2
 * account. Each row is stored as the sheet says (read back through the service API) or is an
 * error item naming the column; the columns not used are listed on each item; Check Sheet lists
 * every column of every row.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { AGENCY_HEADER, agencyRows, storedFiling } from '../helpers/agencyExport';
import { keyByName } from '../sandbox';
import type { Context, Scenario } from './context';
import { items, type Run } from './runData';

const ROWS = agencyRows('E2E-AMS');
const ACCOUNTS = ['t2', 'legacy-t2'] as const;

const csvCell = (text = '') => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function writeSheet(ctx: Context): void {
	const dir = join(ctx.userFolder, 'files');
	mkdirSync(dir, { recursive: true });
	const lines = [AGENCY_HEADER.join(','), ...ROWS.map((row) => AGENCY_HEADER.map((h) => csvCell(row.cells[h])).join(','))];
	writeFileSync(join(dir, 'agency-export.csv'), `${lines.join('\n')}\n`);
}

async function storedInvoice(ctx: Context, kind: string, id: unknown): Promise<IDataObject> {
	const res = await fetch(`${ctx.sandbox.baseUrl}/invoices/${String(id)}`, { headers: { authorization: `Bearer ${keyByName(kind).key}` } });
	assert.equal(res.status, 200, `${kind} GET /invoices/${String(id)}: ${res.status}`);
	return ((await res.json()) as { data: IDataObject }).data;
}

function outputOf(run: Run, node: string): Array<{ json: IDataObject; row: number }> {
	const out = items(run, node) as Array<{ json: IDataObject; pairedItem?: { item: number } | Array<{ item: number }> }>;
	return out.map((o) => ({ json: o.json, row: (Array.isArray(o.pairedItem) ? o.pairedItem[0] : o.pairedItem)?.item ?? -1 }));
}

const show = (json: IDataObject) => JSON.stringify(json).slice(0, 600);

async function checkFiled(run: Run, ctx: Context, kind: string): Promise<string> {
	const out = outputOf(run, `Create (${kind})`);
	assert.equal(out.length, ROWS.length, `${kind}: one item per row, none lost (got ${out.length})`);
	let filed = 0;
	for (const [n, row] of ROWS.entries()) {
		const { json, row: paired } = out[n];
		const label = `${kind} row ${n + 1} (${row.what})`;
		assert.equal(paired, n, `${label}: paired with its own row`);
		if ('refused' in row.expect) {
			const fields = (json.fields ?? []) as string[];
			assert.ok(json.error, `${label}: an error item, got ${show(json)}`);
			assert.ok(fields.some((f) => f.includes((row.expect as { refused: string }).refused)), `${label}: the reason names the column: ${JSON.stringify(fields)}`);
			continue;
		}
		assert.equal(json.error, undefined, `${label}: filed, got ${show(json)}`);
		assert.equal(json.outcome, 'filed', `${label}: ${show(json)}`);
		const listed = ((json._ignoredColumns ?? []) as IDataObject[]).map((c) => String(c.column)).sort();
		assert.deepEqual(listed, [...row.expect.ignored].sort(), `${label}: the columns not used are listed`);
		const invoice = await storedInvoice(ctx, kind, json.id);
		const filing = storedFiling(invoice);
		assert.deepEqual(filing, row.expect.filing, `${label}: stored as the sheet says`);
		filed++;
	}
	return `${filed} stored as the sheet says, ${ROWS.length - filed} refused naming the column`;
}

function checkSheetRead(run: Run): string {
	const out = outputOf(run, 'Check Sheet (t2)');
	assert.equal(out.length, ROWS.length, 'Check Sheet: one item per row');
	for (const [n, row] of ROWS.entries()) {
		const { json } = out[n];
		const label = `Check Sheet row ${n + 1} (${row.what})`;
		assert.equal(json.result, 'refused' in row.expect ? 'refused' : 'would be sent', `${label}: ${show(json)}`);
		const columns = (json.sheetColumns ?? []) as IDataObject[];
		// Extract From File leaves a row's empty cells out: every cell it gives is accounted for.
		const given = AGENCY_HEADER.filter((h) => row.cells[h]);
		assert.deepEqual(columns.map((c) => c.column), given, `${label}: every column of the row is accounted for`);
	}
	return `${out.length} rows, every column of each accounted for`;
}

const agencyExport: Scenario = {
	name: 'agency-export',
	workflow: 'agency-export.json',
	// One `n8n execute`: the export's rules hold on the oldest n8n too.
	compat: true,
	async before(ctx) {
		writeSheet(ctx);
	},
	async check(run, ctx) {
		console.log(`[e2e]         agency-export check-sheet: ${checkSheetRead(run)}`);
		for (const kind of ACCOUNTS) console.log(`[e2e]         agency-export ${kind}: ${await checkFiled(run, ctx, kind)}`);
	},
};

export const AGENCY_SCENARIOS: Scenario[] = [agencyExport];
