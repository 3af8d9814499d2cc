/** The Document node in n8n's engine against the local sandbox (real PUT/GET/DELETE, signed links, fetch states). */
import { SurplusLinesDocument } from '../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { clock } from '../../nodes/shared/timing';
import { runNode } from '../harness/engine';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { useFakeClock } from '../helpers/fakeClock';
import { byId } from '../helpers/serviceReplies';
import { keyByName } from '../sandbox';
import { client, invoiceBody } from '../sandbox/testkit';

const node = new SurplusLinesDocument();
const sb = useSandboxSuite();
let invoiceId: number;

const api = () => client(sb.baseUrl, keyByName('t2').key);
const control = (path: string, body: object) => client(sb.baseUrl.replace(/\/api\/v1$/, ''), null).post(`/_sandbox${path}`, body);

function run(operation: string, parameters: Record<string, unknown>, key = 't2') {
	return runNode({
		node,
		parameters: { resource: 'document', operation, invoiceId: byId(invoiceId), ...parameters },
		credentials: { apiKey: keyByName(key).key, baseUrl: sb.baseUrl },
	});
}

/** Calls the key spent during `fn`, read from the service's own X-RateLimit-Remaining. */
async function callsSpent(fn: () => Promise<unknown>): Promise<number> {
	const remaining = async () => Number((await api().get('/auth/me')).headers['x-ratelimit-remaining']);
	const before = await remaining();
	await fn();
	return before - (await remaining()) - 1;
}

beforeEach(async () => {
	invoiceId = (await api().post('/invoices', invoiceBody())).data.data.id;
});

it('Attach: 201 created, then 200 updated for the same docUUID (the type changes, no second document)', async () => {
	const first = await run('attach', { docUUID: 'dec-1', documentType: 'declaration_page', additionalFields: { filename: 'Dec.pdf' } });
	expect(first.output![0].json).toMatchObject({ outcome: 'created', doc_type: 'declaration_page', file_name: 'Dec.pdf', fetch_status: 'pending' });
	const again = await run('attach', { docUUID: 'dec-1', documentType: 'SL2_Form' });
	expect(again.output![0].json).toMatchObject({ outcome: 'updated', doc_type: 'sl2_form', id: first.output![0].json.id });
	expect((await api().get(`/invoices/${invoiceId}/documents`)).data.data.documents).toHaveLength(1);
});

it('Get: an all-digit docUUID finds its own document, not the document whose service id it equals (2 calls)', async () => {
	const a = (await run('attach', { docUUID: 'dec-1', documentType: 'quote' })).output![0].json;
	const b = (await run('attach', { docUUID: String(a.id), documentType: 'policy' })).output![0].json;
	expect(b.id).not.toBe(a.id);
	let got: Awaited<ReturnType<typeof run>> | undefined;
	expect(await callsSpent(async () => (got = await run('get', { referenceType: 'docUUID', document: String(a.id) })))).toBe(2);
	expect(got!.output![0].json).toMatchObject({ id: b.id, external_doc_uuid: String(a.id), doc_type: 'policy' });
	const byServiceId = await run('get', { referenceType: 'id', document: String(a.id) });
	expect(byServiceId.output![0].json).toMatchObject({ id: a.id, external_doc_uuid: 'dec-1' });
	expect(await callsSpent(() => run('get', { referenceType: 'docUUID', document: 'dec-1' }))).toBe(1);
});

it('Get Many and Delete (t2); a t1 key is refused before any call', async () => {
	await run('attach', { docUUID: 'a', documentType: 'quote' });
	await run('attach', { docUUID: 'b', documentType: 'quote' });
	expect((await run('getAll', { returnAll: true })).output!.map((i) => i.json.external_doc_uuid)).toEqual(['a', 'b']);
	expect(await callsSpent(() => run('delete', { referenceType: 'docUUID', document: 'a' }, 't1'))).toBe(0);
	expect((await run('delete', { referenceType: 'docUUID', document: 'a' })).output![0].json.deleted).toBe(true);
	expect((await run('getAll', { returnAll: true })).output!.map((i) => i.json.external_doc_uuid)).toEqual(['b']);
});

it('Download: returns the fetched file’s real bytes as binary data (1 API call + the signed link)', async () => {
	const doc = (await run('attach', { docUUID: 'scan-7', documentType: 'declaration_page' })).output![0].json;
	expect((await control(`/documents/${String(doc.id)}/fetch`, { fetch_status: 'fetched', file_size: 2048, mime_type: 'application/pdf' })).status).toBe(200);
	let result: Awaited<ReturnType<typeof run>> | undefined;
	expect(await callsSpent(async () => (result = await run('download', { referenceType: 'docUUID', document: 'scan-7' })))).toBe(1);
	const item = result!.output![0];
	const bytes = Buffer.from(item.binary!.data.data, 'base64');
	expect(bytes.length).toBe(2048);
	expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
	expect(item.binary!.data).toMatchObject({ fileName: 'scan-7.pdf', mimeType: 'application/pdf' });
	expect(item.json).toMatchObject({ file_size: 2048, downloaded_bytes: 2048 });
	expect(item.json.url).toBeUndefined();
});

it('Download before the fetch says so and names Wait Until Fetched', async () => {
	await run('attach', { docUUID: 'later', documentType: 'quote' });
	const { error } = await run('download', { referenceType: 'docUUID', document: 'later' });
	expect(error!.message).toContain('fetch_status "pending"');
	expect(error!.description).toContain('Wait Until Fetched');
});

it('Wait Until Fetched: follows pending → fetching → fetched as the sandbox moves it (3 checks, fake clock)', async () => {
	const doc = (await run('attach', { docUUID: 'slow-1', documentType: 'sl2_form' })).output![0].json;
	const fake = useFakeClock(Date.now());
	const fakeSleep = clock.sleep;
	const moves = ['fetching', 'fetched'];
	clock.sleep = async (ms: number) => {
		await fakeSleep(ms);
		const next = moves.shift();
		if (next) await control(`/documents/${String(doc.id)}/fetch`, { fetch_status: next });
	};
	try {
		const { output } = await run('waitUntilFetched', { referenceType: 'docUUID', document: 'slow-1', maxWaitSeconds: 120, intervalSeconds: 10 });
		expect(fake.sleeps).toEqual([10000, 10000]);
		expect(output![0].json).toMatchObject({ fetch_status: 'fetched', file_name: 'slow-1.pdf', wait: { outcome: 'fetched', checks: 3, waited_seconds: 20 } });
		expect(typeof output![0].json.url_expires_at).toBe('string');
	} finally {
		fake.restore();
	}
});
