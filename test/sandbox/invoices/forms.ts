/**
 * The forms switch: the sandbox shows every value exactly as sent, a real service keeps values in
 * its own forms. With the switch on, stored invoices are SHOWN (get, list) in another form, so
 * whatever compares what was sent with what the service shows is tested against those forms.
 * Nothing stored changes: switching off shows the invoices as sent again.
 */
import { FieldErrorBag, validationError } from '../envelope';

type Shown = Record<string, unknown>;
type Lines = Array<Record<string, unknown>>;

/** Half-even to cents from the number's decimal text (1000.125 → 1000.12, 1000.135 → 1000.14). */
export function halfEvenCents(value: number): number {
	const [whole, fraction = ''] = Math.abs(value).toFixed(10).split('.');
	const cents = BigInt(whole + fraction.slice(0, 2));
	const rest = fraction.slice(2).replace(/0+$/, '');
	const half = rest === '5';
	const up = rest !== '' && (rest[0] > '5' || (rest[0] === '5' && !half) || (half && cents % 2n === 1n));
	const rounded = Number(up ? cents + 1n : cents) / 100;
	return value < 0 ? -rounded : rounded;
}

/** The day's UTC midnight shown in US Central with its offset: 2026-03-01 → 2026-02-28T18:00:00-06:00. */
function centralInstant(date: string): string {
	const at = new Date(`${date}T00:00:00Z`);
	const fmt = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', timeZoneName: 'shortOffset', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
	const p: Record<string, string> = {};
	for (const part of fmt.formatToParts(at)) p[part.type] = part.value;
	const hours = Number(/GMT([+-]\d+)/.exec(p.timeZoneName)?.[1] ?? 0);
	const offset = `${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:00`;
	return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${offset}`;
}

const DATE_FIELDS = ['effective_date', 'expiration_date', 'invoice_date', 'transaction_effective_date'];
const isDay = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
const str = (v: unknown, change: (s: string) => string) => (typeof v === 'string' ? change(v) : v);
const num = (v: unknown, change: (n: number) => number) => (typeof v === 'number' ? change(v) : v);
const lines = (v: unknown): Lines => (Array.isArray(v) ? (v as Lines) : []);

/** Each form: how it rewrites a shown invoice (a copy; the stored invoice is untouched). */
export const FORMS = {
	name_upper: (s: Shown) => ({ ...s, insured_name: str(s.insured_name, (n) => n.toUpperCase()) }),
	name_spaces: (s: Shown) => ({ ...s, insured_name: str(s.insured_name, (n) => n.replace(/\s+/g, ' ')) }),
	name_period: (s: Shown) => ({ ...s, insured_name: str(s.insured_name, (n) => n.replace(/\.+$/, '')) }),
	number_upper: (s: Shown) => ({ ...s, invoice_number: str(s.invoice_number, (n) => n.toUpperCase()) }),
	number_zeros: (s: Shown) => ({ ...s, invoice_number: str(s.invoice_number, (n) => n.replace(/(^|\D)0+(?=\d)/g, '$1')) }),
	percent_fraction: (s: Shown) => ({ ...s, insurers: lines(s.insurers).map((i) => ({ ...i, percent: num(i.percent, (p) => p / 100) })) }),
	commission_zero: (s: Shown) => ({ ...s, commission: s.commission ?? 0 }),
	amount_cents: (s: Shown) => ({
		...s,
		net_premium: num(s.net_premium, halfEvenCents),
		commission: num(s.commission, halfEvenCents),
		fees: lines(s.fees).map((f) => ({ ...f, amount: num(f.amount, halfEvenCents) })),
		insurers: lines(s.insurers).map((i) => ({ ...i, amount: num(i.amount, halfEvenCents) })),
	}),
	dates_central: (s: Shown) => {
		const out = { ...s };
		for (const field of DATE_FIELDS) if (isDay(out[field])) out[field] = centralInstant(out[field] as string);
		return out;
	},
	dates_us: (s: Shown) => {
		const out = { ...s };
		for (const field of DATE_FIELDS) if (isDay(out[field])) out[field] = (out[field] as string).replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$2/$3/$1');
		return out;
	},
	fees_merged: (s: Shown) => {
		const merged = new Map<string, number>();
		for (const f of lines(s.fees)) merged.set(String(f.type), Math.round(((merged.get(String(f.type)) ?? 0) + Number(f.amount)) * 1e6) / 1e6);
		return { ...s, fees: [...merged].map(([type, amount]) => ({ type, amount })) };
	},
	tax_line_added: (s: Shown) => ({
		...s,
		fees: [...lines(s.fees), { type: 'surcharge', amount: halfEvenCents(Number(s.net_premium ?? 0) * 0.001) }],
	}),
	lob_id_only: (s: Shown) => ({ ...s, lob: s.lob && typeof s.lob === 'object' ? { id: (s.lob as Shown).id, name: null } : s.lob }),
	/** "&" shown as AND (in capitals, as a register keeping names in capitals would). */
	name_and: (s: Shown) => ({ ...s, insured_name: str(s.insured_name, (n) => n.replace(/\s*&\s*/g, ' AND ')) }),
	/** Punctuation and accents dropped: "Café O'Brien, L.L.C." → "Cafe OBrien LLC". */
	name_plain: (s: Shown) => ({
		...s,
		insured_name: str(s.insured_name, (n) => n.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\p{L}\p{N}\s]/gu, '').replace(/\s+/g, ' ').trim()),
	}),
	/** Money as JSON strings with two decimals ("1000.13"). */
	money_strings: (s: Shown) => {
		const money = (v: unknown) => (typeof v === 'number' ? v.toFixed(2) : v);
		return {
			...s,
			net_premium: money(s.net_premium),
			commission: money(s.commission),
			fees: lines(s.fees).map((f) => ({ ...f, amount: money(f.amount) })),
			insurers: lines(s.insurers).map((i) => ({ ...i, amount: money(i.amount) })),
		};
	},
	/** Fields the description does not list, at the top and in a line. */
	extra_fields: (s: Shown) => ({
		...s,
		source_system: 'register',
		revision: 3,
		fees: lines(s.fees).map((f) => ({ ...f, posted: true })),
	}),
} as const;

export type FormName = keyof typeof FORMS;
export const FORM_NAMES = Object.keys(FORMS) as FormName[];

export interface FormsConfig {
	/** The forms in use (empty: shown as sent). */
	forms: FormName[];
	/** `per_invoice`: one form per invoice, forms[id % forms.length]; `all`: every form at once. */
	mode: 'per_invoice' | 'all';
	/**
	 * The service's clock against the real one, in seconds (a clock 90 s behind: -90; a
	 * daylight-saving misread: 3600): every `created` it stamps and every reply's `meta.timestamp`.
	 */
	clockOffsetSeconds: number;
}

export const NO_FORMS: FormsConfig = { forms: [], mode: 'per_invoice', clockOffsetSeconds: 0 };

/** The shown invoice in the configured forms. */
export function inForms(shown: Shown, config: FormsConfig): Shown {
	if (!config.forms.length) return shown;
	const use = config.mode === 'all' ? config.forms : [config.forms[Number(shown.id) % config.forms.length]];
	return use.reduce((out, name) => FORMS[name](out), shown);
}

/** `{forms: [...] | "all" | [], mode?, clock_offset_seconds?}` from the control endpoint or SANDBOX_FORMS ("all", "name_upper,amount_cents", "all:all"). */
export function readFormsConfig(body: Record<string, unknown>): FormsConfig {
	const errors = new FieldErrorBag();
	const raw = body.forms;
	const forms = raw === 'all' ? FORM_NAMES : Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : null;
	if (forms === null || forms.some((f) => !FORM_NAMES.includes(f as FormName)))
		errors.add('forms', `Must be "all" or a list of: ${FORM_NAMES.join(', ')}`);
	const mode = body.mode ?? 'per_invoice';
	if (mode !== 'per_invoice' && mode !== 'all') errors.add('mode', 'Must be one of: per_invoice, all');
	const offset = body.clock_offset_seconds ?? 0;
	if (typeof offset !== 'number' || !Number.isFinite(offset)) errors.add('clock_offset_seconds', 'Must be a number of seconds');
	if (!errors.empty) throw validationError(errors.fields);
	return { forms: forms as FormName[], mode: mode as FormsConfig['mode'], clockOffsetSeconds: offset as number };
}

/** SANDBOX_FORMS: `all`, a comma list of form names, optionally `:all` for every form at once. */
export function formsFromEnv(value: string | undefined): FormsConfig {
	if (!value) return NO_FORMS;
	const [list, mode] = value.split(':');
	return readFormsConfig({ forms: list === 'all' ? 'all' : list.split(',').map((s) => s.trim()), mode: mode || undefined });
}
