/**
 * A `GET /invoices` that never ends: every page reports another one after it. `repeat` serves the
 * same 100 invoices on every page (a server stuck on a page); `fresh` serves 100 new ids a page
 * with a total of a billion; `growing` serves 100 new ids a page with a total that is always one
 * page more than was read. Records the pages asked for.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

export type EndlessMode = 'repeat' | 'fresh' | 'growing';

export function endlessListing(
	api: string,
	mode: EndlessMode,
	make: (id: number) => IDataObject = (id) => ({ id, policy_number: 'POL-100', status: 'new' }),
	headers: Record<string, string> = {},
) {
	const pages: number[] = [];
	nock(api)
		.persist()
		.get('/invoices')
		.query(true)
		.reply(
			200,
			(uri) => {
				const page = Number(new URL(uri, 'http://x').searchParams.get('page'));
				pages.push(page);
				const start = mode === 'repeat' ? 0 : (page - 1) * 100;
				const invoices = Array.from({ length: 100 }, (_, i) => make(start + i + 1));
				const total = mode === 'growing' ? (page + 1) * 100 : 1_000_000_000;
				return {
					success: true,
					data: { invoices, pagination: { page, per_page: 100, total } },
					meta: { timestamp: '2026-11-22T12:00:00Z', request_id: `req_p${page}`, response_time_ms: 3 },
				};
			},
			headers,
		);
	return { pages };
}
