/**
 * The Surplus Lines Trigger in n8n's PollContext against the local sandbox: statuses are moved
 * with the control endpoints and each change must come out exactly once.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { forgetRateLimits } from '../../nodes/shared/rateLimit';
import { activePoller } from '../harness/engine';
import { useFakeClock } from '../helpers/fakeClock';
import { useSandboxSuite } from '../helpers/sandboxSuite';
import { keyByName } from '../sandbox';
import { client, invoiceBody } from '../sandbox/testkit';
import { LoadedTrigger } from '../unit/trigger/helpers';

const sb = useSandboxSuite();
const api = (key = 't2') => client(sb.baseUrl, keyByName(key).key);
async function control(path: string, body: object = {}) {
	const res = await client(sb.baseUrl.replace(/\/api\/v1$/, ''), null).post(`/_sandbox${path}`, body);
	if (res.status !== 200) throw new Error(`control ${path} -> ${res.status} ${JSON.stringify(res.data)}`);
	return res;
}
async function create(body: IDataObject = {}): Promise<IDataObject> {
	const res = await api().post('/invoices', invoiceBody(body));
	if (res.status !== 201) throw new Error(`create -> ${res.status} ${JSON.stringify(res.data)}`);
	return res.data.data as IDataObject;
}

const EVERY_5_MINUTES = { item: [{ mode: 'everyX', value: 5, unit: 'minutes' }] };

/** The trigger in an active workflow, its static data written as n8n 2.8.4 writes it (`activePoller`). */
function trigger(parameters: IDataObject, key = 't2') {
	const all = ['invoiceStatus', 'filingState', 'documentFetchStatus', 'newTransaction'];
	const poller = activePoller({
		node: new LoadedTrigger(),
		parameters: { events: all, pollTimes: EVERY_5_MINUTES, options: {}, ...parameters },
		credentials: { apiKey: keyByName(key).key, baseUrl: sb.baseUrl },
	});
	const json = (emitted: INodeExecutionData[][] | null) => (emitted?.[0] ?? []).map((item) => item.json);
	return {
		async poll(mode: 'trigger' | 'manual' = 'trigger') {
			return json(mode === 'manual' ? (await poller.manual()).emitted : await poller.poll());
		},
		/** n8n stops and starts again: module memory gone, the activation poll on what n8n wrote. */
		async restart() {
			forgetRateLimits();
			return json(await poller.restart());
		},
	};
}

const brief = (events: IDataObject[]) => events.map((e) => [e.event, e.invoice_id, e.previous, e.current]);


