/**
 * Taxes for a whole sheet at batch cost (Create Many's Bill Taxes From Preview and Sheet Tax
 * Check). Rows are grouped by state and rate period; one calculator estimate per group learns the
 * state's lines, rates, taxed fees and rounding, one more the rules of the fee codes its rows
 * carry where the state treats a category's codes apart (rates.ts), and each row's lines are
 * computed from them. The service's preview stays the authority:
 * - each group (and each kind of row in it the computation treats apart: a change where a flat
 *   charge is skipped, a returned premium) is confirmed against the preview of one of its rows,
 *   its latest; a group that does not match is previewed row by row, and the run says so;
 * - rows on a rounding tie are computed once their group is confirmed and the run's one check of
 *   the rounding at a tie (per rounding rule and sign, on a row where half up and half to even
 *   differ when there is one) matched;
 * - a row whose sheet taxes differ from the computation, or whose figures the model cannot give
 *   (rates.ts lists why), gets its own preview, and its figures are the preview's: a refusal
 *   rests on the service's figure, a billed line is one it computes.
 * Rate periods: a state's rows' first date is estimated, its last read from the preview of a row
 * of that date (which then confirms its set); where the rates differ, the first date of a new year
 * or half-year is tried first (the date before it read from a preview that confirms the earlier
 * period), then the dates between are halved until the first date of the new rates is found (the
 * assumption this rests on is in nodes/shared/service.ts). Each preview is asked once per row.
 * Without the calculator (no scope on the key, switched off on the account) every row is
 * previewed, and the run's warning names the cost.
 */
import type { IDataObject } from 'n8n-workflow';

import { readErrorInfo } from '../shared/errors';
import type { Run as NodeRun } from '../shared/run';
import { isValidDate } from '../shared/rules';
import { sheetRow } from '../shared/sheetRows';
import { CALCULATOR_SCOPE, FLAT_CHARGE_SKIPPED_ON, TAX_DATE_FIELD } from '../shared/service';
import type { ApiReply } from '../shared/transport';
import type { InvoiceInput } from '../sheet';
import { previewInvoice } from './preview';
import {
	codesBody,
	computeTaxes,
	describeRates,
	learnCodes,
	learnModel,
	probeBody,
	readRates,
	sameRates,
	taxDifference,
	unlearned,
	type StateRates,
	type TaxModel,
} from './rates';
import { hasSheetTaxes, sheetTaxesDiffer, type TaxCheckSettings } from './sheetCheck';

export interface TaxRow {
	index: number;
	/** The body to file, before tax lines are added. */
	body: IDataObject;
	input: Pick<InvoiceInput, 'body' | 'totals' | 'sources' | 'converted'>;
}

/** The row's figures shaped as a preview's reply, and how they were obtained. */
export type RowTaxes =
	| { reply: Pick<ApiReply<IDataObject>, 'data' | 'requestId'>; how: string }
	| { error: Error };

export interface BatchTaxes {
	rows: Map<number, RowTaxes>;
	/** How the taxes were obtained: groups, calls by kind, rows with their own preview and why. */
	summary: string;
	/** Set when the calculator could not be used: every row was previewed. */
	warning?: string;
}

/** A row's computed figures; `odd`: on a tie where half up and half to even differ. */
interface Computed {
	row: TaxRow;
	tax: IDataObject;
	odd: boolean;
}

type Limit = <T>(work: () => Promise<T>) => Promise<T>;

function pool(most: () => number): Limit {
	let active = 0;
	const waiting: Array<() => void> = [];
	return async (work) => {
		while (active >= most()) await new Promise<void>((go) => waiting.push(go));
		active++;
		try {
			return await work();
		} finally {
			active--;
			waiting.shift()?.();
		}
	};
}

class Unusable extends Error {}

const dateOf = (row: TaxRow) => String(row.body[TAX_DATE_FIELD]);

