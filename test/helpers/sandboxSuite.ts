import { forgetRateLimits } from '../../nodes/shared/rateLimit';
import { shutdownEngine } from '../harness/engine';
import { startSandbox, type RunningSandbox } from '../sandbox';

/**
 * The usual hooks of a test file that runs nodes against the sandbox: one sandbox for the file,
 * back to its seeded state and a fresh rate-limit memory before each test, everything stopped at
 * the end. The returned handle is filled in before the first test runs.
 */
export function useSandboxSuite(): RunningSandbox {
	const handle = {} as RunningSandbox;
	beforeAll(async () => {
		Object.assign(handle, await startSandbox({ port: 0 }));
	});
	beforeEach(() => {
		handle.reset();
		forgetRateLimits();
	});
	afterAll(async () => {
		await handle.close();
		shutdownEngine();
	});
	return handle;
}
