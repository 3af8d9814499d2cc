/**
 * The filing load and what it left behind: many webhook calls at once, each carrying rows to file;
 * the items the calls got back; the invoices the sandbox holds; the executions n8n recorded and
 * which worker ran each.
 */
import type { IDataObject } from 'n8n-workflow';

import { invoiceBody } from '../e2e/context';
import { sleep, type RestSession } from '../e2e/n8n';
import { executionsStartedBy, type Proc } from './stack';

/** `calls` bodies: the same `shared` rows in each, plus `own` rows only that call carries. */
export function filingLoad(tag: string, calls: number, shared: number, own: number): IDataObject[][] {
	const row = (policy: string, n: number) =>
		invoiceBody({ policy_number: policy, insured_name: `Queue Insured ${n}`, net_premium: 1000 + n });
	const sharedRows = Array.from({ length: shared }, (_, n) => row(`Q-${tag}-S${n + 1}`, n));
	return Array.from({ length: calls }, (_, c) => [
		...sharedRows,
		...Array.from({ length: own }, (_, n) => row(`Q-${tag}-C${c + 1}-${n + 1}`, 100 + n)),
	]);
}

export interface Fired {
	ms: number;
	/** Calls that did not answer 200 with one item per row. */
	badCalls: string[];
	items: IDataObject[];
	failedItems: IDataObject[];
	/** Failed items whose error is the rate limit. */
	rateLimitedItems: IDataObject[];
}

/** POSTs every body to the webhook at once; resolves when all have answered. */
export async function fire(url: string, bodies: IDataObject[][]): Promise<Fired> {
	const start = Date.now();
	const answers = await Promise.all(
		bodies.map(async (rows) => {
			try {
				const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rows }), signal: AbortSignal.timeout(180_000) });
				const text = await res.text();
				const items = (res.ok ? JSON.parse(text) : []) as IDataObject[];
				const ok = res.ok && Array.isArray(items) && items.length === rows.length;
				return { items: Array.isArray(items) ? items : [], problem: ok ? undefined : `${res.status}: ${text.slice(0, 300)}` };
			} catch (error) {
				return { items: [], problem: (error as Error).message };
			}
		}),
	);
	const items = answers.flatMap((a) => a.items);
	const failedItems = items.filter((i) => i.error !== undefined);
	return {
		ms: Date.now() - start,
		badCalls: answers.flatMap((a) => (a.problem ? [a.problem] : [])),
		items,
		failedItems,
		rateLimitedItems: failedItems.filter((i) => /\b429\b|rate.?limit/i.test(JSON.stringify(i))),
	};
}

/** How many invoices the sandbox holds per policy number, for one key's account (read through the API). */
export async function invoicesPerPolicy(baseUrl: string, key: string): Promise<Map<string, number>> {
	const counts = new Map<string, number>();
	for (let page = 1; ; page++) {
		const res = await fetch(`${baseUrl}/invoices?per_page=100&page=${page}`, { headers: { authorization: `Bearer ${key}` } });
		// After a load under a tight limit the window may be spent: wait for it like any client.
		if (res.status === 429) {
			const waitS = Number(res.headers.get('retry-after') ?? 1);
			if (waitS > 60) throw new Error(`GET /invoices: the key's window is spent for ${waitS} s (the load used it up)`);
			await sleep(waitS * 1000);
			page--;
			continue;
		}
		const body = (await res.json()) as { data: { invoices: IDataObject[] } };
		if (!res.ok) throw new Error(`GET /invoices: ${res.status} ${JSON.stringify(body)}`);
		const invoices = body.data.invoices;
		for (const invoice of invoices) {
			const policy = String(invoice.policy_number);
			counts.set(policy, (counts.get(policy) ?? 0) + 1);
		}
		if (invoices.length < 100) return counts;
	}
}

export interface Tally {
	distinct: number;
	stored: number;
	missing: string[];
	/** Policy numbers stored more than once. */
	twice: string[];
	/** Stored invoices beyond one per distinct row. */
	duplicates: number;
}

export function tally(bodies: IDataObject[][], counts: Map<string, number>): Tally {
	const expected = new Set(bodies.flat().map((r) => String(r.policy_number)));
	const stored = [...counts.values()].reduce((a, b) => a + b, 0);
	return {
		distinct: expected.size,
		stored,
		missing: [...expected].filter((p) => !counts.has(p)),
		twice: [...counts].filter(([, n]) => n > 1).map(([p]) => p),
		duplicates: stored - counts.size,
	};
}

interface ExecutionSummary {
	id: string;
	status?: string;
}

/** The workflow's executions n8n recorded (in Postgres), once none is still running. */
export async function settledExecutions(session: RestSession, workflowId: string, timeoutMs = 120_000): Promise<ExecutionSummary[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		// 100 is the most n8n 2.41 lists at once; the stage starts at most 60 executions per workflow.
		const res = await session.request<{ data: { results: ExecutionSummary[] } }>('GET', `/rest/executions?filter=${filter}&limit=100`);
		if (res.status !== 200) throw new Error(`GET /rest/executions: ${res.status} ${JSON.stringify(res.body)}`);
		const results = res.body.data.results;
		if (!results.some((e) => e.status === 'running' || e.status === 'new')) return results;
		if (Date.now() > deadline) throw new Error(`executions of ${workflowId} still running after ${timeoutMs} ms`);
		await sleep(500);
	}
}

/** For each worker, how many of these executions its log says it started. */
export function perWorker(workers: Proc[], ids: string[]): number[] {
	return workers.map((w) => {
		const started = executionsStartedBy(w);
		return ids.filter((id) => started.has(id)).length;
	});
}