/** One run's work: the calls, what each row got, and what is said about it. */
class Run {
	readonly rows = new Map<number, RowTaxes>();
	estimates = 0;
	/** Of the estimates, those learning fee codes one by one (rates.ts learnCodes). */
	codeEstimates = 0;
	confirmations = 0;
	/** Every preview asked: confirmations, rows' own, and those that only gave a period's rates. */
	previewCalls = 0;
	groups = 0;
	readonly ownReasons = new Map<string, number>();
	readonly fellBack: string[] = [];
	private readonly previews = new Map<number, Promise<ApiReply<IDataObject>>>();
	/** The run's checks of the rounding at a tie, per rounding rule, sign and oddness. */
	private readonly tieChecks = new Map<string, Promise<string | undefined>>();

	constructor(
		private readonly node: NodeRun,
		private readonly limit: Limit,
		private readonly check: TaxCheckSettings | undefined,
	) {}

	/** A calculator estimate, counted. */
	private async ask(body: IDataObject, itemIndex: number): Promise<IDataObject> {
		this.estimates++;
		const reply = await this.limit(() => this.node.service.estimate(body, itemIndex));
		return reply.data as IDataObject;
	}

	async estimate(state: string, date: string, itemIndex: number): Promise<TaxModel> {
		const model = learnModel(state, date, await this.ask(probeBody(state, date), itemIndex));
		if ('problem' in model) throw new Unusable(model.problem);
		return model;
	}

	/**
	 * The model with the rules of the unsettled codes the rows carry learned, by one estimate at
	 * the period's first date; the model as it is when they carry none.
	 */
	async learnCodesOf(model: TaxModel, rows: TaxRow[], date: string): Promise<TaxModel> {
		const carried = new Set(
			rows.flatMap((row) =>
				(Array.isArray(row.body.fees) ? (row.body.fees as IDataObject[]) : []).map((f) =>
					String(f.type),
				),
			),
		);
		const codes = [...model.unsettled.keys()].filter((code) => carried.has(code));
		if (!codes.length) return model;
		this.codeEstimates++;
		try {
			const reply = await this.ask(codesBody(model.state, date, codes), rows[0].index);
			return learnCodes(model, codes, reply);
		} catch (error) {
			return unlearned(model, codes, `its estimate failed: ${(error as Error).message}`);
		}
	}

	/** Asked once per row: the preview that gives a period's last rates also confirms its set. */
	preview(row: TaxRow): Promise<ApiReply<IDataObject>> {
		if (!this.previews.has(row.index)) {
			this.previewCalls++;
			this.previews.set(
				row.index,
				this.limit(() => previewInvoice(this.node, row.body, row.index)),
			);
		}
		return this.previews.get(row.index)!;
	}

	/**
	 * The rates in force on a date, read from the preview of a row of that date (the one its set's
	 * confirmation then reuses); undefined when no row fits or its preview does not say.
	 */
	async ratesOn(rows: TaxRow[], date: string, model: TaxModel): Promise<StateRates | undefined> {
		const fits = (row: TaxRow) =>
			dateOf(row) === date &&
			!FLAT_CHARGE_SKIPPED_ON.includes(String(row.body.type_code)) &&
			Number(row.body.net_premium) > 0;
		// Where the rates are the model's, a row off a tie and right is the one its set's confirmation reuses.
		const offTie = (row: TaxRow) => {
			const computed = computeTaxes(model, row.body);
			return (
				!('unsure' in computed) && !computed.tie && !this.differs(row, computed.taxCalculation)
			);
		};
		const candidates = rows.filter(fits);
		const row = candidates.filter(offTie).pop() ?? candidates.pop();
		if (!row) return undefined;
		try {
			const reply = await this.preview(row);
			return readRates(reply.data.tax_calculation as IDataObject | undefined);
		} catch {
			return undefined;
		}
	}

	/** The row's own preview gives its figures; `reason` says why it has one. */
	async own(row: TaxRow, reason: string): Promise<void> {
		this.ownReasons.set(reason, (this.ownReasons.get(reason) ?? 0) + 1);
		try {
			const reply = await this.preview(row);
			this.rows.set(row.index, { reply, how: `its own preview (${reason})` });
		} catch (error) {
			this.rows.set(row.index, { error: error as Error });
		}
	}

