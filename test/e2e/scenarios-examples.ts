/**
 * The examples of examples/ (what the demo loads), run as shipped: the bordereau read from disk,
 * the tax estimate, documents, and the notification example mailing a local SMTP server, once as
 * a manual run and once activated in `n8n start`.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import ExcelJS from 'exceljs';
import type { IDataObject } from 'n8n-workflow';

import { api, control, invoiceBody, storedBinary, type Context, type Scenario } from './context';
import { EXAMPLE_FILES_DIR, REPO_ROOT } from './n8n';
import { items, json } from './runData';
import { exampleReport, reportAsExtracted } from './scenarios-report';
import { ALREADY_FILED, OWN_SHEET, OWN_SHEET_REFUSAL, OWN_SHEET_RESULTS, OWN_SHEET_TAX_DIFFERENCES, readResultsWorkbook as readSharedWorkbook, resultsWorkbooks } from './ownSheet';

/** The sample bordereau as the CSV has it (the source of the XLSX), one object a row. */
function bordereauRows(): Array<Record<string, string>> {
	const [header, ...rows] = readFileSync(join(REPO_ROOT, 'examples', 'files', 'sample-bordereau.csv'), 'utf8')
		.trim()
		.split('\n')
		.map((line) => line.split(','));
	return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
}

/** The deliberately bad rows of the sample, and what each must say. */
const BAD_ROWS: Record<string, RegExp> = {
	// Each names the sheet's column as written (issue 40), the value where the row gave one.
	'BDX-26-0105': /Column "Insured Name" is missing or empty.*insured_name field is required/,
	'BDX-26-0109': /Column "Eff Date".*Must be a valid date/,
	'BDX-26-0114': /Column "State".*"TZ" is not a US state code or name/,
	'BDX-26-0119': /Column "Type".*Must be one of/,
	'BDX-26-0123': /Column "NAIC".*99999/,
};

/** The newest results workbook the bordereau example wrote next to its input. */
const readResultsWorkbook = (ctx: Context) => readSharedWorkbook(join(ctx.userFolder, EXAMPLE_FILES_DIR));
/** Every results workbook of the sample in the files folder, oldest first. */
const workbooksOf = (ctx: Context) => resultsWorkbooks(join(ctx.userFolder, EXAMPLE_FILES_DIR));

let firstWorkbook: IDataObject[] = [];
let workbooksBefore: string[] = [];

/** The example's filing node: refused rows leave by its error output. */
const CREATE = 'Create Invoice (Bill Taxes From Preview)';
/** The example's last step before the workbook: every row, filed or refused, in the sheet's order. */
const RESULTS = 'In Sheet Order';

/** How many items left by each output of a node ([success, error]), as the canvas counts them. */
function outputCounts(run: Parameters<typeof json>[0], node: string): number[] {
	return [json(run, node, 0).length, json(run, node, 1).length];
}

/**
 * The bordereau example files the sheet with Map Columns in "Map Automatically" mode (no
 * expression), sends refused rows to its error output and writes a results workbook beside the
 * input from both branches; it runs twice, and the second run files nothing again and replaces the
 * workbook with its own outcomes.
 */
