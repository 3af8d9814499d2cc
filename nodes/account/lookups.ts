/**
 * The two reference look-ups an account without carrier_lookup or lob_name needs before filing:
 * `GET /companies/search` once per distinct value and `GET /lobs` once, per node run. Every item
 * of the run awaits the same promise, so concurrent items and repeated values cost one call.
 * A failed call is kept too: the rows that need it fail alike instead of each calling again.
 * Kept in the run (`run.learned.lookups`), asked through its service.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Run } from '../shared/run';
import { LIST_KEYS, readList } from '../shared/service';

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

declare module '../shared/run' {
	interface RunLearned {
		/** The account's reference look-ups of this run (each asked once). */
		lookups?: RunLookups;
	}
}

type Lookups = Pick<Run, 'service' | 'learned'>;

const lookupsOf = (run: Lookups): RunLookups => (run.learned.lookups ??= { companies: new Map() });

const text = (value: unknown) =>
	typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

function readCompany(row: IDataObject): Company | undefined {
	const id = Number(row.id);
	if (!Number.isInteger(id)) return undefined;
	return { id, name: text(row.name), naic: text(row.naic) };
}

/** `GET /companies/search?q=<query>`, at most once per query in this run. */
export async function searchCompanies(
	run: Lookups,
	query: string,
	itemIndex: number,
): Promise<Company[]> {
	const { companies } = lookupsOf(run);
	let found = companies.get(query);
	if (!found) {
		found = run.service.searchCompanies(query, itemIndex).then((reply) =>
			readList(reply.data, LIST_KEYS.companies)
				.map(readCompany)
				.filter((c): c is Company => c !== undefined),
		);
		companies.set(query, found);
	}
	return await found;
}

/** `GET /lobs`, at most once in this run. */
export async function linesOfBusiness(run: Lookups, itemIndex: number): Promise<LineOfBusiness[]> {
	const lookups = lookupsOf(run);
	lookups.lobs ??= run.service.lobs(itemIndex).then((reply) =>
		readList(reply.data, LIST_KEYS.lobs).flatMap((row) => {
			const id = Number(row.id);
			return Number.isInteger(id) ? [{ id, name: text(row.name) }] : [];
		}),
	);
	return await lookups.lobs;
}
