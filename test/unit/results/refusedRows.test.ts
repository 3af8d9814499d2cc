/**
 * Issue 40: a run with refused rows says so over the output (an execution hint naming the sheet
 * rows beside n8n's item indexes), one row numbering in stop errors and items, and refusals in the
 * sheet's words (the column as its header is written, the value as the row gave it). Runs the real
 * node classes in n8n's engine.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { TEST_API } from '../../helpers/serviceReplies';
import { doc, run as runDocument } from '../document/helpers';
import { API, KEYS, NUMBERING, envelope, failure, hintsOf, invoiceFor, jsonParams, listingReply, meReply, row, run, setupSuite, summaryParts } from '../invoice/helpers';
import { numberingNote, sheetRow as rowOf, type Rows } from '../../../nodes/shared/sheetRows';

setupSuite();
beforeEach(() => nock(API).get('/auth/me').reply(200, meReply()).persist());

const AUTO = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
const columns = (operation: string) => ({ operation, inputMode: 'columns', columns: AUTO, idempotency: 'off' });

/** A sheet row as a CSV export gives it. */
function sheetRow(n: number, overrides: IDataObject = {}): IDataObject {
	return {
		'Policy #': `BDX-${n}`,
		'Insured Name': `Insured ${n} LLC`,
		'Risk State': 'TX',
		'Eff Date': '03/01/2026',
		'Exp Date': '03/01/2027',
		Premium: '$1,000.00',
		NAIC: '90001',
		...overrides,
	};
}

/** Files every create it gets (t2: one call per row). */
function createsFiled() {
	let id = 500;
	return nock(API)
		.post('/invoices')
		.times(50)
		.reply(201, (_uri, body) => envelope(invoiceFor(body as IDataObject, id++)));
}

/** The warnings about refused rows (a run may carry others, e.g. a missing tax line's). */
const warnings = (result: Parameters<typeof hintsOf>[0]) =>
	hintsOf(result).filter((h) => h.type === 'warning' && / rows (would be )?refused: /.test(h.message));

describe('refused rows over the output', () => {
	it('Create (continue): the summary counts the outcomes; the warning names the refused rows as a sheet shows them, item indexes and policies', async () => {
		createsFiled();
		const items = Array.from({ length: 6 }, (_, n) => sheetRow(n + 1));
		items[1] = sheetRow(2, { 'Risk State': 'Texass' });
		items[4] = sheetRow(5, { Premium: 'abc' });
		const { output, run: result, error } = await run(columns('create'), { items, continueOnFail: true });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(6);
		expect(warnings(result)).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message: `2 of 6 rows refused: rows 3 (item 1, policy BDX-2), 6 (item 4, policy BDX-5).${NUMBERING} The rows not filed come out as error items: fix them and run again (rows already filed come back as replayed or already_filed, not filed twice).`,
			},
		]);
		// One sentence counts every outcome, with Create Many's words; no count contradicts the warning.
		const said = hintsOf(result).filter((h) => h.type === 'info').map((h) => h.message);
		expect(said).toHaveLength(1);
		expect(summaryParts(output!, 6, said[0])).toMatchObject({ filed: 4, refused: 2 });
		// The error item names the row as the sheet shows it (header row 1, first data row 2).
		expect(output![1].json).toMatchObject({ sheetRow: 3, policy_number: 'BDX-2' });
	});

	it('a run with no refused row says nothing of refusals', async () => {
		createsFiled();
		const { run: result } = await run(columns('create'), { items: [sheetRow(1), sheetRow(2)], continueOnFail: true });
		expect(warnings(result)).toEqual([]);
	});

	it('the rows as the input numbers them (a row_number column, as Google Sheets gives) are the rows named', async () => {
		createsFiled();
		const items = [sheetRow(1, { row_number: 2 }), sheetRow(2, { row_number: 3, 'Risk State': 'Texass' })];
		const { output, run: result } = await run(columns('create'), { items, continueOnFail: true });
		expect(warnings(result)[0].message).toMatch(/^1 of 2 rows refused: row 3 \(item 1, policy BDX-2\)\. The rows not filed/);
		expect(output![1].json.sheetRow).toBe(3);
	});

	it('Preview (continue): the same warning', async () => {
		const { run: result } = await run(columns('preview'), { items: [sheetRow(1, { 'Insured Name': '' })], continueOnFail: true });
		expect(warnings(result)[0].message).toBe(`1 of 1 rows refused: row 2 (item 0, policy BDX-1).${NUMBERING} Each refused row is an error item with its reason.`);
	});

	it('Check Sheet: "would be refused" with the sheet rows, and each item numbered as the sheet', async () => {
		const items = [sheetRow(1), sheetRow(2, { 'Risk State': 'Texass' }), sheetRow(3), sheetRow(4, { Premium: '' })];
		const { output, run: result } = await run({ operation: 'checkSheet', inputMode: 'columns', columns: AUTO }, { items });
		expect(output!.map((o) => [o.json.row, o.json.result])).toEqual([
			[2, 'would be sent'],
			[3, 'refused'],
			[4, 'would be sent'],
			[5, 'refused'],
		]);
		expect(warnings(result)[0].message).toBe(
			`2 of 4 rows would be refused: rows 3 (item 1, policy BDX-2), 5 (item 3, policy BDX-4).${NUMBERING} Each row's reasons say the column and the rule; nothing was sent.`,
		);
	});

	it('Document (continue): refused items are counted the same way', async () => {
		nock(TEST_API).put('/invoices/1001/documents/a').reply(201, envelope(doc({ external_doc_uuid: 'a' })));
		const { run: result } = await runDocument('attach', { docUUID: '={{ $json.uuid }}', documentType: 'quote' }, { continueOnFail: true, items: [{ uuid: 'a' }, { uuid: ' ' }] });
		expect(warnings(result)[0].message).toMatch(/^1 of 2 rows refused: row 3 \(item 1\)\./);
	});
});

