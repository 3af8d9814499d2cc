import type { INodeProperties } from 'n8n-workflow';

import { toolDescriptionProperties } from '../../../shared/toolUse';
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
	...toolDescriptionProperties('account', {
		checkKey:
			'Asks the service whether the API key n8n uses is valid. No inputs. Returns whether it is valid, never the key itself. An invalid key cannot be fixed by the assistant: tell the user to check the Surplus Lines credential in n8n.',
		getKeyInfo:
			'Tells about the API key n8n uses: its name, tier (t1 reads and previews, t2 also files, t3 also files in batches), test or live mode, features and scopes, and rate_limit_now (calls per hour, calls left, when the count restarts). ' +
			'No inputs; the key itself is never returned. Use it to learn whether filing is possible and how many calls are left. Reads only; safe to call again; each call uses one of the API key’s hourly calls.',
	}),
];
