/**
 * The invoice request as flat columns, for the Invoice node's "Map Columns" body source: one
 * column per single field (ids are the service's field names), numbered columns for the
 * repeating parts a sheet cannot nest (insurer 1..N by company id, NAIC or name with percent or
 * amount; coverage 1..N), and one column per fee code. The sheet names brokers' bordereaux
 * commonly use ("Policy #", "Eff Date", "Premium", "Insured Name", "NAIC") are aliases, matched
 * ignoring case, spaces and punctuation, so a typical row maps with no expression at all.
 */
import type {
	FieldType,
	IDataObject,
	INodePropertyOptions,
	ResourceMapperField,
} from 'n8n-workflow';

import { checkColumnMeanings } from './columnMeaning';
import { headerKeys, headerWords, readHeaderWords } from './columnWords';
import {
	type Candidate,
	type SettledColumns,
	type ValueKind,
	READ_ONLY_COLUMNS,
	settleColumns,
} from './columnRules';
import {
	type ColumnAccount,
	type HeaderReading,
	accountColumns,
	leftOutKey,
} from './columnAccount';
import { BILLED_TAX_OF, FEE_CODES, INVOICE_FEE_CODES, STATE_CODES } from '../shared/rules';
import { FEE_TYPE_NAMES } from '../shared/service';
import { isBlankValue, readAmount, readStateCode } from '../shared/values';

interface SingleColumn {
	id: string;
	displayName: string;
	type: FieldType;
	required?: boolean;
	/** Where the value goes in the body when not at `id`. */
	path?: string[];
	/** Read for the tax check, never sent: the sheet's own totals. */
	checkOnly?: boolean;
	/** Sheet names for the column, best first (the id and display name always match). */
	aliases: string[];
}

const text = 'string' as const;
const amount = 'number' as const;
const date = 'dateTime' as const;
const options = 'options' as const;