describe('which numbering a run says', () => {
	/** What the numbering reads of a run (sheetRows.ts): its input and the nodes before it. */
	const context = (items: IDataObject[], parents: string[]): Rows => ({
		items: items.map((json) => ({ json })),
		parents: () => parents.map((type) => ({ type })),
		say: () => undefined,
	});

	it('rows read from a file behind Extract from File are its lines (header = 1): nothing more to say', () => {
		const ctx = context([{}, {}], ['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.readWriteFile', 'n8n-nodes-base.extractFromFile']);
		expect([rowOf(ctx, 0), rowOf(ctx, 1)]).toEqual([2, 3]);
		expect(numberingNote(ctx)).toBe('');
	});

	it('rows read by Extract from File from a Starting Line are numbered as the file shows them (issue 55)', () => {
		const ctx = {
			items: [{ json: {} }, { json: {} }],
			parents: () => [{ type: 'n8n-nodes-base.extractFromFile', parameters: { operation: 'csv', options: { fromLine: 5 } } }],
			say: () => undefined,
		};
		// The header is line 5 of the file: the first row is line 6.
		expect([rowOf(ctx, 0), rowOf(ctx, 1)]).toEqual([6, 7]);
	});

	it('rows that carry their own number (Google Sheets) keep it', () => {
		const ctx = context([{ row_number: 7 }, { row_number: 9 }], ['n8n-nodes-base.googleSheets']);
		expect([rowOf(ctx, 0), rowOf(ctx, 1)]).toEqual([7, 9]);
		expect(numberingNote(ctx)).toBe('');
	});

	it('items from no sheet (a Code node, JSON) are counted the same way, and the run says how', () => {
		const ctx = context([{}, {}], ['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.code']);
		expect([rowOf(ctx, 0), rowOf(ctx, 1)]).toEqual([2, 3]);
		expect(numberingNote(ctx)).toBe(NUMBERING);
	});
});

