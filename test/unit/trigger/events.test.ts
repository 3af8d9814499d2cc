import { useNockSuite } from '../../helpers/nockSuite';
import { activeTrigger, document, filing, invoice, serveInvoice, servePolicy } from './helpers';

const fake = useNockSuite();

describe('baseline', () => {
	it('records the first reading and emits nothing', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001, 1002' });
		const scopes = [serveInvoice(invoice(1001, { status: 'sent' })), serveInvoice(invoice(1002, { status: 'success' }))];
		expect(await trigger.poll()).toEqual([]);
		scopes.forEach((s) => s.done());
		const state = trigger.staticData.trigger as { invoices: Record<string, { s: string; f: string }> };
		expect(state.invoices['1001']).toMatchObject({ s: 'sent', f: 'not_sent' });
		expect(state.invoices['1002']).toMatchObject({ s: 'success' });
	});

	it('emits the current state once when "Emit Current State First" is on', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001', events: ['invoiceStatus'], options: { emitCurrentState: true } });
		serveInvoice(invoice(1001, { status: 'sent' }));
		const first = await trigger.poll();
		expect(first).toHaveLength(1);
		expect(first[0]).toMatchObject({ event: 'invoice_status_changed', invoice_id: 1001, previous: null, current: 'sent' });
		serveInvoice(invoice(1001, { status: 'sent' }));
		expect(await trigger.poll()).toEqual([]);
	});
});

describe('each event kind', () => {
	it('invoice status changed: previous, current, time and the invoice as read', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001' });
		serveInvoice(invoice(1001, { status: 'sent' }));
		await trigger.poll();
		fake().advance(5 * 60_000);
		const read = invoice(1001, { status: 'success', filed: true });
		serveInvoice(read);
		const events = await trigger.poll();
		expect(events).toEqual([
			{
				event: 'invoice_status_changed',
				event_id: '1001:status:success:1',
				invoice_id: 1001,
				policy_number: 'POL-1',
				previous: 'sent',
				current: 'success',
				detected_at: '2026-11-22T12:05:00.000Z',
				// In words, for a message as it is (shared/whatToDo.ts); a success clears, nothing to do.
				summary: 'Invoice status: Invoice 1001 (policy POL-1) was completed by the service (sent → success).',
				next_step: 'No action needed.',
				needs_action: false,
				invoice: read,
			},
		]);
	});

	it('filing state changed: carries the message and confirmation number', async () => {
		const trigger = activeTrigger({ invoiceIds: '1007' });
		serveInvoice(invoice(1007, { status: 'sent', filing: filing('sent') }));
		await trigger.poll();
		serveInvoice(invoice(1007, { status: 'sent', filing: filing('rejected', { message: 'Missing SL2 form' }) }));
		const [rejected] = await trigger.poll();
		expect(rejected).toMatchObject({
			event: 'filing_state_changed',
			invoice_id: 1007,
			previous: 'sent',
			current: 'rejected',
			message: 'Missing SL2 form',
			confirmation_number: null,
		});
		serveInvoice(invoice(1007, { status: 'success', filing: filing('confirmed', { confirmation_number: 'TX-99812' }) }));
		const events = await trigger.poll();
		expect(events.map((e) => [e.event, e.previous, e.current, e.confirmation_number ?? null])).toEqual([
			['invoice_status_changed', 'sent', 'success', null],
			['filing_state_changed', 'rejected', 'confirmed', 'TX-99812'],
		]);
	});

	it('document fetch status changed: names the document id and docUUID; a new document counts from null', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001', events: ['documentFetchStatus'] });
		serveInvoice(invoice(1001, { documents: [document(5001, 'pending', 'dec-abc')] }));
		await trigger.poll();
		serveInvoice(invoice(1001, { documents: [document(5001, 'fetched', 'dec-abc'), document(5002, 'pending', 'sl2-xyz')] }));
		const events = await trigger.poll();
		expect(events.map((e) => [e.event, e.document_id, e.doc_uuid, e.previous, e.current])).toEqual([
			['document_fetch_status_changed', 5001, 'dec-abc', 'pending', 'fetched'],
			['document_fetch_status_changed', 5002, 'sl2-xyz', null, 'pending'],
		]);
		expect((events[0].document as { fetch_status: string }).fetch_status).toBe('fetched');
	});

	it('new transaction on a watched policy: one call lists the policy; changes on its rows are events too', async () => {
		const trigger = activeTrigger({ policyNumbers: 'POL-7' });
		const first = servePolicy('POL-7', [invoice(1001, { policy_number: 'POL-7', status: 'sent' })]);
		expect(await trigger.poll()).toEqual([]);
		first.done();
		const endorsement = invoice(1002, { policy_number: 'POL-7', type: { id: 3, name: 'Endorsement' } });
		servePolicy('POL-7', [invoice(1001, { policy_number: 'POL-7', status: 'success' }), endorsement]);
		const events = await trigger.poll();
		expect(events.map((e) => [e.event, e.invoice_id, e.previous, e.current])).toEqual([
			['invoice_status_changed', 1001, 'sent', 'success'],
			['new_transaction', 1002, null, 'new'],
		]);
		expect(events[1]).toMatchObject({ policy_number: 'POL-7', transaction_type: 'Endorsement', invoice: endorsement });
	});

	it('reads every page of a long policy', async () => {
		const trigger = activeTrigger({ policyNumbers: 'POL-BIG', events: ['newTransaction'] });
		const rows = Array.from({ length: 130 }, (_, i) => invoice(2000 + i, { policy_number: 'POL-BIG' }));
		const p1 = servePolicy('POL-BIG', rows.slice(0, 100), 1, 130);
		const p2 = servePolicy('POL-BIG', rows.slice(100), 2, 130);
		await trigger.poll();
		p1.done();
		p2.done();
		const unit = (trigger.staticData.trigger as { units: Record<string, { pages: number; known: number[] }> }).units['p:POL-BIG'];
		expect(unit.pages).toBe(2);
		expect(unit.known).toHaveLength(130);
	});
});

describe('target-value filters', () => {
	it('emits only the chosen new values, yet records every change', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001', events: ['invoiceStatus'], statusValues: ['success', 'error'] });
		serveInvoice(invoice(1001, { status: 'new' }));
		await trigger.poll();
		serveInvoice(invoice(1001, { status: 'sent' }));
		expect(await trigger.poll()).toEqual([]);
		serveInvoice(invoice(1001, { status: 'error' }));
		const events = await trigger.poll();
		expect(events.map((e) => [e.previous, e.current])).toEqual([['sent', 'error']]);
	});

	it('only rejected filings', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001', events: ['filingState'], filingValues: ['rejected'] });
		serveInvoice(invoice(1001, { filing: filing('not_sent') }));
		await trigger.poll();
		serveInvoice(invoice(1001, { status: 'sent', filing: filing('sent') }));
		expect(await trigger.poll()).toEqual([]);
		serveInvoice(invoice(1001, { status: 'sent', filing: filing('rejected', { message: 'Wrong state' }) }));
		expect((await trigger.poll()).map((e) => [e.event, e.current, e.message])).toEqual([['filing_state_changed', 'rejected', 'Wrong state']]);
	});

	it('a legacy account (no filing object) never yields a filing event', async () => {
		const trigger = activeTrigger({ invoiceIds: '1001' });
		const legacy = (status: string) => {
			const inv = invoice(1001, { status });
			delete inv.filing;
			return inv;
		};
		serveInvoice(legacy('new'));
		await trigger.poll();
		serveInvoice(legacy('sent'));
		expect((await trigger.poll()).map((e) => e.event)).toEqual(['invoice_status_changed']);
	});
});
