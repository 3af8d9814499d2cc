/**
 * The one set of local rules for an invoice request body ("Invoice request
 * fields" and "Amount rules"), shared by Create, Create Many, Preview and Update. Each problem is
 * reported as "<field path>: <rule>" with the description's own message where it has one.
 */
import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { documentReference } from '../shared/documentRules';
import { BILLED_TAX_OF, FEE_ALIAS_PAIRS, INVOICE_FEE_CODES, LIMITS } from '../shared/rules';
import {
	type Read,
	NUMBER_MESSAGE,
	fractionSharesRule,
	isBlankValue,
	ok,
	readAmount,
	readDate,
	readDigitCode,
	readInteger,
	readPercent,
	readStateCode,
	readText,
	readWith,
	squash,
} from '../shared/values';
import { readTransactionSigns, readTypeCode, signedAmountReader } from './transactionTypes';
import { fieldPath } from '../shared/zodIssues';

// Every value goes through the shared readers (`shared/values.ts`): amounts and dates as
// spreadsheets write them, state names, the type's usual words; anything ambiguous is refused.
// The reader of each one-value field is remembered beside its zod step (see readPlainBody).
type Reader = (value: unknown) => Read<unknown>;
const readerOf = new WeakMap<z.ZodTypeAny, { read: Reader; required: boolean }>();
function field<T>(read: (value: unknown) => Read<T | undefined>, required: boolean) {
	const step = readWith(z, read, required);
	readerOf.set(step, { read, required });
	return step;
}

const requiredText = field(readText, true);
// An optional text sent as null stays null, as it always has.
const optionalText = field((v) => (v === null ? ok(null) : readText(v)), false);
const requiredNumber = field(readAmount, true);
const optionalNumber = field(readAmount, false);
const optionalPercent = field(readPercent, false);
const optionalInteger = field(readInteger, false);
const requiredDate = field(readDate, true);
const optionalDate = field(readDate, false);
const stateCode = field(readStateCode, true);
const typeCode = field(readTypeCode, false);

// ZIP and NAIC codes are five digits: a sheet that read one as a number dropped its leading zeros.
const ZIP_DIGITS = 5;
const NAIC_DIGITS = 5;

const ADDRESS_TYPE = 'Must be 1 (billing) or 2 (garaging)';
const ADDRESS_TYPES: Record<string, number> = { billing: 1, garaging: 2 };

/** insured_address.type_id: 1 or 2, or the words "Billing" / "Garaging". */
function readAddressType(value: unknown): Read<number | undefined> {
	const word = typeof value === 'string' ? ADDRESS_TYPES[value.trim().toLowerCase()] : undefined;
	if (word) return ok(word);
	const read = readInteger(value);
	if (!read.ok || (read.value !== undefined && read.value !== 1 && read.value !== 2))
		return { ok: false, message: ADDRESS_TYPE };
	return read;
}

const FEE_CODE_BY_SQUASHED = new Map(INVOICE_FEE_CODES.map((code) => [squash(code), code]));

/** fees[].type: a listed code, or the code written as words ("SL Tax", "Broker Fee"). */
function readFeeCode(value: unknown): Read<string | undefined> {
	const text = readText(value);
	if (!text.ok || text.value === undefined) return text;
	if (INVOICE_FEE_CODES.includes(text.value)) return text;
	const code = FEE_CODE_BY_SQUASHED.get(squash(text.value));
	return code ? ok(code) : { ok: false, message: `'${text.value}' is not a known fee or tax code` };
}

const address = z
	.object({
		line1: optionalText,
		line2: optionalText,
		city: optionalText,
		zip: readWith(z, (value) => readDigitCode(value, ZIP_DIGITS), false),
		type_id: readWith(z, readAddressType, false),
	})
	.passthrough();

const limit = z.object({ premium: requiredNumber }).passthrough();

const coverage = z
	.object({
		code: requiredText,
		title: optionalText,
		amount: requiredNumber,
		limits: z.array(limit).optional(),
	})
	.passthrough();

