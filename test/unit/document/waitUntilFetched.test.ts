import nock from 'nock';

import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, envelope } from '../../helpers/serviceReplies';
import { doc, run } from './helpers';

const fakeClock = useNockSuite();

describe('Wait Until Fetched', () => {
	it('checks at the set interval until fetched and says how long it waited', async () => {
		const scope = nock(TEST_API)
			.get('/invoices/1001/documents/dec-1')
			.reply(200, envelope(doc()))
			.get('/invoices/1001/documents/dec-1')
			.reply(200, envelope(doc({ fetch_status: 'fetching' })))
			.get('/invoices/1001/documents/dec-1')
			.reply(200, envelope(doc({ fetch_status: 'fetched', url: 'https://files.example.com/a', url_expires_in_seconds: 3600 })));
		const { output } = await run('waitUntilFetched', { referenceType: 'docUUID', document: 'dec-1', maxWaitSeconds: 300, intervalSeconds: 20 });
		expect(fakeClock().sleeps).toEqual([20000, 20000]);
		expect(output![0].json).toMatchObject({ fetch_status: 'fetched', wait: { outcome: 'fetched', checks: 3, waited_seconds: 40 } });
		scope.done();
	});

	it('returns a failed fetch at once (it will not change by itself)', async () => {
		nock(TEST_API).get('/invoices/1001/documents/5001').reply(200, envelope(doc({ fetch_status: 'failed' })));
		const { output } = await run('waitUntilFetched', { referenceType: 'id', document: '5001', maxWaitSeconds: 60, intervalSeconds: 5 });
		expect(output![0].json.wait).toEqual({ outcome: 'failed', checks: 1, waited_seconds: 0 });
		expect(fakeClock().sleeps).toEqual([]);
	});

	it('stops at the max wait: 4 checks in 30 s at 10 s, then fails naming the last status', async () => {
		nock(TEST_API).get('/invoices/1001/documents/5001').times(4).reply(200, envelope(doc(), 'req_last'));
		const { error } = await run('waitUntilFetched', { referenceType: 'id', document: '5001', maxWaitSeconds: 30, intervalSeconds: 10 });
		expect(fakeClock().sleeps).toEqual([10000, 10000, 10000]);
		expect(error!.message).toBe('document 5001 was still "pending" after 30 s (4 checks) (WAIT_TIMED_OUT)');
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('returns the document as last seen when asked to on timeout; the last sleep is cut to the bound', async () => {
		nock(TEST_API).get('/invoices/1001/documents/5001').times(3).reply(200, envelope(doc({ fetch_status: 'fetching' })));
		const { output } = await run('waitUntilFetched', {
			referenceType: 'id',
			document: '5001',
			maxWaitSeconds: 25,
			intervalSeconds: 15,
			onTimeout: 'return',
		});
		expect(fakeClock().sleeps).toEqual([15000, 10000]);
		expect(output![0].json.wait).toEqual({ outcome: 'timed_out', checks: 3, waited_seconds: 25 });
	});

	it('refuses bounds out of range before any call', async () => {
		const { error } = await run('waitUntilFetched', { referenceType: 'id', document: '5001', maxWaitSeconds: 4000, intervalSeconds: 0 });
		expect(error!.description).toContain('Max Wait (Seconds): from 0 to 3600 (got 4000)');
		expect(error!.description).toContain('Check Every (Seconds): from 1 to 3600 (got 0)');
	});
});