describe('one row numbering in stop errors', () => {
	it('Create (stop) before any call: "Row 4 (item 2)" at the head, the other rows named the same way', async () => {
		const trap = nock(API).post('/invoices').reply(201, envelope({}));
		const items = [sheetRow(1), sheetRow(2), sheetRow(3, { 'Risk State': 'Texass' }), sheetRow(4, { Premium: 'abc' })];
		const { error } = await run(columns('create'), { items });
		expect(error!.message).toMatch(/^Row 4 \(item 2\): Invalid input, nothing was sent: Column "Risk State": "Texass" is not a US state code/);
		expect(error!.description).toContain('2 of 4 rows failed the checks made before any call (also row 5 (item 3)); no row was sent.');
		expect(trap.isDone()).toBe(false);
	});

	it('Create Many (stop): the same numbering', async () => {
		const items = [sheetRow(1), sheetRow(2, { 'Insured Name': '' }), sheetRow(3, { 'Eff Date': 'soon' })];
		const { error } = await run(columns('createMany'), { items, key: KEYS.t3 });
		expect(error!.message).toMatch(/^Row 3 \(item 1\): Invalid input, nothing was sent: Column "Insured Name" is empty: the insured_name field is required/);
		expect(error!.description).toContain('2 of 3 rows failed (also row 4 (item 2)).');
	});

	it('a single item keeps its message as it was (no row to tell apart)', async () => {
		const { error } = await run(jsonParams('create'), { items: [row({ state_code: 'Texass' })] });
		expect(error!.message).toMatch(/^Invalid input, nothing was sent: state_code: "Texass" is not a US state code or name/);
	});
});

describe('refusals in the sheet’s words', () => {
	it('the local checks name the column as written and quote the value, in a sentence that starts with a capital', async () => {
		const items = [sheetRow(1, { 'Risk State': 'Texass', Premium: 'abc', 'Insured Name': ' ' })];
		const { output } = await run(columns('create'), { items, continueOnFail: true });
		const fields = output![0].json.fields as string[];
		expect(fields).toEqual(
			expect.arrayContaining([
				'Column "Insured Name" is empty: the insured_name field is required',
				'Column "Risk State": "Texass" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)',
			]),
		);
		expect(fields.find((f) => f.startsWith('Column "Premium"'))).toMatch(/^Column "Premium": "abc": [A-Z]/);
		for (const line of fields) expect(line).toMatch(/^[A-Z]/);
	});

	it('the service’s own refusal of a column (an unknown NAIC) names the column and the value, not insurers[0].naic', async () => {
		nock(API)
			.post('/invoices')
			.reply(422, failure('VALIDATION_ERROR', 'Validation failed', { fields: { 'insurers[0].naic': ["no company found with NAIC '12345'"] } }));
		const { output } = await run(columns('create'), { items: [sheetRow(1, { NAIC: '12345' })], continueOnFail: true });
		expect(output![0].json.fields).toEqual(["Column \"NAIC\": no company found with NAIC '12345'"]);
		expect(String(output![0].json.description)).toContain("Column \"NAIC\": no company found with NAIC '12345'");
		expect(String(output![0].json.description)).not.toContain('insurers[0].naic');
	});

	it('a refusal naming the group and the field ("insurers: insurers[0].naic: …") names the field’s column', async () => {
		nock(API)
			.post('/invoices')
			.reply(422, failure('VALIDATION_ERROR', 'Validation failed', { fields: { insurers: ["insurers[0].naic: no company found with NAIC '12345'"] } }));
		const { output } = await run(columns('create'), { items: [sheetRow(1, { NAIC: '12345' })], continueOnFail: true });
		expect(output![0].json.fields).toEqual(["Column \"NAIC\": no company found with NAIC '12345'"]);
	});

	it('the service’s refusal of a row filed from JSON keeps the service’s field (there is no column)', async () => {
		// JSON files with a derived key, so the row is looked for on its policy first: not there.
		nock(API).get('/invoices').query({ policy_number: 'POL-100', page: 1, per_page: 100 }).reply(200, listingReply([]));
		nock(API)
			.post('/invoices')
			.reply(422, failure('VALIDATION_ERROR', 'Validation failed', { fields: { 'insurers[0].naic': ["no company found with NAIC '12345'"] } }));
		const { output } = await run(jsonParams('create'), { items: [row({ insurers: [{ naic: '12345' }] })], continueOnFail: true });
		expect(output![0].json.fields).toEqual(["insurers[0].naic: no company found with NAIC '12345'"]);
	});
});
