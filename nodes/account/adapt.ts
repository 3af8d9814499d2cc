/**
 * One workflow, every account: an account without carrier_lookup, lob_name or
 * transaction_effective_date ignores those fields, so an invoice sent there as given would be
 * refused (an insurer by NAIC or name) or stored differently in silence (no line of business, the
 * policy term's date where the state needs the date of the change). Each row is adapted here,
 * after its local checks and before its Idempotency-Key is derived or it is looked for on its
 * policy, so both use what is actually sent; what cannot be adapted fails the row before any
 * filing call. Every adaptation is listed on the item (`_adapted`).
 *
 * The account's features come from the run's one `GET /auth/me` (the run's service), asked only
 * when a row holds one of these fields.
 *
 * Enters: the run (its service, what it learned), a row as read (InvoiceInput) and the
 * operation's account options. Leaves: the row as this account needs it sent, with what was
 * adapted (`_adapted`), or a refusal before any filing call.
 */
import type { IDataObject } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { CHANGE_TYPES, changeDateAsEffective } from './changeDate';
import { localError } from '../shared/errors';
import type { Run } from '../shared/run';
import { FEATURES } from '../shared/service';
import { addInvoiceWarning, sourceOf, type InvoiceInput } from '../sheet';
import { linesOfBusiness, searchCompanies, type Company } from './lookups';
import type { UnknownLob } from './options';
import { nothingFiled } from '../filing/fileInvoice';
import { companyForm } from '../filing/formRules';

/** What was sent instead of what the row gave, and why (one entry of `_adapted`). */
export interface Adaptation {
	/** The field as the row gave it (`insurers[0].naic`). */
	field: string;
	/** The sheet column it came from (Map Columns). */
	column?: string;
	from: string;
	/** The field sent instead (`insurers[0].company_id`); the same field when sent as given. */
	sentAs: string;
	to: string | number;
	why: string;
}

interface AdaptedInput extends InvoiceInput {
	adapted: Adaptation[];
}

const blank = (v: unknown) => v === undefined || v === null || v === '';
const text = (v: unknown) => (blank(v) ? '' : String(v).trim());
const sameNaic = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const sameName = (a: string, b: string) =>
	a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

function list(value: unknown): IDataObject[] {
	return Array.isArray(value) ? (value as IDataObject[]) : [];
}

/** Each insurer of the body with its path: plain insurers and the companies of each group. */
function insurerSlots(body: IDataObject): Array<[string, IDataObject]> {
	return list(body.insurers).flatMap(
		(item, n): Array<[string, IDataObject]> =>
			Array.isArray(item.companies)
				? list(item.companies).map((c, m) => [`insurers[${n}].companies[${m}]`, c])
				: [[`insurers[${n}]`, item]],
	);
}

/** Holders of a line of business: the invoice and each insurer group, with their path prefix. */
function lobHolders(body: IDataObject): Array<[string, IDataObject]> {
	const groups = list(body.insurers)
		.map((item, n): [string, IDataObject] => [`insurers[${n}].`, item])
		.filter(([, item]) => Array.isArray(item.companies));
	return [['', body], ...groups];
}

const looksUp = (slot: IDataObject) =>
	blank(slot.company_id) && (!blank(slot.naic) || !blank(slot.company_name));
// An insurer given by NAIC and by name: the service uses one of the two (which is not shown).
const namedTwice = (slot: IDataObject) =>
	blank(slot.company_id) && !blank(slot.naic) && !blank(slot.company_name);
const namesLob = (holder: IDataObject) => blank(holder.lob_id) && !blank(holder.lob_name);

/** The features this body relies on (none: the account is not asked). */
function featuresUsed(body: IDataObject): string[] {
	const used: string[] = [];
	if (insurerSlots(body).some(([, slot]) => looksUp(slot))) used.push(FEATURES.carrierLookup);
	if (lobHolders(body).some(([, holder]) => namesLob(holder))) used.push(FEATURES.lobName);
	if (!blank(body.transaction_effective_date)) used.push(FEATURES.transactionEffectiveDate);
	return used;
}

function describeCompanies(companies: Company[]): string {
	const shown = companies
		.slice(0, 5)
		.map((c) => `${c.name} (id ${c.id}${c.naic ? `, NAIC ${c.naic}` : ''})`);
	const more = companies.length > 5 ? ` and ${companies.length - 5} more` : '';
	return `${shown.join('; ')}${more}`;
}

class Adapter {
	readonly adapted: Adaptation[] = [];
	readonly problems: string[] = [];

	constructor(
		private readonly run: Run,
		private readonly itemIndex: number,
		private readonly sources: Record<string, string>,
	) {}

	private column(path: string) {
		return sourceOf(path, this.sources);
	}

	where(path: string): string {
		const column = this.column(path);
		return column ? `${path} (column "${column}")` : path;
	}

	note(entry: Omit<Adaptation, 'column'>) {
		const column = this.column(entry.field);
		const { field, ...rest } = entry;
		this.adapted.push(column ? { field, column, ...rest } : entry);
	}

