/**
 * The two reference look-ups an account without carrier_lookup or lob_name needs before filing:
 * `GET /companies/search` once per distinct value and `GET /lobs` once, per node run. Every item
 * of the run awaits the same promise, so concurrent items and repeated values cost one call.
 * A failed call is kept too: the rows that need it fail alike instead of each calling again.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { LIST_KEYS, PATHS, readList } from '../shared/service';
import { apiRequest } from '../shared/transport';

export interface Company {
	id: number;
	name: string;
	naic: string;
}

interface LineOfBusiness {
	id: number;
	name: string;
}

interface RunLookups {
	companies: Map<string, Promise<Company[]>>;
	lobs?: Promise<LineOfBusiness[]>;
}

const runs = new WeakMap<object, RunLookups>();

function lookupsOf(ctx: IExecuteFunctions): RunLookups {
	let lookups = runs.get(ctx);
	if (!lookups) runs.set(ctx, (lookups = { companies: new Map() }));
	return lookups;
}

const text = (value: unknown) =>
	typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

function readCompany(row: IDataObject): Company | undefined {
	const id = Number(row.id);
	if (!Number.isInteger(id)) return undefined;
	return { id, name: text(row.name), naic: text(row.naic) };
}

/** `GET /companies/search?q=<query>`, at most once per query in this run. */
export async function searchCompanies(
	ctx: IExecuteFunctions,
	query: string,
	itemIndex: number,
): Promise<Company[]> {
	const { companies } = lookupsOf(ctx);
	let found = companies.get(query);
	if (!found) {
		found = apiRequest
			.call(ctx, { method: 'GET', path: PATHS.companiesSearch, qs: { q: query }, itemIndex })
			.then((reply) =>
				readList(reply.data, LIST_KEYS.companies)
					.map(readCompany)
					.filter((c): c is Company => c !== undefined),
			);
		companies.set(query, found);
	}
	return await found;
}

/** `GET /lobs`, at most once in this run. */
export async function linesOfBusiness(
	ctx: IExecuteFunctions,
	itemIndex: number,
): Promise<LineOfBusiness[]> {
	const lookups = lookupsOf(ctx);
	lookups.lobs ??= apiRequest
		.call(ctx, { method: 'GET', path: PATHS.lobs, itemIndex })
		.then((reply) =>
			readList(reply.data, LIST_KEYS.lobs).flatMap((row) => {
				const id = Number(row.id);
				return Number.isInteger(id) ? [{ id, name: text(row.name) }] : [];
			}),
		);
	return await lookups.lobs;
}
