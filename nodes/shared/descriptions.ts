import type { INodeProperties } from 'n8n-workflow';

/** Transport settings every action node offers; read by the transport as `requestOptions`. */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Max Rate-Limit Wait (Seconds)',
			name: 'maxRateLimitWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description:
				'How long the node may wait in total when the key’s hourly limit is reached (HTTP 429) before it fails the item with the reset time',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30,
			description: 'How long to wait for a reply before treating the call as lost',
		},
	],
};