	/** Whether the row's sheet taxes differ from the computation: its own preview then decides. */
	private differs(row: TaxRow, taxCalculation: IDataObject): boolean {
		if (!this.check || !hasSheetTaxes(row.input)) return false;
		return sheetTaxesDiffer(row.input, taxCalculation, this.check.tolerance);
	}

	/**
	 * A group's rows of one kind: the rows off a tie confirmed by the preview of one of them, then
	 * computed. Rows on a rounding tie are computed when that confirmation holds and the run's
	 * check of the rounding at a tie does (tieCheck); a group of ties alone is its own set.
	 */
	async confirmAndCompute(model: TaxModel, rows: TaxRow[], period: string): Promise<void> {
		const plain: Computed[] = [];
		const ties: Computed[] = [];
		const work: Array<Promise<unknown>> = [];
		for (const row of rows) {
			const computed = computeTaxes(model, row.body);
			if ('unsure' in computed) work.push(this.own(row, computed.unsure.replace(/^its /, 'a ')));
			// Sent at once, beside the group's confirmation: the verdict rests on the row's preview.
			else if (this.differs(row, computed.taxCalculation))
				work.push(this.own(row, 'its sheet taxes differ from the computation'));
			else
				(computed.tie ? ties : plain).push({
					row,
					tax: computed.taxCalculation,
					odd: computed.tie?.odd === true,
				});
		}
		if (!plain.length) work.push(this.confirmSet(model, ties, period, ', rows on a rounding tie'));
		else {
			const confirmed = this.confirmSet(model, plain, period, '');
			work.push(confirmed);
			if (ties.length) work.push(this.computeTies(model, ties, period, confirmed));
		}
		await Promise.all(work);
	}

	/** Rows on a tie of a group whose rates a preview confirmed (`confirmed` says by which row). */
	private async computeTies(
		model: TaxModel,
		ties: Computed[],
		period: string,
		confirmed: Promise<string | undefined>,
	) {
		const sign = Number(ties[0].row.body.net_premium) < 0 ? 'returned' : 'paid';
		const odd = ties.some((c) => c.odd);
		const key = (oddness: boolean) => `${model.rounding}|${sign}|${oddness}`;
		// An odd tie tells half up from half to even; a check on one serves even ties too.
		let check = this.tieChecks.get(key(true)) ?? (odd ? undefined : this.tieChecks.get(key(false)));
		let own: Computed | undefined;
		if (!check) {
			const asked = ties.filter((c) => this.previews.has(c.row.index));
			own = [...asked, ...ties].find((c) => c.odd === odd);
			check = this.tieCheck(own!, model.rounding, sign);
			this.tieChecks.set(key(odd), check);
		}
		const [rates, rounding] = await Promise.all([confirmed, check]);
		const rest = ties.filter((c) => c !== own);
		if (!rates || !rounding) {
			const why = rates
				? 'the rounding at a tie did not match its preview'
				: 'its group did not match its preview';
			await Promise.all(rest.map(({ row }) => this.own(row, why)));
			return;
		}
		const how = `computed from ${period} (${describeRates(model)}), rows on a rounding tie, confirmed by the preview of row ${rates} and the rounding at a tie by the preview of row ${rounding}`;
		for (const { row, tax } of rest)
			this.rows.set(row.index, {
				reply: { data: { validation: { errors: [] }, tax_calculation: tax } },
				how,
			});
	}

	/** The run's check of how the service rounds at a tie: the row's number when it matched. */
	private async tieCheck(tie: Computed, rounding: string, sign: string) {
		this.confirmations++;
		const difference = await this.compare(
			tie,
			'its own preview, which confirmed the rounding at a tie',
		);
		if (!difference) return String(sheetRow(this.node, tie.row.index));
		this.fellBack.push(
			`rows on a rounding tie (${rounding}, premium ${sign}): the computation did not match the preview of row ${sheetRow(this.node, tie.row.index)} (${difference}); the other such rows were previewed one by one`,
		);
		return undefined;
	}