/** An insurer is found by company_id; NAIC or company name work on new-features accounts. */
const company = z
	.object({
		company_id: optionalInteger,
		naic: readWith(z, (value) => readDigitCode(value, NAIC_DIGITS), false),
		company_name: optionalText,
		percent: optionalPercent,
		amount: optionalNumber,
	})
	.passthrough();

/** A line-of-business group: its own amount and its companies. */
const insurerGroup = z
	.object({
		lob_id: optionalInteger,
		lob_name: optionalText,
		amount: optionalNumber,
		companies: z.array(company).min(1, 'Must list at least one company'),
	})
	.passthrough();

const isGroup = (value: unknown) =>
	!!value &&
	typeof value === 'object' &&
	('companies' in value || 'lob_id' in value || 'lob_name' in value);

// Each item is read by its own shape: a group (has companies or a line of business) or an insurer.
const insurer = z.unknown().transform((value, ctx) => {
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		ctx.addIssue({ code: 'custom', message: 'Must be an object' });
		return z.NEVER;
	}
	const result = (isGroup(value) ? insurerGroup : company).safeParse(value);
	if (result.success) return result.data as IDataObject;
	for (const issue of result.error.issues)
		ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
	return z.NEVER;
});

const fee = z
	.object({
		type: readWith(z, readFeeCode, true),
		amount: requiredNumber,
	})
	.passthrough();

const document = documentReference.passthrough();

/** Every field of the request; unknown fields pass through untouched (the service may know them). */
const invoiceFields = z
	.object({
		policy_number: requiredText,
		insured_name: requiredText,
		state_code: stateCode,
		net_premium: requiredNumber,
		effective_date: requiredDate,
		expiration_date: requiredDate,
		type_code: typeCode,
		insured_address: address.optional(),
		coverages: z.array(coverage).optional(),
		insurers: z.array(insurer).optional(),
		lob_id: optionalInteger,
		lob_name: optionalText,
		fees: z
			.array(fee)
			.max(LIMITS.invoiceFees, `Must not have more than ${LIMITS.invoiceFees} items`)
			.optional(),
		invoice_number: optionalText,
		invoice_date: optionalDate,
		commission: optionalNumber,
		policy_limit: optionalNumber.pipe(
			z.number({ invalid_type_error: NUMBER_MESSAGE }).min(0, 'Must not be negative').optional(),
		),
		class_code: optionalText,
		transaction_effective_date: optionalDate,
		documents: z
			.array(document)
			.max(LIMITS.invoiceDocuments, `Must not have more than ${LIMITS.invoiceDocuments} items`)
			.optional(),
	})
	.passthrough();

const cents = (value: number) => Math.round(value * 100);
const money = (value: number) => value.toFixed(2);
const asList = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : []);
const asObject = (value: unknown) =>
	value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};

/**
 * Rules between fields: sums, insurer identity, fee aliases. They read the raw body tolerantly and
 * run even when single fields fail, so one run lists every problem; they check only what was sent.
 */
