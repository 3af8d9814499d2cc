import nock from 'nock';

import { forgetRateLimits } from '../../nodes/shared/rateLimit';
import { shutdownEngine } from '../harness/engine';
import { useFakeClock } from './fakeClock';

/**
 * The usual hooks of a nock test file that runs nodes in the engine: no real network, a fresh fake
 * clock and rate-limit memory per test, engine shut down at the end. Returns the current fake clock.
 */
export function useNockSuite(): () => ReturnType<typeof useFakeClock> {
	let fake: ReturnType<typeof useFakeClock>;
	beforeAll(() => nock.disableNetConnect());
	beforeEach(() => {
		fake = useFakeClock();
		forgetRateLimits();
	});
	afterEach(() => {
		fake.restore();
		nock.cleanAll();
	});
	afterAll(() => {
		nock.enableNetConnect();
		shutdownEngine();
	});
	return () => fake;
}