	private async search(field: string, query: string): Promise<Company[]> {
		try {
			return await searchCompanies(this.run, query, this.itemIndex);
		} catch (error) {
			throw nothingFiled(this.run, error, {
				itemIndex: this.itemIndex,
				why: `the insurer ${field} '${query}' could not be looked up (GET /companies/search)`,
				hint: 'Run again later: the invoice was not sent. Or give the company id (company_id) instead.',
			});
		}
	}

	/** An insurer by NAIC (first) or by name, on an account without carrier look-up. */
	async resolveInsurer(path: string, slot: IDataObject): Promise<void> {
		const byNaic = !blank(slot.naic);
		const field = `${path}.${byNaic ? 'naic' : 'company_name'}`;
		const value = text(byNaic ? slot.naic : slot.company_name);
		const found = await this.search(field, value);
		const exact = found.filter((c) => (byNaic ? sameNaic(c.naic, value) : sameName(c.name, value)));
		if (exact.length === 1) {
			const [company] = exact;
			slot.company_id = company.id;
			delete slot.naic;
			delete slot.company_name;
			this.note({
				field,
				from: value,
				sentAs: `${path}.company_id`,
				to: company.id,
				why: `This account has no carrier_lookup feature and would refuse an insurer without company_id: ${byNaic ? `NAIC '${value}' is ${company.name}` : `'${value}' is ${company.name}${company.naic ? ` (NAIC ${company.naic})` : ''}`}, company ${company.id} in GET /companies/search.`,
			});
			return;
		}
		const what = byNaic ? `NAIC '${value}'` : `the name '${value}'`;
		const seen = found.length ? `; the search found ${describeCompanies(found)}` : '';
		const problem =
			exact.length === 0
				? `${this.where(field)}: no company has ${what}${seen || ' (the search found none)'}`
				: `${this.where(field)}: ${exact.length} companies have ${what} (${describeCompanies(exact)})`;
		this.problems.push(
			`${problem}. This account has no carrier_lookup feature, so the node looks the insurer up before filing: give its company_id, or a ${byNaic ? 'NAIC' : 'name'} that matches exactly one company.`,
		);
	}

	/**
	 * An insurer given by NAIC and by name, on any account: both must be one company, or the row
	 * would be filed for whichever the service reads first. A NAIC the search does not find is
	 * left to the service, which refuses it.
	 */
	async checkNamedTwice(path: string, slot: IDataObject): Promise<void> {
		const naic = text(slot.naic);
		const name = text(slot.company_name);
		const found = await this.search(`${path}.naic`, naic);
		const company = found.find((c) => sameNaic(c.naic, naic));
		if (!company || companyForm(company.name) === companyForm(name)) return;
		this.problems.push(
			`${this.where(`${path}.naic`)} and ${this.where(`${path}.company_name`)} name two companies for one insurer: NAIC '${naic}' is ${company.name} (company ${company.id} in GET /companies/search), not '${name}'. Correct one of the two, or leave one column out (Columns Not to File).`,
		);
	}

	/** A line of business by name, on an account without lob_name. */
	async resolveLob(prefix: string, holder: IDataObject, unknown: UnknownLob): Promise<void> {
		const field = `${prefix}lob_name`;
		const name = text(holder.lob_name);
		let known;
		try {
			known = await linesOfBusiness(this.run, this.itemIndex);
		} catch (error) {
			throw nothingFiled(this.run, error, {
				itemIndex: this.itemIndex,
				why: `the line of business '${name}' could not be looked up (GET /lobs)`,
				hint: 'Run again later: the invoice was not sent. Or give lob_id instead.',
			});
		}
		const matches = known.filter((lob) => sameName(lob.name, name));
		if (matches.length === 1) {
			holder.lob_id = matches[0].id;
			delete holder.lob_name;
			this.note({
				field,
				from: name,
				sentAs: `${prefix}lob_id`,
				to: matches[0].id,
				why: `This account has no lob_name feature and would store the invoice without its line of business: '${name}' is line of business ${matches[0].id} in GET /lobs.`,
			});
			return;
		}
		if (matches.length === 0 && unknown === 'fileWithout') {
			this.note({
				field,
				from: name,
				sentAs: field,
				to: name,
				why: `'${name}' is not in GET /lobs: sent as given, so the invoice is stored without a line of business, as the service does with an unknown name (Options → Unknown Line of Business Name).`,
			});
			return;
		}
		const listed = known.map((lob) => lob.name).join(', ') || 'none';
		this.problems.push(
			matches.length === 0
				? `${this.where(field)}: '${name}' is not a line of business of this account (GET /lobs lists: ${listed}). This account has no lob_name feature and would store the invoice without one: give a listed name or lob_id, or choose Options → Unknown Line of Business Name → File Without a Line of Business.`
				: `${this.where(field)}: ${matches.length} lines of business are named '${name}' (ids ${matches.map((m) => m.id).join(', ')}): give lob_id.`,
		);
	}