/** Required first, then as often as bordereaux carry them. */
const SINGLE_COLUMNS: SingleColumn[] = [
	{
		id: 'policy_number',
		displayName: 'Policy Number',
		type: text,
		required: true,
		aliases: [
			'Policy #',
			'Policy No',
			'Policy No.',
			'Policy Num',
			'Pol No',
			'Pol #',
			'Policy',
			'Certificate Number',
			'Certificate #',
			'Cert #',
		],
	},
	{
		id: 'insured_name',
		displayName: 'Insured Name',
		type: text,
		required: true,
		aliases: [
			'Insured',
			'Named Insured',
			"Insured's Name",
			'Name of Insured',
			'Account Name',
			'Client Name',
		],
	},
	{
		id: 'state_code',
		displayName: 'State',
		type: options,
		required: true,
		aliases: [
			'State Code',
			'Risk State',
			'Home State',
			'Insured State',
			'Tax State',
			'Filing State',
			'ST',
			'Jurisdiction',
		],
	},
	{
		id: 'net_premium',
		displayName: 'Net Premium',
		type: amount,
		required: true,
		aliases: [
			'Premium',
			'Written Premium',
			'Policy Premium',
			'Total Premium',
			'Taxable Premium',
			'Premium Amount',
			'Gross Premium',
		],
	},
	{
		id: 'effective_date',
		displayName: 'Effective Date',
		type: date,
		required: true,
		aliases: [
			'Eff Date',
			'Eff. Date',
			'Eff Dt',
			'Effective',
			'Policy Effective Date',
			'Policy Eff Date',
			'Inception Date',
			'Inception',
			'Start Date',
		],
	},
	{
		id: 'expiration_date',
		displayName: 'Expiration Date',
		type: date,
		required: true,
		aliases: [
			'Exp Date',
			'Exp. Date',
			'Exp Dt',
			'Expiration',
			'Policy Expiration Date',
			'Policy Exp Date',
			'Expiry Date',
			'Expiry',
			'End Date',
		],
	},
	{
		id: 'type_code',
		displayName: 'Type',
		type: options,
		aliases: [
			'Transaction Type',
			'Trans Type',
			'Tran Type',
			'Txn Type',
			'Transaction',
			'Type Code',
		],
	},
	{
		id: 'transaction_effective_date',
		displayName: 'Transaction Effective Date',
		type: date,
		aliases: [
			'Transaction Eff Date',
			'Trans Eff Date',
			'Endorsement Effective Date',
			'Endorsement Date',
			'Change Date',
		],
	},
	{
		id: 'invoice_number',
		displayName: 'Invoice Number',
		type: text,
		aliases: ['Invoice #', 'Invoice No', 'Invoice'],
	},
	{ id: 'invoice_date', displayName: 'Invoice Date', type: date, aliases: ['Invoice Dt'] },
	{
		id: 'lob_id',
		displayName: 'Line of Business',
		type: options,
		aliases: ['LOB ID', 'Line of Business ID'],
	},
	{
		id: 'lob_name',
		displayName: 'Line of Business Name (If Not Listed)',
		type: text,
		aliases: ['LOB', 'LOB Name', 'Line of Business Name', 'Line'],
	},
	{
		id: 'class_code',
		displayName: 'Class Code',
		type: text,
		aliases: ['Class', 'Class Cd', 'ISO Class Code'],
	},
	{
		id: 'commission',
		displayName: 'Commission',
		type: amount,
		aliases: ['Commission Amount', 'Comm', 'Broker Commission'],
	},
	{
		id: 'policy_limit',
		displayName: 'Policy Limit',
		type: amount,
		aliases: ['Limit', 'Limits', 'Aggregate Limit'],
	},
	{
		id: 'address_line1',
		displayName: 'Insured Address Line 1',
		type: text,
		path: ['insured_address', 'line1'],
		aliases: [
			'Address',
			'Address 1',
			'Address Line 1',
			'Street',
			'Street Address',
			'Insured Address',
			'Mailing Address',
		],
	},
	{
		id: 'address_line2',
		displayName: 'Insured Address Line 2',
		type: text,
		path: ['insured_address', 'line2'],
		aliases: ['Address 2', 'Address Line 2', 'Suite'],
	},
	{
		id: 'address_city',
		displayName: 'Insured City',
		type: text,
		path: ['insured_address', 'city'],
		aliases: ['City'],
	},
	{
		id: 'address_zip',
		displayName: 'Insured ZIP',
		type: text,
		path: ['insured_address', 'zip'],
		aliases: ['ZIP', 'ZIP Code', 'Zipcode', 'Postal Code', 'Insured Zip Code'],
	},
	{
		id: 'address_type',
		displayName: 'Insured Address Type',
		type: options,
		path: ['insured_address', 'type_id'],
		aliases: ['Address Type'],
	},
	{
		id: 'sheet_total_taxes',
		displayName: 'Sheet Total Taxes and Fees (Checked, Not Sent)',
		type: amount,
		checkOnly: true,
		aliases: [
			'Total Taxes and Fees',
			'Total Taxes',
			'Total Tax',
			'Taxes and Fees',
			'Tax Total',
			'Tax Amount',
			'Taxes',
		],
	},
	{
		id: 'sheet_total_due',
		displayName: 'Sheet Total Due (Checked, Not Sent)',
		type: amount,
		checkOnly: true,
		aliases: [
			'Total Due',
			'Total Amount Due',
			'Amount Due',
			'Grand Total',
			'Total',
			'Invoice Total',
			'Total Payable',
		],
	},
];

/** The check-only columns' values, by column id: read for the tax check, never sent. */
export type SheetTotals = Partial<Record<'sheet_total_taxes' | 'sheet_total_due', unknown>>;

/** Numbered columns shown in the mapper; Map Automatically reads any number. */
const INSURERS_SHOWN = 3;
const COVERAGES_SHOWN = 3;
const MAX_NUMBERED = 20;