describe('Surplus Lines Trigger against the sandbox', () => {
	it('one event per change, of every kind; none repeated across polls and a restart', async () => {
		const watched = await create({ policy_number: 'POL-W', documents: [{ type: 'sl2_form', docUUID: 'sl2-abc' }] });
		await create({ policy_number: 'POL-P' });
		const id = watched.id as number;
		const documentId = (watched.documents as IDataObject[])[0].id as number;
		const t = trigger({ invoiceIds: String(id), policyNumbers: 'POL-P' });

		expect(await t.poll()).toEqual([]); // baseline

		await control(`/invoices/${id}/status`, { status: 'sent', state_status: 'sent' });
		expect(brief(await t.poll())).toEqual([
			['invoice_status_changed', id, 'new', 'sent'],
			['filing_state_changed', id, 'not_sent', 'sent'],
		]);
		expect(await t.poll()).toEqual([]);

		await control(`/documents/${documentId}/fetch`, { fetch_status: 'fetched' });
		const [fetched, ...more] = await t.poll();
		expect(more).toEqual([]);
		expect(fetched).toMatchObject({ event: 'document_fetch_status_changed', document_id: documentId, doc_uuid: 'sl2-abc', previous: 'pending', current: 'fetched' });

		await control(`/invoices/${id}/status`, { status: 'error', state_status: 'rejected', message: 'Missing SL-2' });
		const rejected = await t.poll();
		expect(brief(rejected)).toEqual([
			['invoice_status_changed', id, 'sent', 'error'],
			['filing_state_changed', id, 'sent', 'rejected'],
		]);
		expect(rejected[1].message).toBe('Missing SL-2');

		expect(await t.restart()).toEqual([]);
		// A change while n8n is down comes out once, at the restart's activation poll.
		await control(`/documents/${documentId}/fetch`, { fetch_status: 'failed' });
		expect(brief(await t.restart())).toEqual([['document_fetch_status_changed', id, 'fetched', 'failed']]);
		expect(await t.poll()).toEqual([]);

		const endorsement = await create({ policy_number: 'POL-P', type_code: 'ENDORSEMENT', net_premium: 500, effective_date: '2026-06-01' });
		const added = await t.poll();
		expect(brief(added)).toEqual([['new_transaction', endorsement.id, null, 'new']]);
		expect(added[0]).toMatchObject({ policy_number: 'POL-P', transaction_type: 'Endorsement' });

		await control(`/invoices/${id}/status`, { status: 're-submitted', state_status: 'confirmed', confirmation_number: 'TX-CONF-9' });
		await control(`/invoices/${endorsement.id as number}/status`, { status: 'sent' });
		const last = await t.poll();
		expect(brief(last)).toEqual([
			['invoice_status_changed', endorsement.id, 'new', 'sent'],
			['invoice_status_changed', id, 'error', 're-submitted'],
			['filing_state_changed', id, 'rejected', 'confirmed'],
		]);
		expect(last[2].confirmation_number).toBe('TX-CONF-9');
		expect(await t.poll()).toEqual([]);
	});

	it('invoices first seen after the baseline: one already rejected or settled comes out once (first_seen), one still moving only when it changes', async () => {
		const t = trigger({ policyNumbers: 'POL-F', events: ['invoiceStatus', 'filingState'], statusValues: ['success', 'error'], filingValues: ['confirmed', 'rejected', 'refused'] });
		expect(await t.poll()).toEqual([]); // baseline: the policy has no transaction yet

		// Filed after the baseline; two move on before the trigger's next read.
		const rejected = (await create({ policy_number: 'POL-F' })).id as number;
		const settled = (await create({ policy_number: 'POL-F', type_code: 'ENDORSEMENT', net_premium: 500, effective_date: '2026-06-01' })).id as number;
		const moving = (await create({ policy_number: 'POL-F', type_code: 'ENDORSEMENT', net_premium: 700, effective_date: '2026-07-01' })).id as number;
		await control(`/invoices/${rejected}/status`, { status: 'sent', state_status: 'rejected', message: 'Missing SL-2' });
		await control(`/invoices/${settled}/status`, { status: 'success', state_status: 'confirmed', confirmation_number: 'TX-7' });
		await control(`/invoices/${moving}/status`, { status: 'sent', state_status: 'sent' });

		const first = await t.poll();
		expect(first.map((e) => [e.event, e.invoice_id, e.previous, e.current, e.first_seen])).toEqual([
			['filing_state_changed', rejected, null, 'rejected', true],
			['invoice_status_changed', settled, null, 'success', true],
			['filing_state_changed', settled, null, 'confirmed', true],
		]);
		expect(first[0].message).toBe('Missing SL-2');
		expect(await t.poll()).toEqual([]);
		expect(await t.restart()).toEqual([]);

		await control(`/invoices/${moving}/status`, { status: 'error', state_status: 'refused' });
		const later = await t.poll();
		expect(later.map((e) => [e.event, e.invoice_id, e.previous, e.current, e.first_seen])).toEqual([
			['invoice_status_changed', moving, 'sent', 'error', undefined],
			['filing_state_changed', moving, 'sent', 'refused', undefined],
		]);
		expect(await t.poll()).toEqual([]);
	});

	it('a watched invoice id that does not exist yet: found (a day later) already rejected, one first-seen event', async () => {
		const fake = useFakeClock();
		try {
			const t = trigger({ invoiceIds: '1001', events: ['filingState'] });
			expect(await t.poll()).toEqual([]); // NOT_FOUND, and nothing else read: not taken as gone, looked for again
			const id = (await create({ policy_number: 'POL-N' })).id as number;
			expect(id).toBe(1001);
			await control(`/invoices/${id}/status`, { status: 'sent', state_status: 'rejected' });
			fake.advance(24 * 60 * 60_000);
			expect(brief(await t.poll())).toEqual([['filing_state_changed', id, null, 'rejected']]);
			fake.advance(5 * 60_000);
			expect(await t.poll()).toEqual([]);
		} finally {
			fake.restore();
		}
	});

	it('a 429 or a 500 during a poll: no events that time, the change comes once on the next poll', async () => {
		const a = await create({ policy_number: 'A' });
		const b = await create({ policy_number: 'B' });
		const t = trigger({ invoiceIds: `${String(a.id)},${String(b.id)}`, events: ['invoiceStatus'] });
		await t.poll();
		await control(`/invoices/${String(a.id)}/status`, { status: 'sent' });
		await control(`/invoices/${String(b.id)}/status`, { status: 'sent' });

		await control('/faults', { rate_limit_429: 1, path_prefix: '/invoices', count: 1 });
		const first = await t.poll();
		// Polls are minutes apart: the next comes after the 429's Retry-After (1 s), which holds
		// back every call of the key until then.
		await new Promise((resolve) => setTimeout(resolve, 1100));
		await control('/faults', { error_500: 1, path_prefix: '/invoices', count: 3 });
		const second = await t.poll();
		const third = await t.poll();
		const fourth = await t.poll();
		const all = [...first, ...second, ...third, ...fourth];
		expect(all.map((e) => e.invoice_id).sort()).toEqual([a.id, b.id].sort());
		expect(first).toEqual([]); // the 429 hit the first call: the poll stopped at once
	});

	it('the auto-advance path (new → sent → error → re-submitted → success) gives one event per step', async () => {
		for (let i = 0; i < 5; i++) await create({ policy_number: `AUTO-${i}` });
		const t = trigger({ invoiceIds: '1005', events: ['invoiceStatus'] }); // ids ending in 5 meet an error once
		await t.poll();
		const seen: IDataObject[] = [];
		for (let step = 0; step < 5; step++) {
			await control('/advance');
			seen.push(...(await t.poll()), ...(await t.poll()));
		}
		expect(seen.map((e) => [e.previous, e.current])).toEqual([
			['new', 'sent'],
			['sent', 'error'],
			['error', 're-submitted'],
			['re-submitted', 'success'],
		]);
	});

	it('manual run: the current state of the watched items as sample events', async () => {
		const inv = await create({ policy_number: 'M-1' });
		const sample = await trigger({ invoiceIds: String(inv.id), events: ['invoiceStatus', 'filingState'] }).poll('manual');
		expect(brief(sample)).toEqual([
			['invoice_status_changed', inv.id, null, 'new'],
			['filing_state_changed', inv.id, null, 'not_sent'],
		]);
		expect((sample[0].invoice as IDataObject).policy_number).toBe('M-1');
	});
});

