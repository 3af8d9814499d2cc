/**
 * The states' surplus lines filing deadlines: one table, each rule with the source it was read
 * from and the day it was read, that the answers (what is late), the docs (docs/month-end.md
 * prints it) and the tests read. A state whose rule was not found in a source says so, and no
 * deadline is given for it: never a guess. The deadline counts from the transaction's own date
 * (a change's: the date of the change), as each source words it.
 */
import type { IDataObject } from 'n8n-workflow';

export interface DeadlineRule {
	/** Days after the transaction's effective date; undefined where the state sets none in days. */
	days?: number;
	/** The rule in the source's own terms. */
	rule: string;
	source: string;
	/** The day the source was read (YYYY-MM-DD). */
	read: string;
}

const READ = '2026-11-28';

/** Each state whose rule was found, by its two-letter code. Every other state: not found. */
export const DEADLINE_RULES: Readonly<Record<string, DeadlineRule>> = {
	CA: {
		days: 60,
		rule: 'new and renewal policies submitted to the Surplus Line Association of California within 60 days of the policy effective date; documents received more than 60 days after the insurance is placed are late filings',
		source: 'https://www.slacal.com/resources/frequently-asked-questions/filing-procedures/page/2',
		read: READ,
	},
	FL: {
		days: 30,
		rule: 'every premium-bearing policy transaction submitted to the Florida Surplus Lines Service Office within thirty days from the effective date of the policy transaction',
		source: 'https://www.fslso.com/filing',
		read: READ,
	},
	IL: {
		rule: 'no number of days after the effective date is set as a filing deadline; a policy or premium-bearing endorsement may not be delivered to the insured before it shows evidence of its filing with the Surplus Line Association of Illinois',
		source: 'https://www.slai.org/?p=3720',
		read: READ,
	},
	NY: {
		days: 45,
		rule: 'affidavits and transaction documents submitted to the Excess Line Association of New York within 45 days of the policy effective date (45 days after the policy is procured)',
		source: 'https://elany.org/procedures-manual?d=1210',
		read: READ,
	},
	TX: {
		days: 60,
		rule: 'a copy of each executed policy or other evidence of coverage, including additions, deletions or cancellations, filed with the stamping office within 60 days of issuance or the effective date, whichever is later (28 TAC §15.101; the package counts from the effective date: a later issuance gives more time)',
		source: 'https://texreg.sos.state.tx.us/public/readtac$ext.TacPage?sl=T&app=9&p_dir=P&p_rloc=193678&p_tloc=&p_ploc=1&pg=8&p_tac=&ti=28&pt=1&ch=15&rl=101',
		read: READ,
	},
};

const DAY_MS = 86_400_000;
const dayNumber = (day: string): number | undefined => {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
	return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS : undefined;
};
const dayText = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/**
 * A transaction's deadline in its state: the rule, its source, the due day and the days left
 * (negative: overdue) as of `today` (YYYY-MM-DD). `from`: the transaction's own date.
 */
export function deadlineOf(state: unknown, from: string | undefined, today: string): IDataObject {
	const code = String((state && typeof state === 'object' ? (state as IDataObject).code : state) ?? '').trim().toUpperCase();
	const rule = DEADLINE_RULES[code];
	if (!rule)
		return {
			state: code || null,
			rule: `not found: the package has no source for ${code || 'this state'}'s surplus lines filing deadline, so none is given (check the state's stamping office or department)`,
			due_date: null,
			days_left: null,
		};
	const start = from ? dayNumber(from) : undefined;
	const now = dayNumber(today);
	if (rule.days === undefined || start === undefined || now === undefined)
		return { state: code, rule: rule.rule, source: rule.source, read: rule.read, due_date: null, days_left: null };
	const due = start + rule.days;
	const left = due - now;
	return {
		state: code,
		rule: rule.rule,
		source: rule.source,
		read: rule.read,
		due_date: dayText(due),
		days_left: left,
		said: left < 0 ? `${-left} days overdue (due ${dayText(due)})` : left === 0 ? `due today (${dayText(due)})` : `${left} days left (due ${dayText(due)})`,
	};
}