const INSURER_PARTS: Record<string, { label: string; type: FieldType; words: string[] }> = {
	company_id: { label: 'Company ID', type: text, words: ['id', 'companyid'] },
	naic: { label: 'NAIC', type: text, words: ['naic', 'naiccode', 'naicnumber', 'naicno'] },
	company_name: { label: 'Name', type: text, words: ['', 'name', 'companyname'] },
	percent: {
		label: 'Percent',
		type: amount,
		words: [
			'percent',
			'pct',
			'share',
			'sharepercent',
			'percentshare',
			'participation',
			'participationpercent',
		],
	},
	amount: {
		label: 'Amount',
		type: amount,
		words: ['amount', 'premium', 'shareamount', 'premiumamount'],
	},
};
const INSURER_WORDS = ['insurer', 'carrier', 'company', 'insurancecompany', 'market'];

const COVERAGE_PARTS: Record<string, { label: string; type: FieldType; words: string[] }> = {
	code: { label: 'Code', type: text, words: ['code'] },
	title: { label: 'Title', type: text, words: ['title', 'name', 'description'] },
	amount: { label: 'Amount', type: amount, words: ['amount', 'premium'] },
};

/** Sheet names for fee columns beyond the code and its words ("SL Tax" is sl_tax already). */
const FEE_ALIASES: Record<string, string[]> = {
	policy_fee_company: [
		'Policy Fee',
		'Company Fee',
		'Company Policy Fee',
		'Carrier Policy Fee',
		'Carrier Fee',
	],
	policy_fee_broker: ['Broker Policy Fee', 'Agency Fee', 'Agency Policy Fee', 'Agent Fee'],
	broker_fee: ['Brokerage Fee', 'Broker Fees'],
	inspection_fee: ['Inspection', 'Inspection Fees'],
	technology_fee: ['Tech Fee'],
	sl_tax: ['Surplus Lines Tax', 'Premium Tax', 'SL Premium Tax', 'Excess Lines Tax', 'SLT'],
	stamping_fee: ['Stamp Fee', 'Stamping Office Fee', 'SL Stamping Fee', 'Stamp', 'Stamping'],
	fire_marshal: ['Fire Marshal Tax', 'Fire Marshal Fee'],
	figa: ['FIGA Assessment', 'FIGA Fee'],
	slas_fee: ['SLA Fee'],
	municipal_tax: ['Municipal Premium Tax', 'Muni Tax'],
	clearinghouse_fee: ['Clearing House Fee'],
	fslso_service: ['FSLSO Service Fee', 'FSLSO Fee'],
};