describe('calls per poll, t2 key, every 5 minutes, 25% share (counted by the sandbox)', () => {
	/** Calls the t2 key spent during `fn`, from the service's own X-RateLimit-Remaining. */
	async function callsSpent(fn: () => Promise<unknown>): Promise<number> {
		const remaining = async () => Number((await api().get('/auth/me')).headers['x-ratelimit-remaining']);
		const before = await remaining();
		await fn();
		return before - (await remaining()) - 1;
	}
	const rows: string[] = [];
	afterAll(() => console.log(['watched invoices | calls per poll, polls 1-4 (sandbox X-RateLimit-Remaining)', ...rows].join('\n')));

	it.each([
		[1, [1, 1, 1, 1]],
		[50, [20, 20, 20, 20]],
		[500, [20, 20, 20, 20]],
	])('%i invoices', async (count, expected) => {
		const invoices = Array.from({ length: count }, (_, i) => invoiceBody({ policy_number: `BUDGET-${i}` }));
		const batch = await api('t3').post('/invoices/batch', { invoices });
		expect(batch.data.data.created).toBe(count);
		const ids = (batch.data.data.results as Array<{ invoice: { id: number } }>).map((r) => r.invoice.id);
		const t = trigger({ invoiceIds: ids.join(','), events: ['invoiceStatus'] });
		const calls: number[] = [];
		for (let poll = 0; poll < 4; poll++) calls.push(await callsSpent(() => t.poll()));
		expect(calls).toEqual(expected);
		rows.push(`${count} | ${calls.join(', ')}`);
	});
});
