import type { StateRates } from '../calculator/rates';

export interface StateRow {
	id: number;
	code: string;
	name: string;
	efile: boolean;
}

// 26 states with direct electronic filing ("25+" in the description); the rest are prepared
// for the state's own process, which preview reports as "not supported for filing".
const EFILE = new Set(
	'AL AZ CA CO FL ID IL KS LA MN MS MT NC NM NV NY OH OK OR PA SD TN TX UT WA WY'.split(' '),
);

/** Ids follow the rate file's order (alphabetical by name, DC after DE), from 1. */
export function buildStates(rates: readonly StateRates[]): StateRow[] {
	return rates.map((s, i) => ({ id: i + 1, code: s.code, name: s.name, efile: EFILE.has(s.code) }));
}

export interface Company {
	id: number;
	name: string;
	naic: string;
}

// Invented carriers: the sandbox must not suggest real NAIC numbers map to real companies.
export const COMPANIES: readonly Company[] = [
	{ id: 301, name: 'Sandbox Specialty Insurance Company', naic: '90001' },
	{ id: 302, name: 'Prairie Excess and Surplus Insurance Company', naic: '90002' },
	{ id: 303, name: 'Gulf Coast Surplus Lines Insurance Company', naic: '90003' },
	{ id: 304, name: 'Lone Star Specialty Underwriters', naic: '90004' },
	{ id: 305, name: 'Atlantic Excess Insurance Company', naic: '90005' },
	{ id: 306, name: 'Syndicate 9999 at Lloyd\'s', naic: 'AA-1129999' },
];

export interface Lob {
	id: number;
	name: string;
}

export const LOBS: readonly Lob[] = [
	{ id: 1, name: 'General Liability' },
	{ id: 2, name: 'Commercial Property' },
	{ id: 3, name: 'Professional Liability' },
	{ id: 4, name: 'Excess Liability' },
	{ id: 5, name: 'Inland Marine' },
	{ id: 6, name: 'Homeowners' },
];

interface CoverageDef {
	code: string;
	title: string;
	/** null = offered in every state */
	states: readonly string[] | null;
}

const COVERAGE_DEFS: readonly CoverageDef[] = [
	{ code: 'GL', title: 'General Liability', states: null },
	{ code: 'PROP', title: 'Commercial Property', states: null },
	{ code: 'PL', title: 'Professional Liability', states: null },
	{ code: 'XS', title: 'Excess Liability', states: null },
	{ code: 'IM', title: 'Inland Marine', states: null },
	{ code: 'WIND', title: 'Windstorm and Hail', states: ['AL', 'FL', 'LA', 'MS', 'NC', 'SC', 'TX'] },
	{ code: 'FLOOD', title: 'Flood', states: ['FL', 'LA', 'TX'] },
	{ code: 'EQ', title: 'Earthquake', states: ['CA', 'OR', 'UT', 'WA'] },
];

export const COVERAGES = COVERAGE_DEFS.map(({ code, title }) => ({ code, title }));

export function coverageFor(code: string, state: string): { code: string; title: string } | undefined {
	const def = COVERAGE_DEFS.find((c) => c.code === code.toUpperCase());
	if (!def || (def.states && !def.states.includes(state))) return undefined;
	return { code: def.code, title: def.title };
}

// The service offers no class-code list; these only decide when create returns the warning.
const CLASS_CODES_ALL = ['91111', '91342', '97047', '98482'];
const CLASS_CODES_BY_STATE: Readonly<Record<string, readonly string[]>> = {
	TX: ['10073', '44444'],
	CA: ['50010'],
	FL: ['60020'],
};

export function classCodeHeld(code: string, state: string): boolean {
	return CLASS_CODES_ALL.includes(code) || (CLASS_CODES_BY_STATE[state] ?? []).includes(code);
}

export interface DocumentType {
	code: string;
	name: string;
	sent_to_state: boolean;
}

export const DOCUMENT_TYPES: readonly DocumentType[] = [
	{ code: 'declaration_page', name: 'Declaration Page', sent_to_state: true },
	{ code: 'sl2_form', name: 'SL-2 Form', sent_to_state: true },
	{ code: 'declinations_form', name: 'Declinations Form', sent_to_state: true },
	{ code: 'lloyds_syndicates', name: "Lloyd's Syndicates", sent_to_state: true },
	{ code: 'policy_endorsement', name: 'Policy Endorsement', sent_to_state: true },
	{ code: 'ecp_form', name: 'ECP Form', sent_to_state: true },
	{ code: 'quote', name: 'Quote', sent_to_state: false },
	{ code: 'policy', name: 'Policy', sent_to_state: false },
	{ code: 'invoice', name: 'Invoice', sent_to_state: false },
	{ code: 'subjectivity', name: 'Subjectivity', sent_to_state: false },
	{ code: 'other', name: 'Other', sent_to_state: false },
];

export const INVOICE_TYPES = {
	NEW: { id: 1, name: 'New' },
	RENEWAL: { id: 2, name: 'Renewal' },
	ENDORSEMENT: { id: 3, name: 'Endorsement' },
	CANCELLATION: { id: 4, name: 'Cancelled' },
} as const;
export type TypeCode = keyof typeof INVOICE_TYPES;

export function searchCompanies(q: string): Company[] {
	const needle = q.trim().toLowerCase();
	return COMPANIES.filter((c) => c.name.toLowerCase().includes(needle) || c.naic.toLowerCase().includes(needle));
}
