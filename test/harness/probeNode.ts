/** A test-only node that sends one request through the shared transport, so it runs in n8n's engine. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptionsProperty } from '../../nodes/shared/descriptions';
import { routeOperations } from '../../nodes/shared/router';
import { apiRequest } from '../../nodes/shared/transport';

export class ProbeNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Probe',
		name: 'probe',
		group: ['transform'],
		version: 1,
		description: 'Sends one request per item',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'surplusLinesApi', required: true }],
		properties: [
			{ displayName: 'Resource', name: 'resource', type: 'hidden', default: 'probe' },
			{ displayName: 'Operation', name: 'operation', type: 'hidden', default: 'send' },
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '/auth/me' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{ displayName: 'Idempotency Key', name: 'idempotencyKey', type: 'string', default: '' },
			{ displayName: 'Read Only', name: 'readOnly', type: 'boolean', default: false },
			{ displayName: 'Most In Flight', name: 'mostInFlight', type: 'number', default: 0 },
			{ displayName: 'Only Reads', name: 'onlyReads', type: 'boolean', default: false },
			requestOptionsProperty,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperations.call(this, {
			probe: {
				send: {
					description: [],
					mostInFlight: (this.getNodeParameter('mostInFlight', 0, 0) as number) || undefined,
					onlyReads: this.getNodeParameter('onlyReads', 0, false) as boolean,
					async execute(this: IExecuteFunctions, i: number) {
						const body = this.getNodeParameter('body', i) as string;
						const key = this.getNodeParameter('idempotencyKey', i) as string;
						const reply = await apiRequest.call(this, {
							method: this.getNodeParameter('method', i) as 'GET',
							path: this.getNodeParameter('path', i) as string,
							body: body ? (JSON.parse(body) as IDataObject) : undefined,
							idempotencyKey: key || undefined,
							readOnly: this.getNodeParameter('readOnly', i) as boolean,
							itemIndex: i,
						});
						return [{ json: { data: reply.data as IDataObject, statusCode: reply.statusCode, replayed: reply.replayed, requestId: reply.requestId ?? null, rateLimit: (reply.rateLimit ?? null) as IDataObject | null } }];
					},
				},
			},
		});
	}
}