/** A column name as compared: lower case, letters and digits only ("Policy #" → policynumber). */
export function columnKey(name: string): string {
	return name
		.toLowerCase()
		.replace(/#/g, 'number')
		.replace(/%/g, 'percent')
		.replace(/&/g, 'and')
		.replace(/[^a-z0-9]/g, '');
}

const feeColumnId = (code: string) => `fee_${code}`;
const insurerColumnId = (n: number, part: string) => `insurer_${n}_${part}`;
const coverageColumnId = (n: number, part: string) => `coverage_${n}_${part}`;

type Match = { id: string; rank: number; state?: string };

/** Every fixed name → its column; rank 0 for ids and display names, then aliases in order. */
const NAMES = new Map<string, Match>();
/** The same names by their words, abbreviations read ("Gross Prem" → grosspremium). */
const NAMES_BY_WORDS = new Map<string, Match>();
function keep(names: Map<string, Match>, key: string, match: Match) {
	const known = names.get(key);
	if (!known || known.rank > match.rank) names.set(key, match);
}
function addName(name: string, match: Match) {
	keep(NAMES, columnKey(name), match);
	keep(NAMES_BY_WORDS, headerWords(name).join(''), match);
}
for (const column of SINGLE_COLUMNS) {
	addName(column.id, { id: column.id, rank: 0 });
	addName(column.displayName, { id: column.id, rank: 0 });
	column.aliases.forEach((alias, n) => addName(alias, { id: column.id, rank: n + 1 }));
}
for (const code of INVOICE_FEE_CODES) {
	addName(code, { id: feeColumnId(code), rank: 0 });
	addName(feeColumnId(code), { id: feeColumnId(code), rank: 0 });
	(FEE_ALIASES[code] ?? []).forEach((alias, n) =>
		addName(alias, { id: feeColumnId(code), rank: n + 1 }),
	);
}
// The names the dropdowns show ("State Surcharge"), after the aliases: where two codes share a
// name ("Filing Fee"), the alias or the first code keeps it.
for (const code of INVOICE_FEE_CODES) {
	if (FEE_TYPE_NAMES[code]) addName(FEE_TYPE_NAMES[code], { id: feeColumnId(code), rank: 50 });
}

function numbered(
	key: string,
	prefixes: string[],
	parts: Record<string, { words: string[] }>,
	id: (n: number, part: string) => string,
): Match | undefined {
	for (const prefix of prefixes) {
		const match = new RegExp(`^${prefix}(\\d*)(.*)$`).exec(key);
		if (!match) continue;
		const n = match[1] ? Number(match[1]) : 1;
		if (n < 1 || n > MAX_NUMBERED) return undefined;
		const part = Object.keys(parts).find((p) => parts[p].words.includes(match[2]));
		// "Insurer 1 NAIC" outranks a bare "NAIC" for the same insurer.
		if (part) return { id: id(n, part), rank: match[1] ? 0 : 1 };
	}
	return undefined;
}

/** A key (squashed name) by the fixed names and the numbered patterns. */
function columnForKey(key: string, names: Map<string, Match>): Match | undefined {
	const fixed = names.get(key);
	if (fixed) return fixed;
	const naic = /^naic(?:code|number|no)?(\d*)$/.exec(key);
	if (naic) {
		const n = naic[1] ? Number(naic[1]) : 1;
		return n >= 1 && n <= MAX_NUMBERED
			? { id: insurerColumnId(n, 'naic'), rank: naic[1] ? 0 : 2 }
			: undefined;
	}
	return (
		numbered(key, INSURER_WORDS, INSURER_PARTS, insurerColumnId) ??
		numbered(key, ['coverage'], COVERAGE_PARTS, coverageColumnId)
	);
}

// Below every fixed name: a name read through its words ranks after the names written out, and
// a header matched by the word rules after both, so the plainer column wins where two give a field.
const BY_WORDS_RANK = 60;
const BY_RULES_RANK = 80;

interface ColumnReading {
	match?: Match;
	/** Fields the header's words fit when they fit more than one: nothing is read from it. */
	ambiguous?: string[];
}

// Every row of a sheet has the same headers: each is read once (the map is bounded).
const READ_NAMES = new Map<string, ColumnReading>();
const REMEMBERED_NAMES = 1000;

/** What a sheet's column name feeds: one column, none, or a header that could mean several. */
export function readColumnName(name: string): ColumnReading {
	let reading = READ_NAMES.get(name);
	if (!reading) {
		if (READ_NAMES.size >= REMEMBERED_NAMES) READ_NAMES.clear();
		reading = readNameOnce(name);
		READ_NAMES.set(name, reading);
	}
	return reading;
}

// A state in a billed tax's or fee's header, as brokers' systems write it: its code or name
// before ("TX Stamping Fee", "Texas SL Tax", "New York Stamping Fee") or after, in parentheses
// or after a dash ("Stamping Fee (TX)", "SL Tax - Florida"). Only before a billed tax: "Co Policy
// Fee" is a company's fee, not Colorado's.
const STATE_AFTER = /^(.+?)\s*(?:\(\s*([A-Za-z .]+?)\s*\)|[-–:]\s*([A-Za-z .]+?))\s*$/;
const TAX_COLUMNS = new Set(FEE_CODES.tax.map(feeColumnId));
/** Words a state's name can have ("District of Columbia"). */
const MOST_STATE_WORDS = 3;

/** A state's code from its code or name as a header writes it, or undefined. */
function stateInHeader(text: string): string | undefined {
	const words = text.trim();
	if (/^[A-Za-z]{2}$/.test(words)) {
		const code = words.toUpperCase();
		return (STATE_CODES as readonly string[]).includes(code) ? code : undefined;
	}
	const read = readStateCode(words);
	return read.ok && words.length > 2 ? read.value : undefined;
}

/** The rest of the header read as a billed tax's column, with the state's code. */
function taxOfState(rest: string, state: string | undefined): ColumnReading | undefined {
	if (!state) return undefined;
	const match = readNameOnce(rest).match;
	return match && TAX_COLUMNS.has(match.id) ? { match: { ...match, state } } : undefined;
}

function readStatePrefix(name: string): ColumnReading | undefined {
	const after = STATE_AFTER.exec(name);
	if (after) {
		const found = taxOfState(after[1], stateInHeader(after[2] ?? after[3]));
		if (found) return found;
	}
	const words = name.trim().split(/[\s_:-]+/);
	for (let n = 1; n <= MOST_STATE_WORDS && n < words.length; n++) {
		const found = taxOfState(words.slice(n).join(' '), stateInHeader(words.slice(0, n).join(' ')));
		if (found) return found;
	}
	return undefined;
}

function readNameOnce(name: string): ColumnReading {
	const scoped = readStatePrefix(name);
	if (scoped) return scoped;
	const literal = columnForKey(columnKey(name), NAMES);
	if (literal) return { match: literal };
	for (const key of headerKeys(name)) {
		const match = columnForKey(key, NAMES_BY_WORDS);
		if (match) return { match: { id: match.id, rank: match.rank + BY_WORDS_RANK } };
	}
	const { ids } = readHeaderWords(name);
	const number = (id: string) => Number(/^insurer_(\d+)_/.exec(id)?.[1] ?? 1);
	const known = ids.filter((id) => number(id) >= 1 && number(id) <= MAX_NUMBERED);
	if (known.length === 1) return { match: { id: known[0], rank: BY_RULES_RANK } };
	return known.length > 1 ? { ambiguous: known } : {};
}

/**
 * The premium or fee column a value names, as a header would ("Policy Fee", "Pol Fee"), if any: a
 * charge. Only by the names and their words, not the looser word rules, so a note such as
 * "Premium adjusted" is not a charge.
 */
export function chargeNamed(value: unknown): string | undefined {
	if (typeof value !== 'string' || !value.trim()) return undefined;
	const match = columnForName(value);
	if (!match || match.rank >= BY_RULES_RANK) return undefined;
	return match.id === 'net_premium' || match.id.startsWith('fee_') ? match.id : undefined;
}

/** The column a sheet's column name feeds, if any. */
export function columnForName(name: string): Match | undefined {
	return readColumnName(name).match;
}

/** The name the mapper shows for a column id. */
function displayNameOf(id: string): string {
	const single = SINGLE_COLUMNS.find((c) => c.id === id);
	if (single) return single.displayName;
	const insurer = /^insurer_(\d+)_(\w+)$/.exec(id);
	return insurer ? `Insurer ${insurer[1]} ${INSURER_PARTS[insurer[2]]?.label ?? insurer[2]}` : id;
}

/** A required column's names a sheet may use, for the message when no column of a row matched. */
export function requiredColumnNames(): Record<string, string[]> {
	return Object.fromEntries(
		SINGLE_COLUMNS.filter((c) => c.required).map((c) => [
			c.id,
			[c.displayName, ...c.aliases.slice(0, 2)],
		]),
	);
}

interface MatchedColumns extends SettledColumns {
	/** What became of every column of the row, in the row's order. */
	accounts: ColumnAccount[];
}

const SINGLE_TYPES = new Map(SINGLE_COLUMNS.map((c) => [c.id, c.type]));

/** How two columns' values for a field are compared. */
function kindOf(id: string): ValueKind {
	if (id === 'state_code') return 'state';
	if (id === 'type_code') return 'type';
	if (id === 'cancellation_date' || id === 'booking_date') return 'date';
	const type = SINGLE_TYPES.get(id);
	if (type === date) return 'date';
	if (type === amount || id.startsWith('fee_') || /_(amount|percent)$/.test(id)) return 'amount';
	return 'text';
}

/**
 * "Map Automatically": the item's own columns matched to invoice columns by name. Where two
 * columns give one field with values that agree, the better name is kept; values that differ are
 * refused naming both, unless a domain rule of `columnRules.ts` decides (and the item says so).
 */
export function matchItemColumns(
	item: IDataObject,
	leftOut: ReadonlySet<string> = new Set(),
	chargeColumns: ReadonlySet<string> = new Set(),
): MatchedColumns {
	const candidates = new Map<string, Candidate[]>();
	const unclear: Array<{ name: string; ids: string[] }> = [];
	const readings = new Map<string, HeaderReading>();
	for (const [name, value] of Object.entries(item)) {
		// A column named in Columns Not to File is not read at all.
		if (leftOut.has(leftOutKey(name))) continue;
		const { match, ambiguous } = readColumnName(name);
		readings.set(name, { id: match?.id, ambiguous });
		if (ambiguous && !isBlankValue(value)) unclear.push({ name, ids: ambiguous });
		if (!match) continue;
		const list = candidates.get(match.id) ?? [];
		list.push({ name, rank: match.rank, value, state: match.state });
		candidates.set(match.id, list);
	}
	const settled = settleColumns(candidates, kindOf);
	const { values, problems } = settled;
	// A header that could mean two fields is read as neither: said when one of them has no
	// other column, so the value is not silently dropped.
	for (const { name, ids } of unclear) {
		if (ids.every((id) => !isBlankValue(values[id]))) continue;
		problems.push(
			`column "${name}" could be ${ids.join(' or ')}; rename the column (for example "${ids.map(displayNameOf).join('" or "')}") or map the columns by hand (Map Each Column Manually)`,
		);
	}
	checkColumnMeanings(settled);
	// A value that names a charge, or any value of a column the sheet shows to be one of charges.
	const chargeOf = (name: string, value: unknown) => {
		const charge = chargeNamed(value);
		return charge || chargeColumns.has(name) ? { charge } : undefined;
	};
	const accounts = accountColumns(item, readings, settled, leftOut, chargeOf);
	for (const id of READ_ONLY_COLUMNS) delete values[id];
	return { ...settled, accounts };
}

interface ColumnsBody {
	body: IDataObject;
	/** The sheet's own totals (check-only columns), for the tax check. */
	totals: SheetTotals;
	/** Body field path → the column it came from, for messages ("fees[0].amount" → "Policy Fee"). */
	sources: Record<string, string>;
}

const byNumber = (a: [number, unknown], b: [number, unknown]) => a[0] - b[0];

/**
 * Column values (by column id) → the request body. Empty cells are left out; a fee column that
 * is empty or 0 sends no fee line (a tax column's 0 is kept); numbered parts keep their order
 * and close gaps.
 */
export function columnsToBody(values: IDataObject, names: Record<string, string>): ColumnsBody {
	const body: IDataObject = {};
	const totals: SheetTotals = {};
	const sources: Record<string, string> = {};
	const insurers = new Map<number, IDataObject>();
	const coverages = new Map<number, IDataObject>();
	const fees: Array<{ code: string; id: string; amount: unknown }> = [];
	const single = new Map(SINGLE_COLUMNS.map((c) => [c.id, c]));
	const source = (path: string, id: string) => {
		if (names[id]) sources[path] = names[id];
	};

	for (const [id, value] of Object.entries(values)) {
		if (isBlankValue(value)) continue;
		const column = single.get(id);
		const part = /^(insurer|coverage)_(\d+)_(\w+)$/.exec(id);
		if (column?.checkOnly) {
			totals[column.id as keyof SheetTotals] = value;
			source(id, id); // the tax check names the total's column
		} else if (column) {
			const [head, leaf] = column.path ?? [id];
			if (leaf) body[head] = { ...(body[head] as IDataObject | undefined), [leaf]: value };
			else body[head] = value;
			source(leaf ? `${head}.${leaf}` : head, id);
		} else if (part) {
			const group = part[1] === 'insurer' ? insurers : coverages;
			const n = Number(part[2]);
			group.set(n, { ...group.get(n), [part[3]]: value });
		} else if (id.startsWith('fee_')) {
			const read = readAmount(value);
			const code = id.slice('fee_'.length);
			// A 0 fee sends no line; a 0 tax is kept, so Bill Taxes From Preview cannot replace it.
			if (read.ok && read.value === 0 && !BILLED_TAX_OF.has(code)) continue;
			fees.push({ code: id.slice('fee_'.length), id, amount: value });
		} else {
			body[id] = value;
			source(id, id);
		}
	}

	const numberedList = (
		key: 'insurers' | 'coverages',
		group: Map<number, IDataObject>,
		label: string,
	) => {
		const list = [...group.entries()].sort(byNumber);
		if (!list.length) return;
		body[key] = list.map(([n, entry], index) => {
			sources[`${key}[${index}]`] = `${label} ${n}`;
			for (const field of Object.keys(entry)) {
				const id = `${key === 'insurers' ? 'insurer' : 'coverage'}_${n}_${field}`;
				source(`${key}[${index}].${field}`, id);
			}
			return entry;
		});
	};
	numberedList('insurers', insurers, 'Insurer');
	numberedList('coverages', coverages, 'Coverage');
	if (fees.length) {
		body.fees = fees.map((fee, index) => {
			source(`fees[${index}]`, fee.id);
			return { type: fee.code, amount: fee.amount as number };
		});
	}
	return { body, sources, totals };
}

/** Lists from the service for the mapper's dropdowns. */
interface ColumnLists {
	states: INodePropertyOptions[];
	linesOfBusiness: INodePropertyOptions[];
	/** Invoice fee types: name to show, value the code. */
	feeTypes: INodePropertyOptions[];
}

const TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'New', value: 'NEW' },
	{ name: 'Renewal', value: 'RENEWAL' },
	{ name: 'Endorsement', value: 'ENDORSEMENT' },
	{ name: 'Cancellation', value: 'CANCELLATION' },
];
const ADDRESS_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Garaging', value: 2 },
	{ name: 'Billing', value: 1 },
];