	/** The row's preview against its computation: undefined when they agree. */
	private async compare(chosen: Computed, how: string): Promise<string | undefined> {
		try {
			const reply = await this.preview(chosen.row);
			const served = reply.data.tax_calculation as IDataObject | undefined;
			this.rows.set(chosen.row.index, { reply, how });
			return served ? taxDifference(chosen.tax, served) : 'the preview has no taxes';
		} catch (error) {
			this.rows.set(chosen.row.index, { error: error as Error });
			return `its preview failed (${(error as Error).message})`;
		}
	}

	/**
	 * Confirmed by the preview of one row (one already previewed first, then an odd tie, then the
	 * latest), then computed; else previewed. The confirming row's number, when it matched.
	 */
	private async confirmSet(
		model: TaxModel,
		set: Computed[],
		period: string,
		kind: string,
	): Promise<string | undefined> {
		const asked = (c: Computed) => this.previews.has(c.row.index);
		const later = (best: Computed | undefined, c: Computed) =>
			!best ||
			(asked(c) && !asked(best)) ||
			(asked(c) === asked(best) &&
				((c.odd && !best.odd) || (c.odd === best.odd && dateOf(c.row) >= dateOf(best.row))))
				? c
				: best;
		const chosen = set.reduce<Computed | undefined>(later, undefined);
		if (!chosen) return undefined;
		// A preview asked for the period's last rates is already counted among the calls.
		this.confirmations++;
		const difference = await this.compare(chosen, 'its own preview, which confirmed its group');
		const others = set.filter((c) => c !== chosen);
		if (difference) {
			this.fellBack.push(
				`${period}${kind}: the computation did not match the preview of row ${sheetRow(this.node, chosen.row.index)} (${difference}); its ${others.length} other rows were previewed one by one`,
			);
			await Promise.all(
				others.map(({ row }) => this.own(row, 'its group did not match its preview')),
			);
			return undefined;
		}
		const how = `computed from ${period} (${describeRates(model)})${kind}, confirmed by the preview of row ${sheetRow(this.node, chosen.row.index)}`;
		for (const { row, tax } of others)
			this.rows.set(row.index, {
				reply: { data: { validation: { errors: [] }, tax_calculation: tax } },
				how,
			});
		return String(sheetRow(this.node, chosen.row.index));
	}

	/** The state's rate periods over its rows' dates, each with the model of its first date. */
	async periods(state: string, rows: TaxRow[], dates: string[], first: TaxModel) {
		const itemIndex = rows[0].index;
		const models = new Map<number, Promise<StateRates>>([[0, Promise.resolve(first)]]);
		const at = (n: number) => {
			if (!models.has(n)) models.set(n, this.estimate(state, dates[n], itemIndex));
			return models.get(n)!;
		};
		// A period's last date: its rates from a row's preview (its set's confirmation), else an estimate.
		const previewed = (n: number) => {
			if (!models.has(n))
				models.set(
					n,
					this.ratesOn(rows, dates[n], first).then(
						(rates) => rates ?? this.estimate(state, dates[n], itemIndex),
					),
				);
			return models.get(n)!;
		};
		if (dates.length > 1) void previewed(dates.length - 1).catch(() => undefined);
		const modelAt = async (n: number): Promise<TaxModel> => {
			const rates = await at(n);
			if ('state' in rates) return rates as TaxModel;
			// Rates read from a preview carry no fee rules: the period's model is estimated.
			models.set(n, this.estimate(state, dates[n], itemIndex));
			return (await models.get(n)!) as TaxModel;
		};
		const found: Array<{ from: number; to: number; model: TaxModel }> = [];
		let from = 0;
		while (from < dates.length) {
			let [same, other] = [from, dates.length - 1];
			// Both ends asked at once.
			const end = other > from ? at(other) : undefined;
			// Its failure is the state's, met below when awaited; unawaited it would be unhandled.
			end?.catch(() => undefined);
			const model = await modelAt(from);
			if (end && sameRates(await end, model)) same = other;
			// Rates change most often on a new year or half-year: those dates first, and where the
			// rates changed there, the date before read from a preview that confirms the earlier period.
			for (
				let guess = likelyChange(dates, same, other);
				guess !== undefined;
				guess = likelyChange(dates, same, other)
			) {
				if (sameRates(await at(guess), model)) same = guess;
				else if (sameRates(await previewed(guess - 1), model)) [same, other] = [guess - 1, guess];
				else other = guess - 1;
			}
			while (other - same > 1) {
				const middle = Math.floor((same + other) / 2);
				if (sameRates(await at(middle), model)) same = middle;
				else other = middle;
			}
			found.push({ from, to: same, model });
			from = same + 1;
		}
		return found;
	}

