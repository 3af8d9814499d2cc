import type { INodeProperties } from 'n8n-workflow';

import * as checkKey from './checkKey.operation';
import * as getKeyInfo from './getKeyInfo.operation';

export { checkKey, getKeyInfo };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		default: 'getKeyInfo',
		options: [
			{
				name: 'Check Key',
				value: 'checkKey',
				description:
					'Ask the service whether the credential’s API key is valid (the key is never output)',
				action: 'Check the API key',
			},
			{
				name: 'Get Key Info',
				value: 'getKeyInfo',
				description:
					'Key name, tier, account mode and features, scopes and the calls left this hour',
				action: 'Get key information',
			},
		],
	},
	...getKeyInfo.description,
	...checkKey.description,
];
