import { forgetRateLimits } from '../../nodes/shared/rateLimit';
import type { IDataObject } from 'n8n-workflow';

import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { runNode, shutdownEngine } from '../harness/engine';
import { keyByName, startSandbox, type RunningSandbox } from '../sandbox';

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

/** Runs the Invoice node with one of the sandbox's keys (by name), continuing on failed items. */
export function runInvoiceOn(
	sandbox: RunningSandbox,
	keyName: string,
	parameters: IDataObject,
	items: IDataObject[] = [{}],
	typeVersion = 1,
) {
	return runNode({
		node: new SurplusLinesInvoice(),
		parameters: { resource: 'invoice', ...parameters },
		items,
		credentials: { apiKey: keyByName(keyName).key, baseUrl: sandbox.baseUrl },
		continueOnFail: true,
		settings: { typeVersion },
	});
}

/** An invoice as the sandbox holds it (`GET /invoices/{id}`), read with one of its keys. */
export async function storedInvoice(sandbox: RunningSandbox, keyName: string, id: unknown): Promise<IDataObject> {
	const res = await fetch(`${sandbox.baseUrl}/invoices/${String(id)}`, {
		headers: { authorization: `Bearer ${keyByName(keyName).key}` },
	});
	return ((await res.json()) as { data: IDataObject }).data;
}

/**
 * Each kind of account (keyed and legacy, t2 and t3) with each filing operation, and what a row
 * filed before comes back as when the sheet runs again: found on its policy by the look first, on
 * every account (a key replays for 24 hours only).
 */
export const RERUN_CASES = (
	[
		{ key: 'legacy-t2', again: 'already_filed' },
		{ key: 'legacy-t3', again: 'already_filed' },
		{ key: 't2', again: 'already_filed' },
		{ key: 't3', again: 'already_filed' },
	] as const
).flatMap((kind) => (['create', 'createMany'] as const).map((operation) => ({ ...kind, operation })));

/** The same pairs as [account, operation], for tests that only file: the pairs a sheet's rules must hold on. */
export const EVERY_ACCOUNT_AND_OPERATION = RERUN_CASES.map(({ key, operation }) => [key, operation] as [string, string]);
