import keysJson from './keys.json';

export type Tier = 't1' | 't2' | 't3';

export interface SandboxKey {
	name: string;
	key: string;
	tier: Tier;
	account: string;
	mode: 'test' | 'live';
	new_features: boolean;
	calculator: boolean;
	revoked: boolean;
	/** Sandbox extra: the account has the calculator switched off (403 names the account). Default true. */
	account_calculator_enabled?: boolean;
	/** Sandbox extra: the account keeps rejected invoices (422 carries details.invoice_id). Default false. */
	account_keeps_rejected?: boolean;
}

export const KEYS: readonly SandboxKey[] = keysJson as SandboxKey[];

export const KEY_PATTERN = /^sltax_(t1|t2|t3)_[a-z0-9]{32}$/;

/** The seeded key with this name; throws so a typo in a test fails loudly. */
export function keyByName(name: string): SandboxKey {
	const found = KEYS.find((k) => k.name === name);
	if (!found) throw new Error(`No sandbox key named '${name}'. Known: ${KEYS.map((k) => k.name).join(', ')}`);
	return found;
}

export const FEATURES = [
	'idempotency',
	'carrier_lookup',
	'lob_name',
	'transaction_effective_date',
	'filing',
	'coverage_warnings',
] as const;
export type Feature = (typeof FEATURES)[number];

export interface Account {
	id: string;
	mode: 'test' | 'live';
	features: readonly Feature[];
	calculatorEnabled: boolean;
	keepsRejected: boolean;
}

export function accountOf(key: SandboxKey): Account {
	return {
		id: key.account,
		mode: key.mode,
		features: key.new_features ? FEATURES : [],
		calculatorEnabled: key.account_calculator_enabled !== false,
		keepsRejected: key.account_keeps_rejected === true,
	};
}

export function hasFeature(account: Account, feature: Feature): boolean {
	return account.features.includes(feature);
}

const TIER_RANK: Record<Tier, number> = { t1: 1, t2: 2, t3: 3 };
export function tierAtLeast(tier: Tier, needed: Tier): boolean {
	return TIER_RANK[tier] >= TIER_RANK[needed];
}
