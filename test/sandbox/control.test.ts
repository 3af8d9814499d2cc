import axios from 'axios';
import { startSandbox, keyByName } from './index';
import { client, invoiceBody, useSandbox, type Row } from './testkit';

describe('control endpoints, faults, the clock', () => {
	let clock = new Date('2026-03-01T15:00:00Z');
	const kit = useSandbox({ now: () => clock });
	beforeEach(async () => {
		clock = new Date('2026-03-01T15:00:00Z');
		expect((await kit().api('t2').post('/invoices', invoiceBody())).status).toBe(201);
	});
	const read = async (id = 1001, key = 't2') => (await kit().api(key).get(`/invoices/${id}`)).data.data;

	it('moves invoice status and filing; filed follows status', async () => {
		const res = await kit().control('/invoices/1001/status', { status: 'sent', state_status: 'sent' });
		expect(res.data.data).toMatchObject({ status: 'sent', filed: true, filing: { state_status: 'sent', submission_number: 'SUB-TX-1001', updated_at: '2026-03-01 09:00:00' } });
		await kit().control('/invoices/1001/status', { status: 'error', state_status: 'rejected', message: 'Missing SL-2' });
		expect(await read()).toMatchObject({ status: 'error', filed: false, filing: { state_status: 'rejected', message: 'Missing SL-2' } });
		await kit().control('/invoices/1001/status', { status: 're-submitted', state_status: 'confirmed', confirmation_number: 'TX-CONF-9' });
		expect(await read()).toMatchObject({ status: 're-submitted', filed: true, filing: { state_status: 'confirmed', confirmation_number: 'TX-CONF-9', message: null } });
		const bad = await client(kit().sb.baseUrl.replace('/api/v1', ''), null).post('/_sandbox/invoices/1001/status', { status: 'done' });
		expect([bad.status, bad.data.error.details.fields]).toEqual([422, { status: ['Must be one of: new, sent, success, error, re-submitted'] }]);
		expect((await client(kit().sb.baseUrl.replace('/api/v1', ''), null).post('/_sandbox/invoices/9999/status', {})).status).toBe(404);
	});

	it('advance: new -> sent -> success; filing not_sent -> sent -> accepted -> confirmed; documents pending -> fetching -> fetched', async () => {
		await kit().api('t2').put('/invoices/1001/documents/abc-123', { type: 'sl2_form' });
		const seen: unknown[] = [];
		for (let i = 0; i < 4; i++) {
			await kit().control('/advance');
			const inv = await read();
			seen.push([inv.status, inv.filing.state_status, inv.documents[0].fetch_status]);
		}
		expect(seen).toEqual([
			['sent', 'sent', 'fetching'],
			['success', 'accepted', 'fetched'],
			['success', 'confirmed', 'fetched'],
			['success', 'confirmed', 'fetched'],
		]);
		expect((await read()).filing.confirmation_number).toBe('TX-2026-1001');
		// Ids ending in 0 or 5 meet an error once (1005); filings of ids ending in 7 are rejected (1007).
		for (let i = 0; i < 6; i++) await kit().api('t2').post('/invoices', invoiceBody({ policy_number: `P${i}` }));
		const path: string[] = [];
		for (let i = 0; i < 4; i++) {
			await kit().control('/advance');
			path.push((await read(1005)).status);
		}
		expect(path).toEqual(['sent', 'error', 're-submitted', 'success']);
		expect((await read(1007)).filing).toMatchObject({ state_status: 'rejected', message: expect.stringContaining('Rejected') });
	});

	it('reset returns to the seeded state', async () => {
		await kit().control('/faults', { delay_ms: 1 });
		await kit().control('/reset');
		expect((await kit().api('t2').get('/invoices')).data.data.pagination.total).toBe(0);
		expect((await client(kit().sb.baseUrl.replace('/api/v1', ''), null).get('/_sandbox/faults')).data.data.delay_ms).toBe(0);
		expect((await kit().api('t2').post('/invoices', invoiceBody())).data.data.id).toBe(1001);
	});

	it('lose_reply_after_commit: the invoice is stored, the connection drops without a reply', async () => {
		await kit().control('/faults', { lose_reply_after_commit: 1, methods: ['POST'], path_prefix: '/invoices', count: 1 });
		await expect(kit().api('t2').post('/invoices', invoiceBody({ net_premium: 777 }))).rejects.toMatchObject({ code: 'ECONNRESET' });
		// Recovery as the description advises: list the policy's transactions and compare.
		const list = await kit().api('t2').get('/invoices', { params: { policy_number: 'POL-1' } });
		expect(list.data.data.invoices.map((i: Row) => i.net_premium)).toEqual([10000, 777]);
	});

	it('error_500 replies INTERNAL_ERROR without storing; delay_ms slows replies; rate_limit_429 sends Retry-After', async () => {
		await kit().control('/faults', { error_500: 1, path_prefix: '/invoices', methods: ['POST'] });
		const res = await kit().api('t2').post('/invoices', invoiceBody({ policy_number: 'X' }));
		kit().conforms(res, 'POST', '/invoices');
		expect([res.status, res.data.error.code]).toEqual([500, 'INTERNAL_ERROR']);
		expect(res.data.error.message).toContain(res.data.meta.request_id);
		expect((await kit().api('t2').get('/invoices', { params: { policy_number: 'X' } })).data.data.invoices).toEqual([]);
		await kit().control('/faults', { delay_ms: 150 });
		const started = Date.now();
		await kit().api('t1').get('/lobs');
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		await kit().control('/faults', { rate_limit_429: 1 });
		const limited = await kit().api('t1').get('/lobs');
		expect([limited.status, limited.data.error.code, limited.headers['retry-after']]).toEqual([429, 'RATE_LIMIT_EXCEEDED', '1']);
	});

	it('faults are deterministic with a seed', async () => {
		const run = async () => {
			await kit().control('/faults', { error_500: 0.5, seed: 42, path_prefix: '/lobs' });
			const statuses: number[] = [];
			for (let i = 0; i < 12; i++) statuses.push((await kit().api('t3').get('/lobs')).status);
			return statuses;
		};
		const first = await run();
		expect(await run()).toEqual(first);
		expect(first).toContain(500);
		expect(first).toContain(200);
		const bad = await client(kit().sb.baseUrl.replace('/api/v1', ''), null).post('/_sandbox/faults', { error_500: 2 });
		expect(bad.data.error.details.fields).toEqual({ error_500: ['Must be a number from 0 to 1'] });
	});

	it('download links expire after 3600 s; a fresh read gives a new one', async () => {
		await kit().api('t2').put('/invoices/1001/documents/abc', { type: 'quote' });
		await kit().control('/documents/5001/fetch', { fetch_status: 'fetched' });
		const { url } = (await kit().api('t1').get('/invoices/1001/documents/5001')).data.data;
		clock = new Date(clock.getTime() + 3601 * 1000);
		const expired = await axios.get(url, { validateStatus: () => true });
		expect([expired.status, expired.data.error.message]).toEqual([403, 'Download link has expired; read the document again for a fresh one']);
		const fresh = (await kit().api('t1').get('/invoices/1001/documents/5001')).data.data.url;
		expect((await axios.get(fresh)).status).toBe(200);
	});

	it('idempotency keys expire after 24 hours', async () => {
		const headers = { 'Idempotency-Key': 'day-1' };
		await kit().api('t2').post('/invoices', invoiceBody({ policy_number: 'I' }), { headers });
		clock = new Date(clock.getTime() + 24 * 3600 * 1000 + 1000);
		const later = await kit().api('t2').post('/invoices', invoiceBody({ policy_number: 'I' }), { headers });
		expect([later.status, later.headers['idempotent-replayed']]).toEqual([201, undefined]);
	});
});

describe('auto-advance (SANDBOX_AUTO_ADVANCE_SECONDS)', () => {
	it('moves things on by itself', async () => {
		const sb = await startSandbox({ port: 0, autoAdvanceSeconds: 0.05 });
		try {
			const api = client(sb.baseUrl, keyByName('t2').key);
			await api.post('/invoices', invoiceBody());
			// Every 0.05 s one step; a loaded machine runs fewer ticks in a given time (an interval
			// late by more than its period fires once), so read until it has moved on, up to 10 s.
			let inv: Row = (await api.get('/invoices/1001')).data.data;
			for (let waited = 0; (inv.filing as Row).state_status !== 'confirmed' && waited < 10_000; waited += 50) {
				await new Promise((r) => setTimeout(r, 50));
				inv = (await api.get('/invoices/1001')).data.data;
			}
			expect([inv.status, (inv.filing as Row).state_status]).toEqual(['success', 'confirmed']);
		} finally {
			await sb.close();
		}
	});
});
