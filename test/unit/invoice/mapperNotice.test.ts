/**
 * Issue 40: the notice over Map Columns is a few lines with a link to the doc on reading sheets,
 * and it agrees with n8n's own note under the mapper ("make sure the incoming data fields are named
 * the same as the invoice fields"), which n8n shows in Map Automatically whatever the node says
 * (its resource mapper settings can hide it only in update and upsert modes): issue 46.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { SurplusLinesInvoice } from '../../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';

const notices = new SurplusLinesInvoice().description.properties.filter((p) => p.name === 'columnsNotice');
const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('the Map Columns notice', () => {
	it('is shown on Map Columns, once per node version', () => {
		expect(notices.length).toBeGreaterThan(0);
		for (const notice of notices) expect(notice.displayOptions?.show?.inputMode).toEqual(['columns']);
	});

	it('is a few lines (at most 600 characters of text, about five lines of the panel)', () => {
		for (const notice of notices) expect(text(notice.displayName).length).toBeLessThanOrEqual(600);
	});

	it('links to docs/reading-sheets.md, a page of this repository', () => {
		for (const notice of notices) {
			const link = /<a href="([^"]+)"/.exec(notice.displayName)?.[1] ?? '';
			expect(link).toMatch(/\/blob\/main\/docs\/reading-sheets\.md$/);
			expect(existsSync(join(__dirname, '..', '..', '..', 'docs', 'reading-sheets.md'))).toBe(true);
		}
	});

	it('agrees with n8n’s note under the mapper: says which names count as the invoice fields’ and when to rename', () => {
		for (const notice of notices) {
			const said = text(notice.displayName);
			// n8n's note asks for fields named as the invoice fields: the notice says the headers read as them count.
			expect(said).toContain('as n8n’s note below asks');
			expect(said).toMatch(/Policy #, Insured Name, State/);
			expect(said).toContain('Rename only a header the node does not know');
			// Nothing that reads as contradicting n8n's note.
			expect(said).not.toMatch(/no renaming is needed|whatever n8n/i);
		}
	});
});
