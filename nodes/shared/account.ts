import { readAccountInfo, type AccountInfo } from './service';
import type { ApiReply } from './transport';

/**
 * The key's account (features, scopes, calculator), asked at most once per run and key: nodes ask
 * it only to explain a failure or to decide how to recover from one, never on the way to a normal
 * call. `known` is the run's own (the service adapter keeps one per run, invoiceService.ts); a
 * failed answer is forgotten, so a later row asks again.
 */
export async function accountInfoOnce(
	known: Map<string, Promise<AccountInfo>>,
	fingerprint: string,
	ask: () => Promise<ApiReply>,
): Promise<AccountInfo> {
	let info = known.get(fingerprint);
	if (!info) {
		info = ask().then((reply) => readAccountInfo(reply.data));
		known.set(fingerprint, info);
		info.catch(() => known.delete(fingerprint));
	}
	return await info;
}