function field(
	id: string,
	displayName: string,
	type: FieldType,
	extra: Partial<ResourceMapperField> = {},
): ResourceMapperField {
	return {
		id,
		displayName,
		type,
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		...extra,
	};
}

/** The mapper's columns: required first, dropdowns from the service, one column per fee type. */
export function mapperFields(lists: ColumnLists): ResourceMapperField[] {
	const dropdowns: Record<string, INodePropertyOptions[]> = {
		state_code: lists.states,
		type_code: TYPE_OPTIONS,
		lob_id: lists.linesOfBusiness,
		address_type: ADDRESS_TYPE_OPTIONS,
	};
	const fields = SINGLE_COLUMNS.map((c) =>
		field(c.id, c.displayName, c.type, {
			required: c.required === true,
			...(dropdowns[c.id] ? { options: dropdowns[c.id] } : {}),
		}),
	);
	for (let n = 1; n <= INSURERS_SHOWN; n++) {
		for (const [part, spec] of Object.entries(INSURER_PARTS)) {
			fields.push(field(insurerColumnId(n, part), `Insurer ${n} ${spec.label}`, spec.type));
		}
	}
	for (let n = 1; n <= COVERAGES_SHOWN; n++) {
		for (const [part, spec] of Object.entries(COVERAGE_PARTS)) {
			fields.push(field(coverageColumnId(n, part), `Coverage ${n} ${spec.label}`, spec.type));
		}
	}
	for (const fee of lists.feeTypes) {
		fields.push(field(feeColumnId(String(fee.value)), `Fee: ${fee.name}`, amount));
	}
	return fields;
}
