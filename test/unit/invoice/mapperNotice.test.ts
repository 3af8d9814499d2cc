/**
 * Issue 40: the notice over Map Columns is a few lines with a link to the doc on reading sheets,
 * and it answers n8n's own note under the mapper ("make sure the incoming data fields are named
 * the same as the invoice fields"), which n8n shows in Map Automatically whatever the node says.
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

	it('says plainly that no renaming is needed, whatever n8n’s note under the mapper says', () => {
		for (const notice of notices) {
			expect(text(notice.displayName)).toContain('No renaming is needed');
			expect(text(notice.displayName)).toContain('n8n’s note below');
		}
	});
});
