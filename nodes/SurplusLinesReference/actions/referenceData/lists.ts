import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { OperationModule } from '../../../shared/router';
import { LIST_KEYS, PATHS, readList } from '../../../shared/service';
import { apiRequest } from '../../../shared/transport';

interface ListSpec {
	path: string;
	key: string;
	/** Optional narrowing of the rows by the node's parameters. */
	filter?: (ctx: IExecuteFunctions, itemIndex: number, rows: IDataObject[]) => IDataObject[];
}

/** One reference list as an operation: one output item per row. */
export function listOperation(spec: ListSpec): Pick<OperationModule, 'execute' | 'onlyReads'> {
	return {
		onlyReads: true,
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
			const reply = await apiRequest.call(this, { method: 'GET', path: spec.path, itemIndex });
			const rows = readList<IDataObject>(reply.data, spec.key);
			return (spec.filter ? spec.filter(this, itemIndex, rows) : rows).map((json) => ({ json }));
		},
	};
}

export const LISTS = {
	getStates: { path: PATHS.states, key: LIST_KEYS.states },
	getFeeTypes: {
		path: PATHS.feeTypes,
		key: LIST_KEYS.feeTypes,
		filter: (ctx: IExecuteFunctions, itemIndex: number, rows: IDataObject[]) => {
			const acceptedBy = ctx.getNodeParameter('acceptedBy', itemIndex, 'all') as string;
			if (acceptedBy === 'all') return rows;
			return rows.filter(
				(row) =>
					!Array.isArray(row.accepted_by) || (row.accepted_by as string[]).includes(acceptedBy),
			);
		},
	},
	getDocumentTypes: { path: PATHS.documentTypes, key: LIST_KEYS.documentTypes },
	getLinesOfBusiness: { path: PATHS.lobs, key: LIST_KEYS.lobs },
	getCoverages: { path: PATHS.coverages, key: LIST_KEYS.coverages },
} satisfies Record<string, ListSpec>;
