import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { findRepoRoot } from '../repoRoot';

export type LineCode =
	| 'sl_tax'
	| 'stamping_fee'
	| 'fire_marshal'
	| 'figa'
	| 'service_fee'
	| 'surcharge'
	| 'regulatory_fee'
	| 'slas_fee'
	| 'municipal_tax'
	| 'flat_fee';

export interface RateItem {
	code: LineCode;
	name: string;
	/** Percent for percentage items (4.85 = 4.85%), USD per policy for flat ones; null = depends on locality. */
	rate: number | null;
	rate_type: 'percentage' | 'flat';
	effective_from: string | null;
}

export interface StateRates {
	code: string;
	name: string;
	items: RateItem[];
	tax_base: { policy_fees: boolean; inspection_fees: boolean; broker_fees: boolean };
	rounding_rule: 'standard' | 'whole_dollar' | 'no_rounding';
	notes: string;
}

/**
 * The rate data is part of the repository (test/sandbox/data, sources in sl-rates-SOURCES.md
 * beside it) so a bare clone runs the sandbox. It is not shipped in the package: only the
 * sandbox reads it. SANDBOX_RATES_FILE points at another file for experiments.
 */
export function ratesPath(): string {
	return process.env.SANDBOX_RATES_FILE ?? resolve(findRepoRoot(), 'test', 'sandbox', 'data', 'sl-rates.json');
}

export function loadRates(path: string = ratesPath()): StateRates[] {
	if (!existsSync(path)) {
		throw new Error(
			`sandbox: rate data not found at ${path}. The sandbox reads test/sandbox/data/sl-rates.json ` +
				`in the repository (${findRepoRoot()}); restore it from git or set SANDBOX_RATES_FILE.`,
		);
	}
	const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
	if (!Array.isArray(parsed) || parsed.length === 0) {
		throw new Error(`sandbox: rate data at ${path} is not a non-empty array of states`);
	}
	return parsed as StateRates[];
}

/**
 * The item of each code in force on `date`: latest effective_from on or before it; null dates
 * count as "before any dated change". Items dated after `date` are not yet in force.
 */
export function ratesInForce(state: StateRates, date: string): RateItem[] {
	const chosen = new Map<LineCode, RateItem>();
	for (const item of state.items) {
		if (item.effective_from !== null && item.effective_from > date) continue;
		const current = chosen.get(item.code);
		if (!current || (current.effective_from ?? '') <= (item.effective_from ?? '')) chosen.set(item.code, item);
	}
	// Keep the data file's order of first appearance so line items read the same on every date.
	const order = [...new Set(state.items.map((i) => i.code))];
	return order.flatMap((code) => {
		const item = chosen.get(code);
		return item ? [item] : [];
	});
}
