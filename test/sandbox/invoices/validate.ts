import { isValidDate } from '../clock/time';
import { FieldErrorBag } from '../envelope';
import { hasFeature, type Account } from '../keys';
import { money, sameCents, sum } from '../money';
import { COMPANIES, INVOICE_TYPES, LOBS, type Company, type Lob, type StateRow, type TypeCode } from '../reference/catalog';
import { checkFees } from '../reference/feeTypes';
import { checkDocument } from '../documents/input';
import type { CoverageInput, DocumentInput, InsurerLine, InvoiceInput } from './types';

const REQUIRED = 'This field is required';
const MAX_DOCUMENTS = 10;
const MAX_FEES = 25;

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
const optString = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export interface InvoiceCheck {
	errors: FieldErrorBag;
	input: InvoiceInput | null;
}

function requiredString(body: Body, field: string, errors: FieldErrorBag): string | null {
	const v = body[field];
	if (!present(v)) errors.add(field, REQUIRED);
	else if (typeof v !== 'string') errors.add(field, 'Must be a string');
	else return v;
	return null;
}

function requiredDate(body: Body, field: string, errors: FieldErrorBag): string | null {
	const v = body[field];
	if (!present(v)) errors.add(field, REQUIRED);
	else if (!isValidDate(v)) errors.add(field, 'Must be a valid date');
	else return v;
	return null;
}

function optionalNumber(body: Body, field: string, errors: FieldErrorBag): number | null {
	const v = body[field];
	if (!present(v)) return null;
	if (!isNumber(v)) {
		errors.add(field, 'Must be a number');
		return null;
	}
	return v;
}

class CompanyResolver {
	constructor(
		private readonly account: Account,
		private readonly errors: FieldErrorBag,
	) {}

	/** company_id wins; NAIC then name only where carrier look-up is switched on. */
	resolve(item: Body, label: string): Company | null {
		const lookup = hasFeature(this.account, 'carrier_lookup');
		if (present(item.company_id)) {
			if (!Number.isInteger(item.company_id)) return this.fail(`${label}.company_id is required and must be an integer`);
			const found = COMPANIES.find((c) => c.id === item.company_id);
			return found ?? this.fail(`${label}.company_id ${String(item.company_id)} does not match any company`);
		}
		if (lookup && typeof item.naic === 'string' && item.naic !== '') {
			const naic = item.naic.trim().toLowerCase();
			const found = COMPANIES.find((c) => c.naic.toLowerCase() === naic);
			return found ?? this.fail(`${label}.naic: no company found with NAIC '${item.naic}'`);
		}
		if (lookup && typeof item.company_name === 'string' && item.company_name !== '') {
			const name = item.company_name.trim().toLowerCase();
			const found = COMPANIES.find((c) => c.name.toLowerCase() === name);
			return found ?? this.fail(`${label}.company_name: no company found with name '${item.company_name}'`);
		}
		return this.fail(`${label}.company_id is required and must be an integer`);
	}

	private fail(message: string): null {
		this.errors.add('insurers', message);
		return null;
	}
}

/** Percent and amount filled in from each other against the amount they share. */
function share(item: Body, base: number, soleInsurer: boolean): { percent: number | null; amount: number | null } {
	const percent = isNumber(item.percent) ? item.percent : null;
	const amount = isNumber(item.amount) ? item.amount : null;
	if (percent === null && amount === null) return soleInsurer ? { percent: 100, amount: base } : { percent, amount };
	if (amount === null) return { percent, amount: Number(money((base * (percent as number)) / 100)) };
	if (percent === null) return { percent: base === 0 ? null : Math.round((amount / base) * 1e6) / 1e4, amount };
	return { percent, amount };
}

function findLob(value: unknown): Lob | undefined {
	return LOBS.find((l) => l.id === value);
}

function lobByName(name: string): Lob | undefined {
	return LOBS.find((l) => l.name.toLowerCase() === name.trim().toLowerCase());
}