const crossFieldRules = z.unknown().superRefine((raw, ctx) => {
	const body = asObject(raw);
	// Amounts as they will be sent: the sign rules may turn unsigned ones negative.
	const asNumber = signedAmountReader(body);
	asList(body.coverages).forEach((item, n) => {
		const c = asObject(item);
		const premiums = asList(c.limits).map((l) => asNumber(asObject(l).premium));
		const amount = asNumber(c.amount);
		if (!premiums.length || amount === undefined || premiums.some((p) => p === undefined)) return;
		const sum = (premiums as number[]).reduce((total, p) => total + p, 0);
		if (cents(sum) !== cents(amount)) {
			ctx.addIssue({
				code: 'custom',
				path: ['coverages', n, 'limits'],
				message: `premiums must sum to the coverage amount ${amount} (got ${Number(money(sum))})`,
			});
		}
	});

	// company_id 0 is the Company ID field left at its default: no company, not a company numbered 0.
	const needsCompany = (item: IDataObject, path: Array<string | number>) => {
		const id = readInteger(item.company_id);
		const companyId = !id.ok ? item.company_id : id.value === 0 ? undefined : id.value;
		if (companyId !== undefined || !isBlankValue(item.naic) || !isBlankValue(item.company_name))
			return;
		ctx.addIssue({
			code: 'custom',
			path: [...path, 'company_id'],
			message: `${pathLabel(path)}.company_id is required and must be an integer`,
		});
	};
	const groupAmounts: number[] = [];
	let groupsComplete = true;
	asList(body.insurers).forEach((entry, n) => {
		const item = asObject(entry);
		if (!isGroup(item)) return needsCompany(item, ['insurers', n]);
		const amount = asNumber(item.amount);
		if (amount === undefined) {
			groupsComplete = false;
			ctx.addIssue({
				code: 'custom',
				path: ['insurers', n, 'amount'],
				message: `insurers[${n}].amount is required and must be a number`,
			});
		} else groupAmounts.push(amount);
		asList(item.companies).forEach((member, m) =>
			needsCompany(asObject(member), ['insurers', n, 'companies', m]),
		);
	});
	const premium = asNumber(body.net_premium);
	if (groupAmounts.length && groupsComplete && premium !== undefined) {
		const sum = groupAmounts.reduce((a, b) => a + b, 0);
		if (Math.abs(cents(sum) - cents(premium)) > LIMITS.sumToleranceCents) {
			ctx.addIssue({
				code: 'custom',
				path: ['insurers'],
				message: `Sum of insurers LOB amounts (${money(sum)}) does not equal net_premium (${money(premium)})`,
			});
		}
	}

	// Percent shares all under 1 that add up to 1 are fractions of 1 or tiny percents: refused,
	// named at the first share of the list.
	const sharesOf = (list: unknown[], indexes: number[], path: Array<string | number>) => {
		const read = list.map((entry) => readPercent(asObject(entry).percent));
		const shares = read.flatMap((r) => (r.ok && r.value !== undefined ? [r.value] : []));
		const rule = shares.length === list.length ? fractionSharesRule(shares) : undefined;
		if (rule)
			ctx.addIssue({ code: 'custom', path: [...path, indexes[0], 'percent'], message: rule });
	};
	const insurers = asList(body.insurers);
	const companyIndexes = insurers.flatMap((entry, n) => (isGroup(entry) ? [] : [n]));
	sharesOf(
		companyIndexes.map((n) => insurers[n]),
		companyIndexes,
		['insurers'],
	);
	insurers.forEach((entry, n) => {
		const companies = isGroup(entry) ? asList(asObject(entry).companies) : [];
		sharesOf(
			companies,
			companies.map((_, m) => m),
			['insurers', n, 'companies'],
		);
	});

	// A tax is billed once: the same tax code (or its twin, below) twice would bill it twice.
	const feeCodes = asList(body.fees).map((f) => {
		const read = readFeeCode(asObject(f).type);
		return read.ok ? read.value : undefined;
	});
	feeCodes.forEach((code, n) => {
		if (typeof code !== 'string' || !BILLED_TAX_OF.has(code)) return;
		const at = feeCodes.flatMap((other, m) => (other === code ? [`fees[${m}]`] : []));
		if (at.length < 2) return;
		ctx.addIssue({
			code: 'custom',
			path: ['fees', n],
			message: `'${code}' is given ${at.length} times (${at.join(', ')}); a tax is billed once: keep one`,
		});
	});
	const codes = new Set(feeCodes);
	for (const [a, b] of FEE_ALIAS_PAIRS) {
		if (codes.has(a) && codes.has(b)) {
			ctx.addIssue({
				code: 'custom',
				path: ['fees'],
				message: `'${a}' and '${b}' are the same fee (one stored column); send only one of them`,
			});
		}
	}
});

/** Create, Create Many and Preview: the six required fields and every optional rule. */
export const invoiceSchema = invoiceFields;

/** Update: fields sent replace the stored ones, so only what is sent is checked. */
const invoiceUpdateSchema = invoiceFields
	.partial()
	.refine((body) => Object.keys(body).some((k) => body[k] !== undefined), {
		message: 'Set at least one field to change',
	});

