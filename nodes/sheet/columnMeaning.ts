/**
 * Map Automatically: columns whose meaning goes beyond the one field they fill, checked against
 * the row's other columns before any call. Where the package cannot tell what the sheet means,
 * the row is refused naming the columns and values:
 * - a premium column named a total ("Total Premium") beside fee or tax columns with amounts may
 *   include them, and would be counted twice;
 * - an insurer's percent and amount that give different shares of the premium;
 * - a date of a change on a new or renewal row that is not the policy's effective date.
 */
import type { SettledColumns } from './columnRules';
import { headerWords } from './columnWords';
import { readTransaction } from './transactionTypes';
import { isBlankValue, readAmount, readDate, readPercent } from '../shared/values';

const shown = (value: unknown) =>
	typeof value === 'string' ? value.trim() : JSON.stringify(value ?? null);

const amountOf = (value: unknown) => {
	const read = readAmount(value);
	return read.ok ? read.value : undefined;
};

/** A total premium beside fee or tax amounts: refused, the package cannot tell what it holds. */
function totalPremium(settled: SettledColumns): void {
	const column = settled.names.net_premium;
	if (!column || !headerWords(column).includes('total')) return;
	const fees = Object.keys(settled.values).filter((id) => {
		const value = amountOf(settled.values[id]);
		return id.startsWith('fee_') && value !== undefined && value !== 0;
	});
	if (!fees.length) return;
	const beside = fees.map((id) => `"${settled.names[id]}" (${shown(settled.values[id])})`);
	settled.problems.push(
		`net_premium: column "${column}" (${shown(settled.values.net_premium)}) is a total, and the row also gives ${beside.join(', ')}, which a total premium may include (they would be counted twice); the package cannot tell, so the row is not filed. Give the premium without fees and taxes in a "Premium" column, or map the columns by hand (Map Each Column Manually)`,
	);
}

/** An insurer's percent and amount that disagree with the premium: refused naming both. */
function insurerShares(settled: SettledColumns): void {
	const premium = amountOf(settled.values.net_premium);
	if (premium === undefined) return;
	for (const id of Object.keys(settled.values)) {
		const n = /^insurer_(\d+)_percent$/.exec(id)?.[1];
		const amountId = `insurer_${n}_amount`;
		if (!n || isBlankValue(settled.values[amountId])) continue;
		const percent = readPercent(settled.values[id]);
		const amount = amountOf(settled.values[amountId]);
		if (!percent.ok || percent.value === undefined || amount === undefined) continue;
		const share = Math.round(Math.abs(premium) * percent.value) / 100;
		if (Math.abs(share - Math.abs(amount)) <= 0.01) continue;
		settled.problems.push(
			`insurers: columns "${settled.names[id]}" (${shown(settled.values[id])}) and "${settled.names[amountId]}" (${shown(settled.values[amountId])}) give insurer ${n} different shares: ${percent.value}% of the premium ${Math.abs(premium)} is ${share}, not ${Math.abs(amount)}, so the row is not filed; make them agree or leave one empty`,
		);
	}
}

const NOT_CHANGES = new Set(['NEW', 'RENEWAL']);

/**
 * A date of a change on a new or renewal row that is not the policy's effective date: the
 * package cannot tell which date the sheet means the transaction to take effect.
 */
function changeDateOfNewPolicy(settled: SettledColumns): void {
	const { values, names } = settled;
	const type = readTransaction(values.type_code);
	const code = type.ok ? (type.value?.code ?? 'NEW') : undefined;
	if (!code || !NOT_CHANGES.has(code) || isBlankValue(values.transaction_effective_date)) return;
	const change = readDate(values.transaction_effective_date);
	const effective = readDate(values.effective_date);
	if (!change.ok || !effective.ok || !effective.value || change.value === effective.value) return;
	settled.problems.push(
		`transaction_effective_date: column "${names.transaction_effective_date}" (${shown(values.transaction_effective_date)}) gives a date of a change, and this row is a ${code} whose policy takes effect on column "${names.effective_date}" (${shown(values.effective_date)}); the package cannot tell which date the transaction takes effect, so the row is not filed; leave the change date empty on a new or renewal row, or give the type of the change`,
	);
}

/** The checks above, adding their refusals to `settled.problems`. */
export function checkColumnMeanings(settled: SettledColumns): void {
	totalPremium(settled);
	insurerShares(settled);
	changeDateOfNewPolicy(settled);
}
