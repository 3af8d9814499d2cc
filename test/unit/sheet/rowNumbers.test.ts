/**
 * Issue 53: one row numbering. A row is named as its file shows it: the header is row 1, or the
 * line Extract From File was told it is on (Starting Line for a CSV report with title lines above
 * its header, Range for an XLSX), so a report's refusals point to the file's own lines.
 */
import type { IDataObject } from 'n8n-workflow';

import { rowLabel, sheetRow, type Rows } from '../../../nodes/shared/sheetRows';

function ctxOf(parent: { type: string; parameters?: IDataObject } | undefined, items: IDataObject[] = [{}, {}, {}]): Rows {
	return { items: items.map((json) => ({ json })), parents: () => (parent ? [parent] : []), say: () => undefined };
}

describe('the row of an item as its file shows it', () => {
	it('behind a plain Extract From File the header is row 1: item 0 is row 2', () => {
		expect(sheetRow(ctxOf({ type: 'n8n-nodes-base.extractFromFile', parameters: { operation: 'csv', options: {} } }), 0)).toBe(2);
	});

	it('Starting Line 4 (a report with three title lines): item 0 is the file’s line 5', () => {
		const ctx = ctxOf({ type: 'n8n-nodes-base.extractFromFile', parameters: { operation: 'csv', options: { fromLine: 4 } } });
		expect([sheetRow(ctx, 0), sheetRow(ctx, 2)]).toEqual([5, 7]);
		expect(rowLabel(ctx, 2)).toBe('row 7 (item 2)');
	});

	it('an item’s own row_number wins; another parent node leaves the header on row 1', () => {
		expect(sheetRow(ctxOf({ type: 'n8n-nodes-base.extractFromFile', parameters: { options: { fromLine: 4 } } }, [{ row_number: 9 }]), 0)).toBe(9);
		expect(sheetRow(ctxOf({ type: 'n8n-nodes-base.code', parameters: { options: { fromLine: 4 } } }), 0)).toBe(2);
	});
});
