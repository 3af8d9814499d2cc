/**
 * The states' filing deadlines (issue 55): one table, with a source for each state, that the
 * answers and docs/month-end.md read alike; a state without a source gives no deadline.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { DEADLINE_RULES, deadlineOf } from '../../../nodes/reconcile/deadlines';

describe('the deadline table', () => {
	it('docs/month-end.md prints exactly the table the code reads, each rule with its source', () => {
		const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'month-end.md'), 'utf8');
		const printed = [...doc.matchAll(/^\| ([A-Z]{2}) \| (\d+ days|none in days) \| (.+) \| \[source\]\((.+)\) \|$/gm)].map((m) => [m[1], m[2], m[3], m[4]]);
		const code = Object.entries(DEADLINE_RULES).map(([state, rule]) => [state, rule.days === undefined ? 'none in days' : `${rule.days} days`, rule.rule, rule.source]);
		expect(printed).toEqual(code);
		for (const rule of Object.values(DEADLINE_RULES)) {
			expect(rule.source).toMatch(/^https?:\/\//);
			expect(rule.read).toMatch(/^\d{4}-\d{2}-\d{2}$/);
		}
	});

	it('counts from the transaction’s date; a state without a source says not found and gives no day', () => {
		expect(deadlineOf('fl', '2026-10-01', '2026-11-05')).toMatchObject({ state: 'FL', due_date: '2026-10-31', days_left: -5, said: '5 days overdue (due 2026-10-31)' });
		expect(deadlineOf({ code: 'TX' }, '2026-10-01', '2026-10-01')).toMatchObject({ due_date: '2026-11-30', days_left: 60 });
		expect(deadlineOf('IL', '2026-10-01', '2026-10-01')).toMatchObject({ due_date: null, days_left: null, source: 'https://www.slai.org/?p=3720' });
		const unknown = deadlineOf('OH', '2026-10-01', '2026-10-01');
		expect(unknown).toMatchObject({ state: 'OH', due_date: null, days_left: null });
		expect(String(unknown.rule)).toMatch(/^not found/);
	});
});
