/**
 * Calls the tests against the sandbox make beside the node: the API under a named key, the
 * sandbox's own controls, a policy's stored transactions, and the calls left in a key's hour.
 */
import type { IDataObject } from 'n8n-workflow';

import { keyByName, type RunningSandbox } from '../sandbox';
import { client } from '../sandbox/testkit';

export function sandboxCalls(sb: RunningSandbox) {
	const api = (keyName: string) => client(sb.baseUrl, keyByName(keyName).key);
	return {
		api,
		/** A `/_sandbox` control call; anything but 200 throws. */
		async control(path: string, body: object = {}) {
			const res = await client(sb.baseUrl.replace(/\/api\/v1$/, ''), null).post(`/_sandbox${path}`, body);
			if (res.status !== 200) throw new Error(`control ${path} -> ${res.status} ${JSON.stringify(res.data)}`);
			return res;
		},
		/** Every transaction the account holds on these policies (each listed once). */
		async storedUnder(keyName: string, policies: string[]): Promise<IDataObject[]> {
			const all: IDataObject[] = [];
			for (const policy of new Set(policies)) {
				const res = await api(keyName).get(`/invoices?policy_number=${encodeURIComponent(policy)}&per_page=100`);
				all.push(...((res.data as { data: { invoices: IDataObject[] } }).data.invoices ?? []));
			}
			return all;
		},
		/** Calls left in the key's hour (this check spends one). */
		async remaining(keyName: string): Promise<number> {
			return Number((await api(keyName).get('/auth/me')).headers['x-ratelimit-remaining']);
		},
	};
}
