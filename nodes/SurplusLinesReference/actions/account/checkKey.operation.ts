import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { CREDENTIAL_TYPE, checkApiKey } from '../../../shared/credentials';
import { readErrorInfo } from '../../../shared/errors';
import { PATHS } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['checkKey'] } },
	[],
);

export const onlyReads = true;

/**
 * POST /auth/token with the credential's key: a check that creates nothing (so it may be resent).
 * The answer is an item with `valid` true or false; the key itself never appears in the output.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const credential = (await this.getCredentials(CREDENTIAL_TYPE, itemIndex)) as IDataObject;
	const apiKey = String(credential.apiKey ?? '');
	const form = checkApiKey(apiKey);
	if (!form.ok) return [{ json: { valid: false, checked: 'locally', reason: form.problem } }];

	// A 401 is the answer "not valid", not a failure; any other error (already a NodeApiError from
	// the transport) stops the item as usual.
	const outcome = await apiRequest
		.call(this, {
			method: 'POST',
			path: PATHS.authToken,
			body: { api_key: apiKey },
			readOnly: true,
			itemIndex,
		})
		.then(
			(reply) => ({ reply, failure: undefined }),
			(failure: unknown) => ({ reply: undefined, failure }),
		);
	if (outcome.reply) {
		const data = outcome.reply.data as IDataObject;
		return [
			{
				json: {
					valid: data.valid !== false,
					checked: 'service',
					key_name: data.key_name,
					tier: data.tier,
					request_id: outcome.reply.requestId,
				},
			},
		];
	}
	const info = readErrorInfo(outcome.failure);
	if (info?.code !== 'UNAUTHORIZED') throw outcome.failure;
	return [
		{
			json: { valid: false, checked: 'service', reason: info.message, request_id: info.requestId },
		},
	];
}
