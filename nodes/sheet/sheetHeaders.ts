/**
 * The sheet's own header for a field, read from every row of the run: Extract From File leaves an
 * empty cell out of its row's item, so a row missing its effective date has no "Eff Dt" key of its
 * own, yet the message names the sheet's "Eff Dt", not the package's usual "Effective Date".
 */
import type { IDataObject } from 'n8n-workflow';

import { readColumnName } from './columns';

/** Field id → the first header of the run's rows that reads as it (once per run: input.ts). */
export function readSheetHeaders(items: Array<{ json: IDataObject }>): Map<string, string> {
	const headers = new Map<string, string>();
	const seen = new Set<string>();
	for (const { json } of items) {
		for (const name of Object.keys(json ?? {})) {
			if (seen.has(name)) continue;
			seen.add(name);
			const id = readColumnName(name).match?.id;
			if (id && !headers.has(id)) headers.set(id, name);
		}
	}
	return headers;
}