function checkInsurers(body: Body, netPremium: number | null, account: Account, errors: FieldErrorBag, warnings: string[]): InsurerLine[] {
	const raw = body.insurers;
	if (raw === undefined || raw === null) return [];
	if (!Array.isArray(raw)) {
		errors.add('insurers', 'Must be an array');
		return [];
	}
	const resolver = new CompanyResolver(account, errors);
	const lines: InsurerLine[] = [];
	const groupAmounts: number[] = [];
	let groupsComplete = true;
	raw.forEach((entry: unknown, n) => {
		const item = isObject(entry) ? entry : {};
		const isGroup = 'companies' in item || 'lob_id' in item || 'lob_name' in item;
		if (!isGroup) {
			const company = resolver.resolve(item, `insurers[${n}]`);
			if (company) lines.push({ company, ...share(item, netPremium ?? 0, raw.length === 1) });
			return;
		}
		if (!isNumber(item.amount)) {
			groupsComplete = false;
			errors.add('insurers', `insurers[${n}].amount is required and must be a number`);
		} else groupAmounts.push(item.amount);
		if (present(item.lob_id) && !findLob(item.lob_id))
			errors.add('insurers', `insurers[${n}].lob_id: Referenced line_of_businesses not found`);
		else if (!present(item.lob_id) && typeof item.lob_name === 'string' && hasFeature(account, 'lob_name') && !lobByName(item.lob_name))
			warnings.push(`Line of business '${item.lob_name}' (insurers[${n}]) not found; the group was stored without a line of business`);
		if (!Array.isArray(item.companies) || item.companies.length === 0) {
			errors.add('insurers', `insurers[${n}].companies is required and must be a non-empty array`);
			return;
		}
		const groupAmount = isNumber(item.amount) ? item.amount : 0;
		item.companies.forEach((c: unknown, m) => {
			const member = isObject(c) ? c : {};
			const company = resolver.resolve(member, `insurers[${n}].companies[${m}]`);
			if (company) lines.push({ company, ...share(member, groupAmount, (item.companies as unknown[]).length === 1) });
		});
	});
	if (groupAmounts.length > 0 && groupsComplete && netPremium !== null && !sameCents(sum(groupAmounts), netPremium)) {
		errors.add('insurers', `Sum of insurers LOB amounts (${money(sum(groupAmounts))}) does not equal net_premium (${money(netPremium)})`);
	}
	return lines;
}

function checkCoverages(body: Body, errors: FieldErrorBag): CoverageInput[] {
	const raw = body.coverages;
	if (raw === undefined || raw === null) return [];
	if (!Array.isArray(raw)) {
		errors.add('coverages', 'Must be an array');
		return [];
	}
	const result: CoverageInput[] = [];
	raw.forEach((entry: unknown, n) => {
		const item = isObject(entry) ? entry : {};
		const label = `coverages[${n}]`;
		const codeOk = typeof item.code === 'string' && item.code !== '';
		if (!codeOk) errors.add('coverages', `${label}.code is required`);
		if (!isNumber(item.amount)) errors.add('coverages', `${label}.amount is required and must be a number`);
		if (Array.isArray(item.limits)) {
			const premiums = item.limits.map((l: unknown) => (isObject(l) ? l.premium : undefined));
			const bad = premiums.findIndex((p) => !isNumber(p));
			if (bad >= 0) errors.add('coverages', `${label}.limits[${bad}].premium is required and must be a number`);
			else if (isNumber(item.amount) && !sameCents(sum(premiums as number[]), item.amount))
				errors.add(
					'coverages',
					`Sum of ${label} (${codeOk ? String(item.code) : '?'}) limits premiums (${money(sum(premiums as number[]))}) does not equal its amount (${money(item.amount)})`,
				);
		}
		if (codeOk && isNumber(item.amount))
			result.push({ code: item.code as string, title: optString(item.title), amount: item.amount });
	});
	return result;
}

function checkDocuments(body: Body, errors: FieldErrorBag): DocumentInput[] {
	const raw = body.documents;
	if (raw === undefined || raw === null) return [];
	if (!Array.isArray(raw)) {
		errors.add('documents', 'Must be an array');
		return [];
	}
	if (raw.length > MAX_DOCUMENTS) errors.add('documents', `Must not have more than ${MAX_DOCUMENTS} items`);
	return raw.flatMap((entry: unknown, n) => {
		const item = isObject(entry) ? entry : {};
		const doc = checkDocument(item, item.docUUID, `documents[${n}]`, (f, m) => errors.add(f, m));
		return doc ? [doc] : [];
	});
}

