/**
 * A reply is taken only for what was asked (issue 54), against the sandbox with its fault
 * injection (`reply_as`, `stall_files`): a proxy's HTML 404 deletes and settles nothing; a key of
 * the other environment settles nothing; an unreadable listing refuses the row on a legacy
 * account (nothing filed twice); batch results numbered from 1, a create answered with another
 * policy's invoice and a read answered with another id are each caught; a stalled download ends
 * at its Timeout; a gzip bomb is refused at the cap.
 */
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesDocument } from '../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { runNode } from '../harness/engine';
import { useFakeClock } from '../helpers/fakeClock';
import { sandboxCalls } from '../helpers/sandboxCalls';
import { runInvoiceOn, storedInvoice, useSandboxSuite } from '../helpers/sandboxSuite';
import { byId } from '../helpers/serviceReplies';
import { keyByName } from '../sandbox';
import { invoiceBody } from '../sandbox/testkit';

const sb = useSandboxSuite();
const { api, control, storedUnder } = sandboxCalls(sb);
let fake: ReturnType<typeof useFakeClock>;
beforeEach(() => {
	fake = useFakeClock(Date.now());
});
afterEach(() => fake.restore());

const JSON_BODY = { inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}' };
const fault = (settings: IDataObject) => control('/faults', { path_prefix: '/invoices', count: 1, ...settings });
const fileDirect = async (keyName: string, body: object = invoiceBody()) => (await api(keyName).post('/invoices', body)).data.data as IDataObject;
const row = (policy: string, premium = 1000): IDataObject => ({
	policy_number: policy,
	insured_name: 'Harbor Marine Co',
	state_code: 'TX',
	type_code: 'NEW',
	effective_date: '2026-03-01',
	expiration_date: '2027-03-01',
	net_premium: premium,
});
const watchRow = (id: number, invoice: IDataObject): IDataObject => ({ id, invoice_id: invoice.id, policy_number: null, state: 'new|not_sent|', checked_at: '', last_event: '', settled: false });

describe('who answered a 404', () => {
	it('Delete answered by a proxy’s HTML 404: the item fails naming the Base URL; the invoice is still there', async () => {
		const invoice = await fileDirect('t2');
		await fault({ reply_as: 'html_404', methods: ['DELETE'] });
		const { output } = await runInvoiceOn(sb, 't2', { operation: 'delete', invoiceId: byId(String(invoice.id)) });
		expect(output![0].json).toMatchObject({ code: 'NOT_ENVELOPE', httpStatus: 404 });
		expect(output![0].json.already_gone).toBeUndefined();
		expect((await storedInvoice(sb, 't2', invoice.id)).id).toBe(invoice.id);
	});

	it('Delete of an invoice the service does not hold: already gone, on its own word', async () => {
		const { output } = await runInvoiceOn(sb, 't2', { operation: 'delete', invoiceId: byId('987654') });
		expect(output![0].json).toMatchObject({ deleted: true, already_gone: true });
	});

	it('Look for Changes with a proxy’s HTML 404 settles nothing', async () => {
		const invoice = await fileDirect('t2');
		await fault({ reply_as: 'html_404', methods: ['GET'] });
		const result = await runInvoiceOn(sb, 't2', { operation: 'watchLook', looksPerHour: 12, options: {} }, [watchRow(1, invoice)]);
		expect((result.output ?? []).filter((o) => o.json.settled === true)).toEqual([]);
	});

	it('Look for Changes with the key of the other environment (live for test filings) settles and marks nothing', async () => {
		const a = await fileDirect('t2');
		const b = await fileDirect('t2', { ...invoiceBody(), policy_number: 'POL-OTHER' });
		const result = await runInvoiceOn(sb, 'live-t2', { operation: 'watchLook', looksPerHour: 12, options: {} }, [watchRow(1, a), watchRow(2, b)]);
		expect((result.output ?? []).filter((o) => o.json.row_id !== undefined)).toEqual([]);
	});
});

