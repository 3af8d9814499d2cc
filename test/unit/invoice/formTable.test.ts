/**
 * The one table of the same-filing rule (filing/sameFiling.ts FIELDS: what tells transactions
 * apart, what counts as form) and its copy in docs/safe-reruns.md are one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { FIELDS } from '../../../nodes/filing/sameFiling';

const TELLS = { always: 'yes', whenBothCarry: 'when both carry one', no: 'no' } as const;

export function tableRows(): string {
	return FIELDS.filter((field) => field.name !== 'coverages_and_insurers_as_sent')
		.map((field) => `| \`${field.name}\` | ${TELLS[field.tellsApart]} | ${field.form} |`)
		.join('\n');
}

describe('the form rules table', () => {
	it('docs/safe-reruns.md prints the rule’s own table, row for row', () => {
		const doc = readFileSync(join(__dirname, '../../../docs/safe-reruns.md'), 'utf8');
		const header = '| Field | Tells transactions apart | Differences of form only |\n|---|---|---|\n';
		expect(doc).toContain(`${header}${tableRows()}\n\n`);
	});
});
