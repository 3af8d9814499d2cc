import type { IExecuteFunctions } from 'n8n-workflow';

import { getServiceCredential } from './credentials';
import { PATHS, readAccountInfo, type AccountInfo } from './service';
import { apiRequest } from './transport';

// One `GET /auth/me` per execution and key: nodes ask it only to explain a failure or to decide
// how to recover from one, never on the way to a normal call.
const accountCache = new WeakMap<object, Map<string, Promise<AccountInfo>>>();

/** The key's account (features, scopes, calculator), fetched at most once per execution. */
export async function accountInfo(ctx: IExecuteFunctions, itemIndex: number): Promise<AccountInfo> {
	const { fingerprint } = await getServiceCredential(ctx, itemIndex);
	let perKey = accountCache.get(ctx);
	if (!perKey) accountCache.set(ctx, (perKey = new Map()));
	let info = perKey.get(fingerprint);
	if (!info) {
		info = apiRequest
			.call(ctx, { method: 'GET', path: PATHS.authMe, itemIndex })
			.then((reply) => readAccountInfo(reply.data));
		perKey.set(fingerprint, info);
		info.catch(() => perKey.delete(fingerprint));
	}
	return await info;
}