const exampleBordereau: Scenario = {
	name: 'example: bordereau from disk',
	workflow: 'file-spreadsheet-rows-as-invoices.json',
	compat: true,
	example: true,
	async execute(cli, ctx) {
		workbooksBefore = workbooksOf(ctx);
		const first = await cli.run();
		firstWorkbook = await readResultsWorkbook(ctx);
		// The workbook's name holds the run's time to the second.
		await new Promise((resolve) => setTimeout(resolve, 1100));
		return [first, await cli.run()];
	},
	async check(run, ctx, runs) {
		const sheet = bordereauRows();
		assert.equal(sheet.length, 25);
		assert.equal(json(run, 'Rows From CSV').length, 25, 'one item per row read from the file on disk');
		assert.equal(run.data.resultData.runData['Rows From XLSX'], undefined, 'the CSV is read as CSV: the path ends in .csv');
		// The canvas counts the branches: 20 filed, 5 refused.
		assert.deepEqual(outputCounts(run, CREATE), [20, 5], 'the refused rows leave by the error output');
		const results = json(run, RESULTS);
		assert.deepEqual(
			results.map((r) => [r.Row, r['Policy Number']]),
			sheet.map((r, i) => [i + 2, r['Policy #']]),
			"every row comes out, in the sheet's order, numbered as the file's lines (header = 1)",
		);
		// TX: 4.85% tax and 0.04% stamping on 12,000 premium + 150 policy fee, plus that fee.
		// 12,150 × 4.85% = 589.275 → 589.28; × 0.04% = 4.86; 150 + 589.28 + 4.86 = 744.14.
		assert.equal(results[0]['Taxes and Fees Billed'], 744.14);
		// In words, with what the service holds now: the insured, the invoice's status, the state's answer.
		assert.deepEqual(
			[results[0].Insured, results[0].Outcome, results[0]['Invoice Status'], results[0]['State Filing'], results[0]['Tax Difference From Sheet'], results[0]['What to Do']],
			['Blue Ridge Storage Inc', 'Filed', 'new', 'Not sent to the state yet', 'no tax figures in the sheet', 'Nothing'],
		);
		// Map Automatically read the sheet's forms, and says so on the item.
		const [created] = json(run, CREATE);
		assert.deepEqual(
			(created._converted as Array<{ field: string; from: string; to: string }>).map((c) => `${c.field}: ${c.from} → ${c.to}`),
			['effective_date: 03/01/2026 → 2026-03-01', 'expiration_date: 03/01/2027 → 2027-03-01', 'type_code: New → NEW'],
		);
		const refused = results.filter((r) => r.Outcome === 'Refused: not filed');
		assert.deepEqual(refused.map((r) => r['Policy Number']), Object.keys(BAD_ROWS), 'exactly the bad rows are refused');
		for (const row of refused) {
			const policy = String(row['Policy Number']);
			assert.match(String(row.Reason), BAD_ROWS[policy], `${policy}: ${String(row.Reason)}`);
			assert.equal(row['Taxes and Fees Billed'], 'not billed');
			assert.equal(row['What to Do'], `Correct row ${String(row.Row)} in the sheet as the reason says, save it, and run the workflow again: only this row is filed, nothing twice`);
		}
		// The rows their state does not receive electronically say so in their own words, not the preview's.
		assert.deepEqual(
			results.filter((r) => /Not filed electronically/.test(String(r['What to Do']))).map((r) => /Not filed electronically in ([A-Z]{2}): the service prepares the filing for the state's own process$/.exec(String(r['What to Do']))?.[1]).sort(),
			['KY', 'NE', 'NH', 'SC'],
		);
		// The service holds exactly the 20 good rows, with the sheet's values turned into the API's.
		const listed = await api(ctx, 'GET', '/invoices?per_page=100');
		const stored = (listed.data.invoices ?? listed.data) as IDataObject[];
		assert.equal(stored.length, 20, 'the second run filed nothing again');
		const storedIds = new Map(stored.map((invoice) => [String(invoice.policy_number), String(invoice.id)]));
		// Rows are filed in parallel, so the service numbers them in the order they arrive: each
		// row's id is the one the service holds for its policy.
		const filed = results.filter((r) => r.Outcome !== 'Refused: not filed');
		assert.deepEqual(
			filed.map((r) => [String(r['Invoice ID']), r.Outcome]),
			filed.map((r) => [storedIds.get(String(r['Policy Number'])), 'Filed']),
			'the 20 good rows are filed once each, each with its own invoice',
		);
		assert.equal(new Set(filed.map((r) => r['Invoice ID'])).size, 20, 'twenty distinct invoices');
		const first = await api(ctx, 'GET', `/invoices/${storedIds.get('BDX-26-0101')}`);
		assert.equal(first.data.policy_number, 'BDX-26-0101');
		assert.equal((first.data.type as { name: string }).name, 'New', 'type_code NEW, as the service names it');
		assert.equal(first.data.effective_date, '2026-03-01', 'the US date 03/01/2026 as an ISO date');
		assert.equal(first.data.net_premium, 12000);
		// TX on 2026-03-01: 4.85% tax and 0.04% stamping on premium + the policy fee, billed from the preview.
		// The "Policy Fee" column is sent as a policy fee (its code is the mapper's choice).
		const fees = first.data.fees as Array<{ type: string; amount: number }>;
		assert.deepEqual(
			fees.map((f) => [f.type.startsWith('policy_fee') ? 'policy_fee' : f.type, f.amount]).sort(),
			[
				['policy_fee', 150],
				['sl_tax', 589.28],
				['stamping_fee', 4.86],
			].sort(),
		);
		const renewal = await api(ctx, 'GET', `/invoices/${storedIds.get('BDX-26-0103')}`);
		assert.equal(renewal.data.policy_number, 'BDX-26-0103');
		assert.equal((renewal.data.type as { name: string }).name, 'Renewal', '"Renewal" in the sheet, sent as RENEWAL');

		// The workbook of the first run: the rows as the results step gave them, one row per input row.
		const workbook = firstWorkbook;
		const asCells = (row: IDataObject): IDataObject => Object.fromEntries(Object.entries(row).map(([name, v]) => [name, v ?? '']));
		assert.deepEqual(workbook.map(asCells), results.map(asCells), 'the workbook holds every row as the results step gave it');
		for (const row of workbook.filter((r) => r.Outcome === 'Filed')) {
			assert.equal(String(row['Invoice ID']), storedIds.get(String(row['Policy Number'])), `${String(row['Policy Number'])}: the sandbox's invoice id`);
		}
		// The second run wrote a workbook of its own: the first is still there, unchanged.
		const books = workbooksOf(ctx).filter((file) => !workbooksBefore.includes(file));
		assert.equal(books.length, 2, `one workbook per run, nothing overwritten: ${books.join(', ')}`);
		assert.deepEqual((await readSharedWorkbook(books[0])).map(asCells), workbook.map(asCells), "the first run's workbook is kept");
		const second = await readSharedWorkbook(books[1]);
		assert.deepEqual(second.map((r) => r['Policy Number']), sheet.map((r) => r['Policy #']), 'one row per input row, in order');
		assert.deepEqual(
			second.map((r) => [r['Invoice ID'], r.Outcome, r.Reason]),
			workbook.map((r) => [r['Invoice ID'], r.Outcome === 'Filed' ? ALREADY_FILED : r.Outcome, r.Reason]),
			"the second run's outcomes: filed rows already filed with their ids, refused rows refused again",
		);
		// The summary message of each run, mailed: the counts in words and the results workbook's name.
		const mails = (await ctx.mailbox.waitFor(2, 30_000)).map((m) => `${m.subject}\n${m.text}`);
		const summaries = mails.filter((m) => m.includes('Filing run of sample-bordereau.csv'));
		assert.equal(summaries.length, 2, `one summary mail per run: ${JSON.stringify(mails)}`);
		assert.match(summaries[0], /^Action needed: Filing run of sample-bordereau\.csv: 20 filed, 5 refused\n/);
		assert.match(summaries[0], /25 rows\. 20 filed, 0 already filed, 5 refused \(rows 6, 10, 15, 20, 24: correct them in the sheet and run again\), 0 with taxes off from the sheet, 0 rejected or refused by the state\./);
		assert.match(summaries[1], /25 rows\. 0 filed, 20 already filed, 5 refused/);
		assert.ok(summaries[1].includes(books[1].split('/').pop()!), 'the mail names the run\'s workbook');
		assert.deepEqual(outputCounts(runs[1], CREATE), [20, 5]);
		// One summary sentence over the second run, no count contradicting the warning's list.
		const hints = ((runs[1].data.resultData.runData[CREATE]?.[0] as { hints?: Array<{ message: string }> }).hints ?? []).map((h) => h.message);
		assert.ok(
			// The sample's KY, NE, NH and SC rows go to states the service does not file with electronically.
			hints.includes(
				"Of 25 rows: 20 already filed (20 found on their policy), 5 refused (error items, listed in the warning), 4 not filed electronically in their state (KY, NE, NH, SC): the service prepares those filings for the state's own process; nothing was filed twice.",
			),
			`the second run's summary: ${JSON.stringify(hints)}`,
		);
		// Behind Extract from File the rows are the file's lines: no word on how they are counted.
		assert.ok(hints.some((h) => /^5 of 25 rows refused: rows 6 \(item 4, policy BDX-26-0105\), /.test(h) && !/Rows are counted/.test(h)), JSON.stringify(hints));
	},
};

let sampleText = '';

const exampleBordereauOwnHeaders: Scenario = {
	name: 'example: bordereau with other headers',
	workflow: 'file-spreadsheet-rows-as-invoices.json',
	example: true,
	// The example reads sample-bordereau.csv: for this run it holds the user's own sheet (ownSheet.ts).
	before(ctx) {
		const file = join(ctx.userFolder, EXAMPLE_FILES_DIR, 'sample-bordereau.csv');
		sampleText = readFileSync(file, 'utf8');
		writeFileSync(file, `${OWN_SHEET.join('\n')}\n`);
		return Promise.resolve();
	},
	after(ctx) {
		writeFileSync(join(ctx.userFolder, EXAMPLE_FILES_DIR, 'sample-bordereau.csv'), sampleText);
	},
	async check(run, ctx) {
		assert.deepEqual(outputCounts(run, CREATE), [5, 2], 'the canvas: 5 filed, 2 on the error branch');
		const [refusedItem] = json(run, CREATE, 1);
		assert.match(((refusedItem.error as IDataObject).fields as string[]).join('; '), OWN_SHEET_REFUSAL);
		const workbook = await readResultsWorkbook(ctx);
		assert.deepEqual(
			workbook.map((r) => [r.Row, r['Policy Number'], r.Insured, r.Outcome]),
			OWN_SHEET_RESULTS,
			"the workbook names every row by the file's line and its policy number, whatever the headers",
		);
		assert.match(String(workbook[3].Reason), OWN_SHEET_REFUSAL);
		// The sheet's own tax figures against the service's: the difference, and what to do about it.
		assert.deepEqual(workbook.map((r) => String(r['Tax Difference From Sheet'])), OWN_SHEET_TAX_DIFFERENCES);
		assert.match(String(workbook[2]['What to Do']), /^Check the sheet's taxes: Surplus Lines Tax is 205 in the sheet, the service computes 198\.85; the invoice bills the sheet's figure/);
		const [summary] = (await ctx.mailbox.waitFor(1, 30_000)).map((m) => m.text);
		assert.match(summary, /7 rows\. 5 filed, 0 already filed, 2 refused \(rows 5, 8: correct them in the sheet and run again\), 1 with taxes off from the sheet \(rows 4\), 0 rejected or refused by the state\./);
		const listed = await api(ctx, 'GET', '/invoices?per_page=100');
		const stored = (listed.data.invoices ?? listed.data) as IDataObject[];
		const ids = new Map(stored.map((invoice) => [String(invoice.policy_number), String(invoice.id)]));
		for (const row of workbook.filter((r) => r.Outcome === 'Filed')) {
			assert.equal(String(row['Invoice ID']), ids.get(String(row['Policy Number'])), `${String(row['Policy Number'])}: its invoice`);
		}
		const hints = ((run.data.resultData.runData[CREATE]?.[0] as { hints?: Array<{ message: string }> }).hints ?? []).map((h) => h.message);
		assert.ok(hints.some((h) => h.startsWith('2 of 7 rows refused: rows 5 (item 3, policy OWN-26-04), 8 (item 6, policy OWN-26-07).')), JSON.stringify(hints));
		assert.ok(hints.some((h) => h.startsWith('Of 7 rows: 5 filed, 2 refused (error items, listed in the warning)')), JSON.stringify(hints));
	},
};

const bordereauXlsx: Scenario = {
	name: 'example files: XLSX rows equal CSV rows',
	workflow: 'bordereau-xlsx.json',
	check(run) {
		const csv = json(run, 'Rows From CSV');
		const xlsx = json(run, 'Rows From XLSX');
		assert.equal(xlsx.length, 25);
		// The XLSX holds real cells: dates come out as the spreadsheet's day numbers, amounts as
		// numbers, an empty cell not at all. Read back as the CSV's text, every row is the same.
		const asCsvText = (row: IDataObject): IDataObject =>
			Object.fromEntries(
				Object.entries(row).map(([name, v]) => {
					if (typeof v !== 'number') return [name, v];
					if (!name.endsWith('Date')) return [name, v.toFixed(2)];
					const day = new Date(Date.UTC(1899, 11, 30) + v * 86_400_000).toISOString().slice(0, 10);
					return [name, `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`];
				}),
			);
		const dropEmpty = (row: IDataObject): IDataObject => Object.fromEntries(Object.entries(row).filter(([, v]) => v !== ''));
		assert.deepEqual(xlsx.map(asCsvText), csv.map(dropEmpty));
		assert.equal(typeof xlsx[0]['Eff Date'], 'number', 'a date cell, as spreadsheets export it');
		assert.equal(xlsx[8]['Eff Date'], '02/30/2026', 'the bad date stays text, as in a sheet');
	},
};

const exampleTax: Scenario = {
	name: 'example: estimate tax',
	workflow: 'estimate-surplus-lines-tax.json',
	compat: true,
	example: true,
	check(run) {
		const rows = json(run, 'Estimate Surplus Lines Tax');
		assert.deepEqual(rows.map((r) => r.state), ['TX', 'NY', 'FL']);
		// Today's TX rates (4.85% tax, 0.04% stamping since 2024) on premium + policy fees.
		assert.deepEqual([rows[0].tax_base, rows[0].sl_tax, rows[0].stamping_fee, rows[0].total_due], [10200, 494.7, 4.08, 10698.78]);
		for (const row of rows) {
			const due = Math.round(((row.premium as number) + (row.policy_fees as number) + (row.total_taxes_and_fees as number)) * 100) / 100;
			assert.equal(row.total_due, due, `${String(row.state)}: total due = premium + fees + taxes`);
			assert.ok((row.total_taxes_and_fees as number) > 0);
		}
	},
};

let advancing: NodeJS.Timeout | undefined;
const exampleDocuments: Scenario = {
	name: 'example: attach and download',
	workflow: 'attach-and-download-documents.json',
	compat: true,
	example: true,
	// As in the demo, the sandbox moves the fetch along by itself (here every second).
	before(ctx) {
		advancing = setInterval(() => void control(ctx, '/advance').catch(() => undefined), 1000);
		return Promise.resolve();
	},
	after() {
		clearInterval(advancing);
	},
	check(run, ctx) {
		const [waited] = json(run, 'Wait Until Fetched');
		assert.equal(waited.fetch_status, 'fetched');
		const [downloaded] = items(run, 'Download');
		assert.equal(downloaded.json.file_name, 'cedar-lane-dec-page.pdf');
		const file = downloaded.binary?.data;
		assert.ok(file);
		const bytes = storedBinary(ctx, file);
		assert.equal(bytes.length, downloaded.json.file_size);
		assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
	},
};

/** The two watched policies of the notification example, filed through the API. */
export async function fileDemoPolicies(ctx: Context): Promise<void> {
	for (const policy of ['DEMO-POL-1', 'DEMO-POL-2']) {
		assert.equal((await api(ctx, 'POST', '/invoices', invoiceBody({ policy_number: policy }))).status, 201);
	}
}

/** Each mail went to the example's recipient over SMTP and was kept as a .eml file. */
function assertDelivered(ctx: Context, subjects: string[]): void {
	const mails = ctx.mailbox.messages;
	assert.deepEqual(mails.map((m) => m.subject).sort(), [...subjects].sort(), 'one email per change, no more');
	for (const mail of mails) {
		assert.equal(mail.to, 'operations@example.com');
		assert.equal(mail.from, 'filings@example.com');
		assert.ok(existsSync(mail.file), `${mail.file} kept`);
		assert.match(readFileSync(mail.file, 'utf8'), /^Subject: /m);
	}
}

const exampleNotify: Scenario = {
	name: 'example: notify on filing change',
	workflow: 'notify-when-a-filing-changes.json',
	compat: true,
	example: true,
	via: 'server',
	async before(ctx) {
		await fileDemoPolicies(ctx);
		await control(ctx, '/invoices/1002/status', { status: 'sent', state_status: 'rejected', message: 'Missing SL-2 form' });
	},
	async check(run, ctx) {
		const messages = json(run, 'Compose Message');
		const subjects = [
			'Invoice status: Invoice 1001 (policy DEMO-POL-1, insured Acme Roofing LLC) is filed with the service and waits to be sent',
			'State filing: Invoice 1001 (policy DEMO-POL-1, insured Acme Roofing LLC) is not sent to the state yet',
			'Invoice status: Invoice 1002 (policy DEMO-POL-2, insured Acme Roofing LLC) was sent by the service',
			'Action needed: State filing: Invoice 1002 (policy DEMO-POL-2, insured Acme Roofing LLC) was REJECTED by the state',
		];
		assert.deepEqual(messages.map((m) => m.subject), subjects);
		// What happened, the state's reason, what to do in n8n, and when, in the workflow's time zone.
		assert.match(
			String(messages[3].text),
			/^State filing: Invoice 1002 \(policy DEMO-POL-2, insured Acme Roofing LLC\) was REJECTED by the state\. Reason: Missing SL-2 form\.\n\nWhat to do: Correct what the reason names, then send the invoice again from n8n with Surplus Lines Invoice → Update \(Invoice ID 1002\).*\n\nSeen \w{3} \d+ \w{3} 20\d\d, \d\d:\d\d \S+ \(invoice 1002, policy DEMO-POL-2\)\.$/,
		);
		// A test run ("Fetch Test Event" and on) sends the four mails for real.
		assert.equal(json(run, 'Send Email').length, 4);
		await ctx.mailbox.waitFor(4, 60_000);
		assertDelivered(ctx, subjects);
		const rejected = ctx.mailbox.messages.find((m) => m.subject.startsWith('Action needed'));
		assert.equal(rejected?.text, messages[3].text, 'the body is the composed text, nothing appended');
	},
};

let activeMailbox: Context['mailbox'] | undefined;
const exampleNotifyActive: Scenario = {
	name: 'example: notify activated (emails)',
	workflow: 'notify-when-a-filing-changes.json',
	compat: true,
	example: true,
	via: 'active',
	async before(ctx) {
		activeMailbox = ctx.mailbox;
		await fileDemoPolicies(ctx);
	},
	active: {
		// Activation polls once (the baseline: no mail); then four status changes happen.
		async afterActivation(ctx) {
			await control(ctx, '/invoices/1001/status', { status: 'sent', state_status: 'sent' });
			await control(ctx, '/invoices/1002/status', { status: 'sent', state_status: 'rejected', message: 'Missing SL-2 form' });
		},
		until: () => (activeMailbox?.messages.length ?? 0) >= 4,
		// The example polls every minute: one more poll after the mails must send nothing.
		quietMs: 62_000,
		timeoutMs: 180_000,
	},
	check(_run, ctx, runs) {
		assertDelivered(ctx, [
			'Invoice status: Invoice 1001 (policy DEMO-POL-1, insured Acme Roofing LLC) was sent by the service',
			'State filing: Invoice 1001 (policy DEMO-POL-1, insured Acme Roofing LLC) was sent to the state',
			'Invoice status: Invoice 1002 (policy DEMO-POL-2, insured Acme Roofing LLC) was sent by the service',
			'Action needed: State filing: Invoice 1002 (policy DEMO-POL-2, insured Acme Roofing LLC) was REJECTED by the state',
		]);
		// The executions of this workflow include the earlier test run (sample events): leave it out.
		const polls = runs.filter((run) => !json(run, 'When a Filing Changes').some((e) => e.sample === true));
		const sent = polls.flatMap((run) => json(run, 'Send Email'));
		assert.equal(sent.length, 4, 'the Send Email node ran once per change across the polls');
	},
};


/** A workbook the reconcile example wrote, as rows of cell values. */
async function readAnswerWorkbook(ctx: Context, file: string, sheetName: string): Promise<IDataObject[]> {
	const workbook = new ExcelJS.Workbook();
	await workbook.xlsx.readFile(join(ctx.userFolder, EXAMPLE_FILES_DIR, file));
	const sheet = workbook.getWorksheet(sheetName);
	assert.ok(sheet, `${file} has a sheet named ${sheetName}`);
	const rows: unknown[][] = [];
	sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
	const [header, ...body] = rows;
	return body.map((cells) => Object.fromEntries((header as string[]).map((name, i) => [name, cells[i] ?? ''])));
}

/**
 * The reconcile example on the sample bordereau: a row entered by hand as the sheet says, one
 * alike but for the insured's name, an invoice the sheet lacks; the sheet's own bad rows refused
 * in Check Sheet's words; one workbook per answer; one mail of the differences.
 */
const exampleReconcile: Scenario = {
	name: 'example: reconcile the bordereau',
	workflow: 'reconcile-a-bordereau-with-the-service.json',
	compat: true,
	example: true,
	async before(ctx) {
		const filed = [
			invoiceBody({ policy_number: 'BDX-26-0102', insured_name: 'Harbor Marine Repair LLC', state_code: 'CA', net_premium: 8500, effective_date: '2026-03-01', expiration_date: '2027-03-01', insurers: [{ naic: '90003', percent: 100 }] }),
			invoiceBody({ policy_number: 'BDX-26-0104', insured_name: 'Cedar Lane Apts', state_code: 'FL', net_premium: 24750, effective_date: '2026-03-03', expiration_date: '2027-03-03', insurers: [{ naic: '90003', percent: 100 }], fees: [{ type: 'policy_fee_company', amount: 250 }, { type: 'inspection_fee', amount: 175 }] }),
			invoiceBody({ policy_number: 'BDX-26-0101', type_code: 'CANCELLATION', net_premium: -1200, effective_date: '2026-09-01', expiration_date: '2027-03-01', insurers: [{ naic: '90001', percent: 100 }] }),
		];
		for (const body of filed) assert.equal((await api(ctx, 'POST', '/invoices', body)).status, 201, JSON.stringify(body));
	},
	async check(run, ctx) {
		const answers = json(run, 'Reconcile Sheet');
		const byPolicy = (policy: string) => answers.find((a) => a.policy_number === policy && a.row !== null);
		assert.equal(answers.filter((a) => a.row !== null).length, 25, 'one answer per row');
		assert.equal(byPolicy('BDX-26-0102')?.answer, 'filed as the sheet says');
		assert.equal(byPolicy('BDX-26-0104')?.answer, 'cannot tell');
		assert.equal(byPolicy('BDX-26-0101')?.answer, 'not filed');
		// Four bad rows are the sheet's own problem; the unknown NAIC is refused as Create refuses it
		// (Reconcile looks the NAIC up: it never says Create would file a row Create refuses).
		assert.deepEqual(
			answers.filter((a) => a.answer === 'refused').map((a) => a.policy_number),
			['BDX-26-0105', 'BDX-26-0109', 'BDX-26-0114', 'BDX-26-0119', 'BDX-26-0123'],
			"the bad rows, in Check Sheet's and Create's words",
		);
		assert.match(String((byPolicy('BDX-26-0123')?.reasons as string[]).join(' ')), BAD_ROWS['BDX-26-0123']);
		assert.match(String((byPolicy('BDX-26-0114')?.reasons as string[]).join(' ')), BAD_ROWS['BDX-26-0114']);
		const extra = answers.filter((a) => a.answer === 'on the service, not on the sheet');
		assert.deepEqual(extra.map((a) => a.policy_number), ['BDX-26-0101'], 'the cancellation the sheet lacks');
		const filed = await readAnswerWorkbook(ctx, 'reconciliation-filed-as-the-sheet-says.xlsx', 'Filed');
		assert.deepEqual(filed.map((r) => r['Policy #']), ['BDX-26-0102']);
		const notFiled = await readAnswerWorkbook(ctx, 'reconciliation-not-filed.xlsx', 'Not Filed');
		assert.equal(notFiled.length, 18, '25 rows − 5 refused − 1 filed − 1 cannot tell');
		const cannotTell = await readAnswerWorkbook(ctx, 'reconciliation-cannot-tell.xlsx', 'Cannot Tell');
		assert.match(String(cannotTell[0]['What Differs']), /Insured Name/);
		await ctx.mailbox.waitFor(1, 60_000);
		const [mail] = ctx.mailbox.messages;
		assert.equal(mail.subject, 'Bordereau reconciliation: 0 filed differently, 18 not filed, 1 cannot tell, 5 refused, 1 not on the sheet, 0 rejected by the state, 0 in error');
		// Every answer's workbook is written on every run (this run's set replaces the last one whole).
		const differently = await readAnswerWorkbook(ctx, 'reconciliation-filed-differently.xlsx', 'Differently');
		assert.match(String(differently[0]['What Differs']), /No row has this answer in this run/);
		assert.equal(mail.to, 'operations@example.com');
	},
};

export const EXAMPLE_SCENARIOS: Scenario[] = [
	exampleBordereau,
	exampleBordereauOwnHeaders,
	bordereauXlsx,
	exampleTax,
	exampleDocuments,
	exampleNotify,
	exampleNotifyActive,
	exampleReconcile,
	exampleReport,
	reportAsExtracted,
];