// zod runs the reader of every field, sent or not, and that garbage was most of the memory a
// 10,000-row Create Many used. A body is read by the fields it has plus the required ones (the
// others could only read as absent): one schema per set of fields, which a sheet's rows share.
// Fields keep the schema's order, so problems are listed in the same order as before.
const FIELD_NAMES = Object.keys(invoiceFields.shape) as Array<keyof typeof invoiceFields.shape>;
const REQUIRED_FIELDS = new Set(
	FIELD_NAMES.filter((name) => !invoiceFields.shape[name].safeParse(undefined).success),
);
const schemaByFields = new Map<string, z.ZodTypeAny>();
const REMEMBERED_SCHEMAS = 100;

function fieldsSchemaFor(body: IDataObject): z.ZodTypeAny {
	const names = FIELD_NAMES.filter((name) => REQUIRED_FIELDS.has(name) || name in body);
	const id = names.join(',');
	let schema = schemaByFields.get(id);
	if (!schema) {
		if (schemaByFields.size >= REMEMBERED_SCHEMAS) schemaByFields.clear();
		const mask: Partial<Record<(typeof FIELD_NAMES)[number], true>> = {};
		for (const name of names) mask[name] = true;
		schema = invoiceFields.pick(mask);
		schemaByFields.set(id, schema);
	}
	return schema;
}

function pathLabel(path: Array<string | number>): string {
	return fieldPath(path) || 'body';
}

/** "field: rule" lines; a message that already names its field is kept as it is. */
export function problemLines(error: z.ZodError): string[] {
	const lines = error.issues.flatMap((issue) => {
		const label = pathLabel(issue.path);
		return [issue.message.startsWith(label) ? issue.message : `${label}: ${issue.message}`];
	});
	return [...new Set(lines)];
}

/** A value the local reading changed: "Texas" → "TX", "$1,234.50" → 1234.5, 03/01/2026 → 2026-03-01. */
export interface Conversion {
	field: string;
	from: unknown;
	to: unknown;
	/** Why, where the reading is not just a form ("RPE: return premium endorsement"). */
	why?: string;
}

type ValidationResult =
	| { ok: true; body: IDataObject; converted: Conversion[] }
	| { ok: false; problems: string[] };

// A sheet's row is most often one value per field. Such a body is read field by field with the
// schema's own readers, without zod's object machinery (most of Create Many's own time per row);
// anything else (groups, lists, a rule beyond the reader, a value refused, a required field
// missing) is read by the schema, which also words the problems.
const PLAIN_READERS = new Map(
	FIELD_NAMES.flatMap((name) => {
		const reader = readerOf.get(invoiceFields.shape[name]);
		return reader ? [[name as string, reader] as const] : [];
	}),
);
const KNOWN_FIELDS = new Set<string>(FIELD_NAMES);

const isJsonScalar = (value: unknown) =>
	value === null ||
	typeof value === 'string' ||
	typeof value === 'boolean' ||
	(typeof value === 'number' && Number.isFinite(value));

/**
 * The body the schema would give (fields in its order, absent ones left out, unknown fields kept
 * after them), or undefined when the schema must read it. Unknown fields are taken as they are
 * only when JSON would send them unchanged.
 */
function readPlainBody(body: IDataObject): IDataObject | undefined {
	const out: IDataObject = {};
	for (const name of FIELD_NAMES) {
		const reader = PLAIN_READERS.get(name);
		if (!reader) {
			if (name in body) return undefined;
			continue;
		}
		if (!reader.required && !(name in body)) continue;
		const read = reader.read(body[name]);
		if (!read.ok || (read.value === undefined && reader.required)) return undefined;
		if (read.value !== undefined) out[name] = read.value as IDataObject[string];
	}
	for (const name of Object.keys(body)) {
		if (KNOWN_FIELDS.has(name)) continue;
		const value = body[name];
		if (value === undefined) continue;
		if (!isJsonScalar(value)) return undefined;
		out[name] = value;
	}
	return out;
}