	async state(state: string, rows: TaxRow[], first: TaxModel): Promise<void> {
		const dates = [...new Set(rows.map(dateOf))].sort();
		const periods = await this.periods(state, rows, dates, first);
		await Promise.all(
			periods.map(async ({ from, to, model }) => {
				const inPeriod = rows.filter((r) => dateOf(r) >= dates[from] && dateOf(r) <= dates[to]);
				await this.period(
					await this.learnCodesOf(model, inPeriod, dates[from]),
					inPeriod,
					dates,
					from,
					to,
				);
			}),
		);
	}

	/** A state's rate period: each kind of row the computation treats apart confirmed on its own. */
	private async period(
		model: TaxModel,
		inPeriod: TaxRow[],
		dates: string[],
		from: number,
		to: number,
	) {
		this.groups++;
		const period = `the ${model.state} rates in force on ${dates[from]}${to > from ? ` to ${dates[to]}` : ''}`;
		const flat = model.lines.some((l) => l.flat);
		const kinds = new Map<string, TaxRow[]>();
		for (const row of inPeriod) {
			const change = flat && FLAT_CHARGE_SKIPPED_ON.includes(String(row.body.type_code));
			const kind = `${change ? 'change' : ''}|${Number(row.body.net_premium) < 0 ? 'return' : ''}`;
			if (!kinds.has(kind)) kinds.set(kind, []);
			kinds.get(kind)!.push(row);
		}
		await Promise.all(
			[...kinds.values()].map((rows) => this.confirmAndCompute(model, rows, period)),
		);
	}
}

/**
 * The first index after same, up to other, whose date starts a new year, else a new half-year, after the
 * date before it: where a rate change most likely falls. Undefined when there is none.
 */
function likelyChange(dates: string[], same: number, other: number): number | undefined {
	if (other - same <= 1) return undefined;
	const half = (date: string) => `${date.slice(0, 4)}-${date.slice(5, 7) <= '06' ? 1 : 2}`;
	const inside = Array.from({ length: other - same }, (_, n) => same + 1 + n);
	return (
		inside.find((k) => dates[k].slice(0, 4) !== dates[k - 1].slice(0, 4)) ??
		inside.find((k) => half(dates[k]) !== half(dates[k - 1]))
	);
}

const groupable = (row: TaxRow) =>
	/^[A-Z]{2}$/.test(String(row.body.state_code)) &&
	isValidDate(row.body[TAX_DATE_FIELD]) &&
	Number.isFinite(Number(row.body.net_premium)) &&
	Number(row.body.net_premium) !== 0;

/** What the calculator's 403 says, when it is one (the key lacks the scope, the account has it off). */
function calculatorRefusal(error: unknown): string | undefined {
	const info = readErrorInfo(error);
	return info?.code === 'FORBIDDEN' ? info.message : undefined;
}

/** The state's first estimate, at its earliest date. */
function firstEstimate(run: Run, state: string, stateRows: TaxRow[]): Promise<TaxModel> {
	const date = stateRows.map(dateOf).sort()[0];
	return run.estimate(state, date, stateRows[0].index);
}

