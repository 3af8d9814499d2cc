/**
 * Issue 49: a 100,000-character cell echoed in a refusal made a 400 KB error item (the value in the
 * message, the description, the fields and the row's identity). Every echoed value is cut.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { API, KEYS, meReply, run, setupSuite } from '../invoice/helpers';

setupSuite();
beforeEach(() => nock(API).get('/auth/me').reply(200, meReply()).persist());

const HUGE = 'x'.repeat(100_000);
const columns = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
const params = { operation: 'createMany', inputMode: 'columns', columns, idempotency: 'off' };

function row(cells: IDataObject): IDataObject {
	return {
		'Policy #': 'BDX-001',
		'Insured Name': 'Insured LLC',
		State: 'TX',
		'Transaction Type': 'New',
		'Eff Date': '03/01/2026',
		'Exp Date': '03/01/2027',
		Premium: '1000.00',
		'Insurer 1 NAIC': '90001',
		'Insurer 1 %': '100%',
		...cells,
	};
}

describe('a 100,000-character cell in a refusal', () => {
	it.each([
		['State', { State: HUGE }],
		['Premium', { Premium: HUGE }],
		['Eff Date', { 'Eff Date': HUGE }],
		['Policy #', { 'Policy #': HUGE, Premium: 'abc' }],
	])('the error item for a huge %s stays small and says how long the value was', async (_column, cells) => {
		const trap = nock(API).post(/.*/).reply(200, {});
		const { output } = await run(params, { items: [row(cells)], key: KEYS.t3, continueOnFail: true });
		expect(trap.isDone()).toBe(false);
		const text = JSON.stringify(output![0].json);
		expect(output![0].json.code).toBe('INVALID_INPUT');
		expect(text.length).toBeLessThan(10_000);
		expect(text).toContain('… (100000 characters)');
	});

	it('the error that stops the run is as small', async () => {
		const { error } = await run(params, { items: [row({ State: HUGE })], key: KEYS.t3 });
		expect(error!.message.length).toBeLessThan(1_000);
		expect(error!.message).toMatch(/^Row 2 \(item 0\): Invalid input, nothing was sent: Column "State": "x{200}… \(100000 characters\)" is not a US state/);
		expect(String(error!.description).length).toBeLessThan(2_000);
	});
});
