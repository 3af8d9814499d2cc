/**
 * Issue 49: what a reply echoes of the key is masked in the trigger's events and in the static data
 * n8n stores with the workflow, in any encoding.
 */
import { useNockSuite } from '../../helpers/nockSuite';
import { KEY, activeTrigger, filing, invoice, serveInvoice } from '../trigger/helpers';

const fake = useNockSuite();
const SECRET = KEY.slice(-32);
const echoes = (text: string) => [SECRET, Buffer.from(KEY).toString('base64').slice(4, 40), KEY.replace(/_/g, '%5F')].filter((form) => text.includes(form));

it('a status and a filing message that echo the key are masked in the events and in the static data', async () => {
	const trigger = activeTrigger({ invoiceIds: '1001' });
	serveInvoice(invoice(1001, { status: 'sent' }));
	await trigger.poll();
	fake().advance(5 * 60_000);
	const echoed = `Bearer ${KEY} / ${Buffer.from(`Bearer ${KEY}`).toString('base64')} / ${KEY.replace(/_/g, '%5F')}`;
	serveInvoice(invoice(1001, { status: `rejected ${KEY}`, filing: filing('rejected', { message: echoed }) }));
	const events = await trigger.poll();
	expect(events.length).toBeGreaterThan(0);
	expect(JSON.stringify(events)).toContain('[redacted API key]');
	expect(echoes(JSON.stringify(events))).toEqual([]);
	expect(echoes(JSON.stringify(trigger.staticData))).toEqual([]);
	expect(JSON.stringify(trigger.staticData)).toContain('[redacted API key]');
});

it('a status that echoes the key is one change, not a new event on every poll', async () => {
	const trigger = activeTrigger({ invoiceIds: '1001' });
	serveInvoice(invoice(1001, { status: 'sent' }));
	await trigger.poll();
	for (const expected of [1, 0, 0]) {
		fake().advance(5 * 60_000);
		serveInvoice(invoice(1001, { status: `rejected ${KEY}` }));
		expect(await trigger.poll()).toHaveLength(expected);
	}
});
