import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiRequest } from '../transport';
import { LIST_KEYS, PATHS, feeTypeName, readList } from '../service';

async function fetchList(
	ctx: ILoadOptionsFunctions,
	path: string,
	key: string,
): Promise<IDataObject[]> {
	const reply = await apiRequest.call(ctx, { method: 'GET', path });
	return readList(reply.data, key);
}

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);

/** Dropdown feeders shared by every node. Each fetches its list once per use; nothing is hard-coded. */
export const loadOptions = {
	async getStates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const states = await fetchList(this, PATHS.states, LIST_KEYS.states);
		return states
			.map((s) => ({
				name: `${String(s.name)} (${String(s.code)})`,
				value: String(s.code),
				description:
					s.efile === false
						? 'No direct electronic filing: prepared for the state’s own process'
						: 'Direct electronic filing',
			}))
			.sort(byName);
	},

	async getInvoiceFeeTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await feeTypeOptions(this, 'invoices');
	},

	async getCalculatorFeeTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await feeTypeOptions(this, 'calculator');
	},

	async getDocumentTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const types = await fetchList(this, PATHS.documentTypes, LIST_KEYS.documentTypes);
		return types.map((t) => ({
			name: String(t.name ?? t.code),
			value: String(t.code),
			description: t.sent_to_state
				? 'Goes to the state with the filing'
				: 'Kept for the operator only',
		}));
	},

	async getLinesOfBusiness(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const lobs = await fetchList(this, PATHS.lobs, LIST_KEYS.lobs);
		return lobs.map((l) => ({ name: String(l.name), value: Number(l.id) })).sort(byName);
	},

	async getCoverages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const coverages = await fetchList(this, PATHS.coverages, LIST_KEYS.coverages);
		return coverages.map((c) => ({
			name: `${String(c.title ?? c.code)} (${String(c.code)})`,
			value: String(c.code),
		}));
	},
};

async function feeTypeOptions(ctx: ILoadOptionsFunctions, acceptedBy: 'invoices' | 'calculator') {
	const types = await fetchList(ctx, PATHS.feeTypes, LIST_KEYS.feeTypes);
	return types
		.filter(
			(t) => !Array.isArray(t.accepted_by) || (t.accepted_by as string[]).includes(acceptedBy),
		)
		.map((t) => ({
			name: `${feeTypeName(String(t.code), t.name)} (${String(t.code)})`,
			value: String(t.code),
			description: `${String(t.category ?? '')}${t.alias_of ? `; same as ${String(t.alias_of)} (send only one of the two)` : ''}`,
		}))
		.sort(byName);
}
