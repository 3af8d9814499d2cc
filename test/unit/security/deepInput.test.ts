/**
 * Issue 49: a JSON body nested 2,000 deep failed with a stack overflow message. Deep or huge input
 * is refused before any call with a message naming the field and the limit.
 */
import nock from 'nock';

import { API, row, run, setupSuite } from '../invoice/helpers';

setupSuite();
beforeEach(() => nock(API).get('/auth/me').reply(200, { success: true, data: { account: { features: [] } } }).persist());

const nested = (depth: number): unknown => {
	let value: unknown = 'end';
	for (let i = 0; i < depth; i++) value = { a: value };
	return value;
};
const nestedList = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('a JSON body too deep or too large', () => {
	it.each([
		['an object field nested 2,000 deep', JSON.stringify(row({ notes: nested(2000) } as never))],
		['a list nested 100,000 deep', JSON.stringify(row()).replace(/}$/, `,"extra":${nestedList(100_000)}}`)],
	])('%s is refused before any call, naming the limit', async (_case, invoiceJson) => {
		const trap = nock(API).post(/.*/).reply(201, {});
		const { error } = await run({ operation: 'create', inputMode: 'json', invoiceJson, idempotency: 'off' });
		expect(trap.isDone()).toBe(false);
		expect(error!.message).toBe('Invalid input, nothing was sent: Invoice JSON: nested more than 32 levels deep; a body of the service is at most a few levels deep');
		expect(error!.message).not.toMatch(/stack/i);
	});

	it('a body of more than 1,000,000 characters is refused before it is read', async () => {
		const trap = nock(API).post(/.*/).reply(201, {});
		const invoiceJson = JSON.stringify(row({ insured_name: 'y'.repeat(1_000_001) }));
		const { error } = await run({ operation: 'create', inputMode: 'json', invoiceJson, idempotency: 'off' });
		expect(trap.isDone()).toBe(false);
		expect(error!.message).toBe(`Invalid input, nothing was sent: Invoice JSON: ${invoiceJson.length} characters, more than the 1000000 this node reads`);
	});

	it('an item nested 2,000 deep as the body (Input Item As Is) is refused the same way', async () => {
		const trap = nock(API).post(/.*/).reply(201, {});
		const { error } = await run({ operation: 'create', inputMode: 'inputItem', idempotency: 'off' }, { items: [{ ...row(), notes: nested(2000) } as never] });
		expect(trap.isDone()).toBe(false);
		expect(error!.message).toMatch(/^Invalid input, nothing was sent: .*nested more than 32 levels deep/);
	});

	it('a body 30 levels deep still reads (refused only for its own fields)', async () => {
		const trap = nock(API).post(/.*/).reply(201, {});
		const { error } = await run({ operation: 'create', inputMode: 'json', invoiceJson: JSON.stringify(row({ notes: nested(28) } as never)), idempotency: 'off' });
		expect(error?.message ?? '').not.toMatch(/levels deep/);
		nock.cleanAll();
		expect(trap).toBeDefined();
	});
});
