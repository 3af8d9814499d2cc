import nock from 'nock';

import { useNockSuite } from '../../helpers/nockSuite';
import { TEST_API, envelope } from '../../helpers/serviceReplies';
import { doc, run } from './helpers';

useNockSuite();

describe('Get Many', () => {
	it('returns one item per document, up to the limit', async () => {
		const docs = [doc(), doc({ id: 5002 }), doc({ id: 5003 })];
		nock(TEST_API).get('/invoices/1001/documents').twice().reply(200, envelope({ documents: docs }));
		const limited = await run('getAll', { returnAll: false, limit: 2 });
		expect(limited.output!.map((i) => i.json.id)).toEqual([5001, 5002]);
		const all = await run('getAll', { returnAll: true });
		expect(all.output!.map((i) => i.json.id)).toEqual([5001, 5002, 5003]);
	});
});