/**
 * Why the account check (made once per execution anyway) says the calculator cannot be used;
 * undefined when it can, null when the check did not answer.
 */
async function calculatorOff(
	node: NodeRun,
	itemIndex: number,
): Promise<string | undefined | null> {
	try {
		const me = await node.service.me(itemIndex);
		if (!me.scopes.includes(CALCULATOR_SCOPE)) return 'the key lacks the calculator scope';
		if (me.calculatorEnabled === false) return 'the calculator is switched off for the account';
		return undefined;
	} catch {
		return null;
	}
}

export async function taxesAtBatchCost(
	node: NodeRun,
	rows: TaxRow[],
	check: TaxCheckSettings | undefined,
): Promise<BatchTaxes> {
	const run = new Run(node, pool(await node.service.inFlight()), check);
	const byState = new Map<string, TaxRow[]>();
	const work: Array<Promise<void>> = [];
	for (const row of rows) {
		if (!groupable(row)) work.push(run.own(row, 'its state, date or premium is not one to group'));
		else {
			const state = String(row.body.state_code);
			if (!byState.has(state)) byState.set(state, []);
			byState.get(state)!.push(row);
		}
	}
	const states = [...byState.entries()];
	const grouped = states.reduce((n, [, stateRows]) => n + stateRows.length, 0);
	let off = states.length ? await calculatorOff(node, rows[0].index) : undefined;
	// Where the account check did not tell, the first estimate alone does: one call, not one per state.
	let first: Promise<TaxModel> | undefined;
	if (off === null) {
		first = firstEstimate(run, ...states[0]);
		off = await first.then(
			() => undefined,
			(error: unknown) => calculatorRefusal(error),
		);
	}
	if (typeof off === 'string') {
		for (const row of states.flatMap(([, stateRows]) => stateRows))
			work.push(run.own(row, 'the calculator is not available to this key'));
	} else {
		for (const [position, [state, stateRows]] of states.entries()) {
			const starting = position === 0 && first ? first : firstEstimate(run, state, stateRows);
			work.push(
				starting
					.then((model) => run.state(state, stateRows, model))
					.catch(async (error: unknown) => {
						const why = error instanceof Unusable ? error.message : (error as Error).message;
						run.fellBack.push(
							`${state}: ${why}; its ${stateRows.length} rows were previewed one by one`,
						);
						await Promise.all(
							stateRows
								.filter((row) => !run.rows.has(row.index))
								.map((row) => run.own(row, 'its state could not be computed')),
						);
					}),
			);
		}
	}
	const warning =
		typeof off !== 'string'
			? undefined
			: `The calculator is not available to this key (${off}), so the taxes of ${grouped} rows come from a preview per row: ${grouped} calls of the key's hourly limit instead of about ${states.length * 2} (an estimate and a confirming preview per state and rate period). Ask the operator for the calculator scope on this key, or to enable the calculator for the account.`;
	await Promise.all(work);
	const own = [...run.ownReasons.entries()].map(([reason, n]) => `${n}: ${reason}`);
	const owned = [...run.ownReasons.values()].reduce((a, b) => a + b, 0);
	const ratesOnly = run.previewCalls - run.confirmations - owned;
	const summary = [
		`Taxes of ${rows.length} rows: ${run.groups} groups (state and rate period).`,
		` Calls: ${run.estimates + run.previewCalls} in all, ${run.estimates} calculator estimates`,
		run.codeEstimates ? ` (${run.codeEstimates} of them learning fee codes one by one)` : '',
		`, ${run.confirmations} previews confirming a group`,
		ratesOnly > 0 ? `, ${ratesOnly} previews read for a period's rates alone` : '',
		`, ${owned} rows' own previews`,
		own.length ? ` (${own.join('; ')})` : '',
		'.',
		run.fellBack.length ? ` Previewed row by row: ${run.fellBack.join('; ')}.` : '',
	].join('');
	return { rows: run.rows, summary, ...(warning ? { warning } : {}) };
}
