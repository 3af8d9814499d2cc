import { WATCH_TABLE } from '../e2e/watchList';

/**
 * The stage's workflow: a production webhook receives `{ rows: [...] }`, one item per row, and the
 * Invoice node files each row (Create, JSON input, Idempotency-Key derived from the row). The node
 * continues on error, so a failed row comes back as an item and the caller sees every outcome;
 * the webhook answers when the execution has finished, with the Invoice node's items.
 */
export interface Credential {
	id: string;
	name: string;
}

/** Node ids unique to one workflow (from its webhook id). */
function nodeIds(webhookId: string): (n: number) => string {
	return (n) => `c7000000-0000-4000-8000-${webhookId.slice(-8)}000${n}`;
}

/** The production webhook that receives `{ rows: [...] }` and answers with the last node's items, and one item per row. */
function rowsIn(options: { path: string; webhookId: string }) {
	const node = nodeIds(options.webhookId);
	return [
		{
			id: node(1),
			name: 'Rows In',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: options.webhookId,
			parameters: { httpMethod: 'POST', path: options.path, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
		},
		{ id: node(2), name: 'One Item Per Row', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [220, 0], parameters: { fieldToSplitOut: 'body.rows', options: {} } },
	];
}

export function filingWorkflow(options: { id: string; name: string; path: string; webhookId: string; credential: Credential; lookFirst?: false }) {
	const node = nodeIds(options.webhookId);
	return {
		id: options.id,
		name: options.name,
		nodes: [
			...rowsIn(options),
			{
				id: node(3),
				name: 'File Invoice',
				type: 'n8n-nodes-surplus-lines.surplusLinesInvoice',
				typeVersion: 1,
				position: [440, 0],
				onError: 'continueRegularOutput',
				parameters: {
					resource: 'invoice',
					operation: 'create',
					inputMode: 'json',
					invoiceJson: '={{ JSON.stringify($json) }}',
					idempotency: 'derived',
					simplify: true,
					// A webhook that files in bulk needs no status read again per replayed row: the
					// default (one GET per replayed row, 570 here) with 700 creates would spend more
					// than a t2 key's 1,000 calls an hour. On the keyed account the look first is off
					// too (docs/scaling.md, bulk webhook flows): the same rows arrive within minutes,
					// where the key keeps each row once, and a listing per row's policy would double
					// the calls. On the legacy account the look before filing is what keeps them.
					options: { replayedView: 'firstReply', ...(options.lookFirst === false ? { lookFirst: false } : {}) },
				},
				credentials: { surplusLinesApi: options.credential },
			},
		],
		connections: {
			'Rows In': { main: [[{ node: 'One Item Per Row', type: 'main', index: 0 }]] },
			'One Item Per Row': { main: [[{ node: 'File Invoice', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

/**
 * The watch list's filing side as a production webhook (so it runs on a worker): `{ rows: [...] }`
 * filed with Create Many, then the example's Rows to Record and Data table Insert; the webhook
 * answers with the rows inserted.
 */
export function watchFilingWorkflow(options: { id: string; path: string; webhookId: string; credential: Credential }) {
	const node = nodeIds(options.webhookId);
	const invoiceNode = { type: 'n8n-nodes-surplus-lines.surplusLinesInvoice', typeVersion: 2, credentials: { surplusLinesApi: options.credential } };
	return {
		id: options.id,
		name: 'Queue: file rows and record them on the watch list',
		nodes: [
			...rowsIn(options),
			{
				...invoiceNode,
				id: node(3),
				name: 'File Every Row',
				position: [440, 0],
				parameters: { resource: 'invoice', operation: 'createMany', inputMode: 'json', invoiceJson: '={{ JSON.stringify($json) }}', idempotency: 'derived', simplify: true, options: {} },
			},
			{ ...invoiceNode, id: node(4), name: 'Rows to Record', position: [660, 0], parameters: { resource: 'invoice', operation: 'watchRecord' } },
			{
				id: node(5),
				name: 'Add to Watch List',
				type: 'n8n-nodes-base.dataTable',
				typeVersion: 1.1,
				position: [880, 0],
				parameters: {
					resource: 'row',
					operation: 'insert',
					dataTableId: { __rl: true, mode: 'name', value: WATCH_TABLE },
					columns: { mappingMode: 'autoMapInputData', value: {}, matchingColumns: [], schema: [], attemptToConvertTypes: false, convertFieldsToString: false },
					options: {},
				},
			},
		],
		connections: {
			'Rows In': { main: [[{ node: 'One Item Per Row', type: 'main', index: 0 }]] },
			'One Item Per Row': { main: [[{ node: 'File Every Row', type: 'main', index: 0 }]] },
			'File Every Row': { main: [[{ node: 'Rows to Record', type: 'main', index: 0 }]] },
			'Rows to Record': { main: [[{ node: 'Add to Watch List', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}