	/** The date of a change, on an account where an endorsement's effective_date is that date. */
	moveChangeDate(body: IDataObject, mode: 'full' | 'partial'): void {
		const field = 'transaction_effective_date';
		const date = text(body[field]);
		const type = text(body.type_code ?? (mode === 'full' ? 'NEW' : '')).toUpperCase();
		if (CHANGE_TYPES.has(type)) {
			const term = text(body.effective_date);
			const moved = changeDateAsEffective(body, type);
			body.effective_date = moved.effective_date;
			delete body[field];
			const dropped =
				term && term !== date ? `, and the policy term's effective date ${term} is not sent` : '';
			this.note({
				field,
				from: date,
				sentAs: 'effective_date',
				to: date,
				why: `This account has no transaction_effective_date feature and ignores it: there the effective_date of an ${type} is the date of the change, which the state filing uses. So the change date is sent as effective_date${dropped}.`,
			});
		} else if (!type) {
			this.problems.push(
				`${this.where(field)}: this account has no transaction_effective_date feature, where the effective_date of an endorsement or cancellation is the date of the change: send the type (type_code) with this update, so the node knows whether ${date} goes in effective_date.`,
			);
		} else if (date !== text(body.effective_date)) {
			// A New or Renewal row whose change date is its effective date is simply read
			// (docs/reading-sheets.md): nothing to check.
			addInvoiceWarning(
				this.run,
				this.itemIndex,
				`${field}: ${date} is a date of change on a ${type} transaction; only an endorsement or cancellation has one, and this account (without the transaction_effective_date feature) ignores it: check the type`,
			);
		}
	}
}

// A failed account check is not made again by the run's later rows: with the service down, a
// 10,000-row sheet would otherwise make 10,000 failing checks, each with its retries.
declare module '../shared/run' {
	interface RunLearned {
		/** The account check that failed in this run (`{ error }`), so later rows fail alike. */
		failedAccountCheck?: { error: unknown };
	}
}

/** The features used by the body that this account lacks (asks the account only when one is used). */
async function missingFeatures(run: Run, body: IDataObject, itemIndex: number): Promise<string[]> {
	const used = featuresUsed(body);
	if (!used.length) return [];
	let features: string[];
	try {
		if (run.learned.failedAccountCheck) throw run.learned.failedAccountCheck.error;
		features = (await run.service.me(itemIndex)).features;
	} catch (error) {
		run.learned.failedAccountCheck = { error };
		throw nothingFiled(run, error, {
			itemIndex,
			why: 'the account could not be asked which features it has (GET /auth/me)',
			hint: 'Run again later: the invoice was not sent.',
		});
	}
	return used.filter((feature) => !features.includes(feature));
}

async function refuseInsurersNamedTwice(
	run: Run,
	input: InvoiceInput,
	itemIndex: number,
): Promise<void> {
	const slots = insurerSlots(input.body).filter(([, slot]) => namedTwice(slot));
	if (!slots.length) return;
	const adapter = new Adapter(run, itemIndex, input.sources);
	for (const [path, slot] of slots) await adapter.checkNamedTwice(path, slot);
	const { problems } = adapter;
	if (!problems.length) return;
	throw localError(run, 'INSURER_NAMED_TWICE', `The invoice was not sent: ${problems[0]}`, {
		itemIndex,
		fields: problems,
		description: [...problems, 'Nothing was filed: only look-ups were made.'].join('\n'),
	});
}

/** The account options an operation reads (Options → Unknown Line of Business Name). */
export interface AccountOptions {
	unknownLob: UnknownLob;
}

/** The row as this account needs it sent; throws, before any filing call, what cannot be adapted. */
export async function adaptToAccount(
	run: Run,
	input: InvoiceInput,
	itemIndex: number,
	options: AccountOptions,
	mode: 'full' | 'partial' = 'full',
): Promise<AdaptedInput> {
	await refuseInsurersNamedTwice(run, input, itemIndex);
	const missing = await missingFeatures(run, input.body, itemIndex);
	if (!missing.length) return { ...input, adapted: [] };
	const body = deepCopy(input.body);
	const adapter = new Adapter(run, itemIndex, input.sources);
	if (missing.includes(FEATURES.carrierLookup)) {
		for (const [path, slot] of insurerSlots(body))
			if (looksUp(slot)) await adapter.resolveInsurer(path, slot);
	}
	if (missing.includes(FEATURES.lobName)) {
		const unknown = options.unknownLob;
		for (const [prefix, holder] of lobHolders(body))
			if (namesLob(holder)) await adapter.resolveLob(prefix, holder, unknown);
	}
	if (missing.includes(FEATURES.transactionEffectiveDate)) adapter.moveChangeDate(body, mode);
	const { problems } = adapter;
	if (problems.length) {
		throw localError(run, 'NOT_SENDABLE_ON_ACCOUNT', `The invoice was not sent: ${problems[0]}`, {
			itemIndex,
			fields: problems,
			description: [
				...problems,
				'Fix the row and run again. Nothing was filed: only look-ups were made.',
			].join('\n'),
		});
	}
	return { ...input, body, adapted: adapter.adapted };
}

/** Says on an output item what was sent instead of what the row gave (nothing when none). */
export function noteAdaptations(json: IDataObject, adapted: Adaptation[]): IDataObject {
	if (adapted.length) json._adapted = adapted as unknown as IDataObject[];
	return json;
}