/** Every field read by its rule: one value per field by its reader, anything else by the schema. */
function readFields(
	body: IDataObject,
	mode: 'full' | 'partial',
): { ok: true; body: IDataObject } | { ok: false; problems: string[] } {
	const plain = mode === 'full' ? readPlainBody(body) : undefined;
	if (plain) return { ok: true, body: plain };
	const schema = mode === 'full' ? fieldsSchemaFor(body) : invoiceUpdateSchema;
	const fields = schema.safeParse(body);
	const cross = crossFieldRules.safeParse(body);
	const problems = [
		...(fields.success ? [] : problemLines(fields.error)),
		...(cross.success ? [] : problemLines(cross.error)),
	];
	if (problems.length || !fields.success) return { ok: false, problems: [...new Set(problems)] };
	return { ok: true, body: dropUndefined(fields.data as IDataObject) };
}

export function validateInvoice(
	body: unknown,
	mode: 'full' | 'partial' = 'full',
): ValidationResult {
	if (!body || typeof body !== 'object' || Array.isArray(body)) {
		return { ok: false, problems: ['body: must be a JSON object with the invoice fields'] };
	}
	const read = readFields(body as IDataObject, mode);
	if (!read.ok) return read;
	// The transaction's sign rules apply to every row, however its fields were read.
	const signs = readTransactionSigns(body as IDataObject, read.body);
	if (signs.problems.length) return { ok: false, problems: signs.problems };
	const whys = new Map(signs.signed.map((s) => [s.field, s.why]));
	if (signs.typeNote) whys.set('type_code', signs.typeNote.why);
	// Trimmed here, not only in the canonical body, so that `_converted` says so.
	const sent = trimmedText(signs.body) as IDataObject;
	const converted = conversions(body, sent).map((c) =>
		whys.has(c.field)
			? { ...c, why: whys.get(c.field) }
			: trimmedOnly(c)
				? { ...c, why: TRIMMED }
				: c,
	);
	return { ok: true, body: sent, converted };
}

const TRIMMED = 'spaces around the text left out';

function trimmedOnly(c: Conversion): boolean {
	return typeof c.from === 'string' && c.to === c.from.trim();
}

/** Text with its surrounding spaces left out (text of spaces only is left for the canonical body to drop). */
function trimmedText(value: unknown): unknown {
	if (typeof value === 'string') return value.trim() || value;
	if (Array.isArray(value)) return value.map(trimmedText);
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, inner]) => [key, trimmedText(inner)]),
		);
	}
	return value;
}

// zod fills absent optional fields with undefined; the body sent (and hashed) leaves them out.
function dropUndefined(value: IDataObject): IDataObject {
	return JSON.parse(JSON.stringify(value)) as IDataObject;
}

/**
 * Not worth saying: a number written as text, digits read as the same number, or n8n's own date
 * picker value (`2026-03-01T00:00:00`) read as its date.
 */
function sameValue(from: unknown, to: unknown): boolean {
	if (typeof from === 'number') return to === String(from);
	if (typeof from === 'string' && /^\d{4}-\d{2}-\d{2}T00:00:00(\.0+)?$/.test(from))
		return to === from.slice(0, 10);
	return (
		typeof from === 'string' &&
		typeof to === 'number' &&
		/^-?\d+(\.\d+)?$/.test(from.trim()) &&
		Number(from) === to
	);
}

/** Every leaf whose value was read into another form, with its field path. */
function conversions(
	raw: unknown,
	sent: unknown,
	path: Array<string | number> = [],
	found: Conversion[] = [],
): Conversion[] {
	if (sent && typeof sent === 'object' && raw && typeof raw === 'object') {
		for (const key of Object.keys(sent)) {
			const from = (raw as IDataObject)[key];
			const to = (sent as IDataObject)[key];
			// Most values come through as they were: no path is built for them.
			if (from === to) continue;
			conversions(from, to, [...path, Array.isArray(sent) ? Number(key) : key], found);
		}
		return found;
	}
	if (raw === sent || sent === undefined || sameValue(raw, sent)) return found;
	const from = raw !== null && typeof raw === 'object' ? String(raw) : raw;
	found.push({ field: fieldPath(path), from, to: sent });
	return found;
}