function checkType(body: Body, errors: FieldErrorBag): TypeCode {
	const v = body.type_code;
	if (!present(v)) return 'NEW';
	if (typeof v === 'string' && v in INVOICE_TYPES) return v as TypeCode;
	errors.add('type_code', 'Must be one of: NEW, RENEWAL, ENDORSEMENT, CANCELLATION');
	return 'NEW';
}

/**
 * Every rule of an invoice request, collecting all problems so one 422 lists several fields.
 * New-features fields are read only where the account has them; elsewhere they are ignored.
 */
export function checkInvoice(body: Body, account: Account, states: readonly StateRow[]): InvoiceCheck {
	const errors = new FieldErrorBag();
	const warnings: string[] = [];
	const policyNumber = requiredString(body, 'policy_number', errors);
	const insuredName = requiredString(body, 'insured_name', errors);

	let state: StateRow | undefined;
	if (!present(body.state_code)) errors.add('state_code', REQUIRED);
	else {
		const code = typeof body.state_code === 'string' ? body.state_code.toUpperCase() : '';
		state = states.find((s) => s.code === code);
		if (!state) errors.add('state_code', 'Must be a valid state_code');
	}

	let netPremium: number | null = null;
	if (!present(body.net_premium)) errors.add('net_premium', REQUIRED);
	else if (!isNumber(body.net_premium)) errors.add('net_premium', 'Must be a number');
	else netPremium = body.net_premium;

	const effectiveDate = requiredDate(body, 'effective_date', errors);
	const expirationDate = requiredDate(body, 'expiration_date', errors);
	const typeCode = checkType(body, errors);

	if (present(body.invoice_date) && !isValidDate(body.invoice_date)) errors.add('invoice_date', 'Must be a valid date');
	const commission = optionalNumber(body, 'commission', errors);
	const policyLimit = optionalNumber(body, 'policy_limit', errors);
	if (policyLimit !== null && policyLimit < 0) errors.add('policy_limit', 'Must not be negative');

	let lob: Lob | null = null;
	if (present(body.lob_id)) {
		lob = findLob(body.lob_id) ?? null;
		if (!lob) errors.add('lob_id', 'Referenced line_of_businesses not found');
	} else if (hasFeature(account, 'lob_name') && typeof body.lob_name === 'string' && body.lob_name !== '') {
		lob = lobByName(body.lob_name) ?? null;
		if (!lob) warnings.push(`Line of business '${body.lob_name}' not found; the invoice was stored without a line of business`);
	}

	let transactionEffectiveDate: string | null = null;
	if (hasFeature(account, 'transaction_effective_date') && present(body.transaction_effective_date)) {
		if (!isValidDate(body.transaction_effective_date)) errors.add('transaction_effective_date', 'Must be a valid date');
		// Only a change has its own date; on NEW/RENEWAL the term start is the transaction date.
		else if (typeCode === 'ENDORSEMENT' || typeCode === 'CANCELLATION') transactionEffectiveDate = body.transaction_effective_date;
	}

	const coverages = checkCoverages(body, errors);
	const insurers = checkInsurers(body, netPremium, account, errors, warnings);
	const fees = checkFees(body.fees, { max: MAX_FEES, allowTaxCodes: true }, (m) => errors.add('fees', m));
	const documents = checkDocuments(body, errors);

	if (present(body.insured_address) && !isObject(body.insured_address)) errors.add('insured_address', 'Must be an object');
	else if (isObject(body.insured_address) && present(body.insured_address.type_id) && ![1, 2].includes(body.insured_address.type_id as number))
		errors.add('insured_address', 'insured_address.type_id must be 1 (billing) or 2 (garaging)');

	if (!errors.empty || !policyNumber || !insuredName || !state || netPremium === null || !effectiveDate || !expirationDate)
		return { errors, input: null };
	return {
		errors,
		input: {
			policyNumber,
			insuredName,
			state,
			netPremium,
			effectiveDate,
			expirationDate,
			typeCode,
			invoiceNumber: optString(body.invoice_number),
			invoiceDate: isValidDate(body.invoice_date) ? body.invoice_date : effectiveDate,
			commission,
			policyLimit,
			classCode: optString(body.class_code),
			notes: optString(body.notes),
			lob,
			transactionEffectiveDate,
			coverages,
			insurers,
			fees,
			documents,
			insuredAddress: isObject(body.insured_address) ? { type_id: 2, ...body.insured_address } : null,
			warnings,
		},
	};
}
