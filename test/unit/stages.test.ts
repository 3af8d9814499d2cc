/**
 * The filing core's stages on plain values: a run built with `newRun` (shared/run.ts) over input
 * items and an in-memory service, no n8n engine and no HTTP. What enters each stage and what
 * leaves it (docs/development.md, "The filing core's stages").
 */
import type { IDataObject, INode, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';

import { fileInvoice } from '../../nodes/filing/fileInvoice';
import type { FilingSettings } from '../../nodes/filing/options';
import { refuseSameKeyOtherRow, refuseSecondOfTerm } from '../../nodes/filing/sameRun';
import { readErrorInfo, serviceError } from '../../nodes/shared/errors';
import type { InvoiceService } from '../../nodes/shared/invoiceService';
import { newRun, type Run } from '../../nodes/shared/run';
import type { AccountInfo } from '../../nodes/shared/service';
import type { ApiReply } from '../../nodes/shared/transport';
import { countItems, outcomeSummary, type OutcomeCounts } from '../../nodes/SurplusLinesInvoice/output';
import { readInvoiceInput, type BodySettings } from '../../nodes/sheet/input';
import { notATransaction, readSheet } from '../../nodes/sheet/sheetRead';
import { takeColumnNotes, takeInvoiceWarnings } from '../../nodes/sheet/warnings';

const NODE = { name: 'Create Invoice', type: 'n8n-nodes-surplus-lines.surplusLinesInvoice' } as INode;

const reply = (data: unknown, replayed = false): ApiReply =>
	({ data, statusCode: replayed ? 200 : 201, replayed }) as ApiReply;

/** An in-memory service: each call is written down; what it answers is given per test. */
function memoryService(answers: Partial<InvoiceService> & { features?: string[] }) {
	const calls: Array<{ call: string; args: unknown[] }> = [];
	const unexpected = (call: string) => async (...args: unknown[]) => {
		calls.push({ call, args });
		throw new Error(`unexpected call ${call}`);
	};
	const service: InvoiceService = {
		list: unexpected('list'),
		create: unexpected('create'),
		createBatch: unexpected('createBatch'),
		preview: unexpected('preview'),
		get: unexpected('get'),
		update: unexpected('update'),
		documents: unexpected('documents'),
		estimate: unexpected('estimate'),
		searchCompanies: unexpected('searchCompanies'),
		lobs: unexpected('lobs'),
		me: async () => {
			calls.push({ call: 'me', args: [] });
			return { features: answers.features ?? [], scopes: [] } as unknown as AccountInfo;
		},
		settings: () => ({ maxRateLimitWaitSeconds: 0, timeoutSeconds: 30 }),
		keyBudget: async () => ({ tier: 't2' }),
		inFlight: async () => () => 4,
	};
	for (const [name, answer] of Object.entries(answers)) {
		if (typeof answer !== 'function') continue;
		(service as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
			calls.push({ call: name, args });
			return await (answer as (...a: unknown[]) => Promise<unknown>)(...args);
		};
	}
	return { service, calls };
}

function runOver(rows: IDataObject[], service: InvoiceService): { run: Run; said: NodeExecutionHint[] } {
	const said: NodeExecutionHint[] = [];
	const items: INodeExecutionData[] = rows.map((json) => ({ json }));
	const run = newRun({ node: NODE, items, service, say: (hint) => said.push(hint) });
	return { run, said };
}

const AUTOMATIC: BodySettings = { from: 'columns', columns: { mappingMode: 'autoMapInputData' }, leftOut: new Set() };

const SHEET = [
	{
		'Policy Number': 'P-100',
		'Insured Name': 'Acme Freight LLC',
		'Risk State': 'TX',
		'Net Premium': '$1,250.00',
		'Effective Date': '03/01/2026',
		'Expiration Date': '03/01/2027',
		Broker: 'Jane',
	},
	{
		'Policy Number': 'P-101',
		'Insured Name': 'Bolt Haulage Inc',
		'Risk State': 'CA',
		'Net Premium': '900',
		'Effective Date': '2026-04-01',
		'Expiration Date': '2027-04-01',
		Broker: 'Ann',
	},
	{ 'Policy Number': '', 'Net Premium': '2150', Broker: 'Total' },
];

describe('reading the sheet: a run of rows and the body settings in, checked bodies out', () => {
	it('reads the sheet whole once: a total row is no transaction, each other row is read by its column names', () => {
		const { service, calls } = memoryService({});
		const { run, said } = runOver(SHEET, service);
		readSheet(run, { automatic: true, leftOut: new Set() });

		expect(notATransaction(run, 2)).toMatchObject({ outcome: 'left_out', sheetRow: 4 });
		expect(notATransaction(run, 0)).toBeUndefined();
		expect(said.map((hint) => hint.message).join(' ')).toContain('total row');

		const input = readInvoiceInput(run, AUTOMATIC, 0);
		expect(input.body).toMatchObject({
			policy_number: 'P-100',
			state_code: 'TX',
			net_premium: 1250,
			effective_date: '2026-03-01',
		});
		expect(input.sources).toMatchObject({ net_premium: 'Net Premium', state_code: 'Risk State' });
		// What the reader decided about the row's columns waits in the run for the row's item.
		expect(takeColumnNotes(run, 0)._ignoredColumns).toEqual(
			expect.arrayContaining([expect.objectContaining({ column: 'Broker' })]),
		);
		expect(takeInvoiceWarnings(run, 0)).toEqual([]);
		expect(calls).toEqual([]);
	});

	it('a bad row is refused naming its column and value, before any call', () => {
		const { service, calls } = memoryService({});
		const { run } = runOver([{ ...SHEET[0], 'Risk State': 'Texass' }, SHEET[1]], service);
		readSheet(run, { automatic: true, leftOut: new Set() });
		let error: unknown;
		try {
			readInvoiceInput(run, AUTOMATIC, 0);
		} catch (caught) {
			error = caught;
		}
		expect(readErrorInfo(error)?.code).toBe('INVALID_INPUT');
		expect(readErrorInfo(error)?.fields?.join('\n')).toContain('Column "Risk State": "Texass"');
		expect(calls).toEqual([]);
	});

	it('Invoice JSON as saved text is parsed; its errors name the field', () => {
		const { service } = memoryService({});
		const { run } = runOver([{}], service);
		expect(() => readInvoiceInput(run, { from: 'json', wholeItem: false, value: '{"policy_number":' }, 0)).toThrow(
			/Invoice JSON: not valid JSON/,
		);
	});
});

describe('the same run: rows in order in, refusals out, what was seen kept in the run', () => {
	it('a later row with an earlier row’s key but other columns is refused, naming the columns', () => {
		const { service } = memoryService({});
		const { run } = runOver(
			[
				{ policy: 'P-1', premium: '100', note: 'first' },
				{ policy: 'P-1', premium: '100', note: 'second' },
			],
			service,
		);
		refuseSameKeyOtherRow(run, 'key-1', 0);
		expect(() => refuseSameKeyOtherRow(run, 'key-1', 1)).toThrow(/"note" \(first in row 2, second here\)/); // rows as the sheet numbers them (issue 53)
		// Another run knows nothing of the first: nothing is kept outside the run value.
		const other = runOver(run.items.map((item) => item.json), service).run;
		expect(() => refuseSameKeyOtherRow(other, 'key-1', 1)).not.toThrow();
	});

	it('a second New of one policy term in the run is asked, not filed; File Anyway files both', () => {
		const { service } = memoryService({});
		const body = (premium: number) => ({
			policy_number: 'P-7',
			type_code: 'NEW',
			effective_date: '2026-01-01',
			expiration_date: '2027-01-01',
			net_premium: premium,
		});
		const { run } = runOver([{}, {}], service);
		refuseSecondOfTerm(run, body(100), 0, 'refuse');
		expect(() => refuseSecondOfTerm(run, body(200), 1, 'refuse')).toThrow(/second NEW of policy P-7/);
		expect(() => refuseSecondOfTerm(run, body(200), 1, 'file')).not.toThrow();
	});
});

describe('filing and settling after a lost reply: a body and its key in, what was filed out', () => {
	const settings: FilingSettings = {
		lookAlike: 'refuse',
		lookFirst: false,
		lostCreateWaitSeconds: 0,
		replayedView: 'current',
		writeMark: true,
	};
	const body = { policy_number: 'P-9', net_premium: 100 };
	const lost = (run: Run) => serviceError(run, { code: 'NETWORK_ERROR', message: 'socket hang up' }, { itemIndex: 0 });

	it('an account that honours keys: the same key is sent again and the stored invoice comes back, not filed twice', async () => {
		let creates = 0;
		const { service, calls } = memoryService({
			features: ['idempotency'],
			create: async () => {
				creates++;
				if (creates === 1) throw lost(run);
				return reply({ id: 41, policy_number: 'P-9' }, true);
			},
		});
		const { run } = runOver([{}], service);
		const filed = await fileInvoice(run, body, { idempotencyKey: 'k-9', keyDerived: true, itemIndex: 0, settings });
		expect(filed).toMatchObject({ outcome: 'filed', recovered: true, invoice: { id: 41 } });
		expect(calls.map((c) => c.call)).toEqual(['create', 'me', 'create']);
		expect(calls.filter((c) => c.call === 'create').map((c) => (c.args[0] as IDataObject).idempotencyKey)).toEqual(['k-9', 'k-9']);
	});

	it('an account without keys: the policy is listed, and a row not there is sent once more and says so', async () => {
		let creates = 0;
		const { service, calls } = memoryService({
			features: [],
			create: async () => {
				creates++;
				if (creates === 1) throw lost(run);
				return reply({ id: 42, policy_number: 'P-9' });
			},
		});
		const { run } = runOver([{}], service);
		const listed: string[] = [];
		run.learned.policies = {
			book: undefined as never,
			wholeListing: async ({ policyNumber }) => {
				listed.push(policyNumber);
				return { invoices: [], calls: 1 };
			},
		};
		const filed = await fileInvoice(run, body, { idempotencyKey: 'k-9', keyDerived: true, itemIndex: 0, settings });
		expect(filed.outcome).toBe('sent_again');
		expect(filed.note).toContain('policy P-9 holds it twice');
		expect(listed).toEqual(['P-9']);
		expect(calls.map((c) => c.call)).toEqual(['create', 'me', 'create']);
	});
});

describe('the summary of a filing run: its figures in, its sentence out', () => {
	const counts = (given: Partial<OutcomeCounts>): OutcomeCounts => ({
		rows: 0,
		filed: 0,
		replayed: 0,
		alreadyFiled: 0,
		sentAgain: 0,
		refused: 0,
		notElectronic: [],
		taxesDiffer: { filed: 0, refused: 0 },
		...given,
	});

	it('says each figure in the users’ words (the other suites test the figures: summaryParts)', () => {
		expect(outcomeSummary(counts({ rows: 25, filed: 22, refused: 3 }))).toBe(
			'Of 25 rows: 22 filed, 3 refused (error items, listed in the warning); nothing was filed twice.',
		);
		expect(outcomeSummary(counts({ rows: 3, filed: 1, replayed: 2 }))).toBe(
			'Of 3 rows: 1 filed, 2 already filed (2 replayed by the service); nothing was filed twice.',
		);
		expect(outcomeSummary(counts({ rows: 3, filed: 2, alreadyFiled: 1 }))).toBe(
			'Of 3 rows: 2 filed, 1 already filed (1 found on their policy); nothing was filed twice.',
		);
		expect(outcomeSummary(counts({ rows: 2, filed: 1, sentAgain: 1 }))).toBe(
			'Of 2 rows: 1 filed, 1 sent again after a reply that never came (outcome sent_again): check that policy for a second filing.',
		);
		expect(outcomeSummary(counts({ rows: 1, replayed: 1 }))).toBe(
			'Of 1 row: 1 already filed (1 replayed by the service); nothing was filed twice.',
		);
		// Every row simply filed: nothing to act on, nothing said.
		expect(outcomeSummary(counts({ rows: 4, filed: 4 }))).toBeUndefined();
	});

	it('counts the output items by outcome; an error item is a refused row', () => {
		const items: INodeExecutionData[] = [
			{ json: { outcome: 'filed' } },
			{ json: { outcome: 'replayed' } },
			{ json: { outcome: 'already_filed' } },
			{ json: { outcome: 'sent_again' } },
			{ json: { outcome: 'filed', _previewNotes: ['State NY is not supported for filing'] } },
		];
		expect(countItems(items, 6)).toEqual(
			counts({ rows: 6, filed: 2, replayed: 1, alreadyFiled: 1, sentAgain: 1, notElectronic: ['NY'] }),
		);
	});
});
