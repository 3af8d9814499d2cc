import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PATHS } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['getKeyInfo'] } },
	[],
);

export const onlyReads = true;

/**
 * GET /auth/me: key name, tier, account mode and features, scopes. `rate_limit_now` holds the
 * figures from this reply's X-RateLimit headers, i.e. after this call was counted.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const reply = await apiRequest.call(this, { method: 'GET', path: PATHS.authMe, itemIndex });
	const json: IDataObject = { ...(reply.data as IDataObject) };
	if (reply.rateLimit) {
		json.rate_limit_now = {
			...reply.rateLimit,
			reset_at: new Date(reply.rateLimit.reset * 1000).toISOString(),
		};
	}
	if (reply.requestId) json.request_id = reply.requestId;
	return [{ json }];
}