describe('a listing that decides a filing', () => {
	it.each(['listing_other_shape', 'listing_null', 'listing_total_no_rows'])(
		'legacy account, a re-run whose look first gets %s: the row is refused, stored once',
		async (replyAs) => {
			const sheet = [row('POL-LEG-1')];
			const first = await runInvoiceOn(sb, 'legacy-t2', { operation: 'create', ...JSON_BODY }, sheet);
			expect(first.output![0].json.outcome).toBe('filed');
			await fault({ reply_as: replyAs, methods: ['GET'] });
			const again = await runInvoiceOn(sb, 'legacy-t2', { operation: 'create', ...JSON_BODY }, sheet);
			expect(again.output![0].json.outcome).toBeUndefined();
			expect(String(again.output![0].json.error)).toMatch(/could not be read before filing, so nothing was filed/);
			expect(await storedUnder('legacy-t2', ['POL-LEG-1'])).toHaveLength(1);
		},
	);
});

describe('what a reply describes', () => {
	it('Create Many on a t3 legacy account with batch results numbered from 1: every row its own invoice', async () => {
		const sheet = [row('POL-B-1', 100), row('POL-B-2', 200), row('POL-B-3', 300)];
		await fault({ reply_as: 'batch_index_from_1', methods: ['POST'], path_prefix: '/invoices/batch' });
		const { output } = await runInvoiceOn(sb, 'legacy-t3', { operation: 'createMany', simplify: true, ...JSON_BODY }, sheet);
		const stored = await storedUnder('legacy-t3', ['POL-B-1', 'POL-B-2', 'POL-B-3']);
		expect(stored).toHaveLength(3);
		const idOf = (policy: string) => stored.find((s) => s.policy_number === policy)!.id;
		expect(output!.map((o) => [o.json.policy_number, o.json.id])).toEqual([
			['POL-B-1', idOf('POL-B-1')],
			['POL-B-2', idOf('POL-B-2')],
			['POL-B-3', idOf('POL-B-3')],
		]);
	});

	it('Create answered with another policy’s invoice: the row’s own filing is found on its policy and output, never the other', async () => {
		await fault({ reply_as: 'other_invoice', methods: ['POST'] });
		const { output } = await runInvoiceOn(sb, 'legacy-t2', { operation: 'create', ...JSON_BODY }, [row('POL-C-1')]);
		const stored = await storedUnder('legacy-t2', ['POL-C-1']);
		expect(stored).toHaveLength(1);
		expect(output![0].json).toMatchObject({ id: stored[0].id, policy_number: 'POL-C-1' });
		expect(String(output![0].json.outcomeNote)).toMatch(/^The create's reply was not this row/);
	});

	it('Get answered with another id is refused', async () => {
		const invoice = await fileDirect('t2');
		await fault({ reply_as: 'other_invoice', methods: ['GET'] });
		const { output } = await runInvoiceOn(sb, 't2', { operation: 'get', invoiceId: byId(String(invoice.id)) });
		expect(output![0].json).toMatchObject({ code: 'REPLY_FOR_ANOTHER_INVOICE' });
		expect(output![0].json.id).toBeUndefined();
	});
});

describe('deadlines and size', () => {
	it('Get answered with a gzip bomb is refused at the cap', async () => {
		const invoice = await fileDirect('t2');
		await fault({ reply_as: 'gzip_bomb', methods: ['GET'] });
		const { output } = await runInvoiceOn(sb, 't2', { operation: 'get', invoiceId: byId(String(invoice.id)) });
		expect(output![0].json).toMatchObject({ code: 'REPLY_TOO_LARGE' });
	});

	it('a download whose host stalls after its headers ends at the Timeout (1 s)', async () => {
		const invoice = await fileDirect('t2');
		const put = await api('t2').put(`/invoices/${String(invoice.id)}/documents/scan-1`, { type: 'declaration_page' });
		await control(`/documents/${String(put.data.data.id)}/fetch`, { fetch_status: 'fetched', file_size: 2048, mime_type: 'application/pdf' });
		await control('/faults', { stall_files: true });
		const started = Date.now();
		const { output } = await runNode({
			node: new SurplusLinesDocument(),
			parameters: { resource: 'document', operation: 'download', invoiceId: byId(Number(invoice.id)), referenceType: 'docUUID', document: 'scan-1', requestOptions: { timeoutSeconds: 1 } },
			credentials: { apiKey: keyByName('t2').key, baseUrl: sb.baseUrl },
			continueOnFail: true,
		});
		expect(output![0].json).toMatchObject({ code: 'DOWNLOAD_TIMEOUT' });
		expect(Date.now() - started).toBeLessThan(8_000);
	});
});
