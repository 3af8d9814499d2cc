import type { ResourceMap } from '../../shared/execute';
import * as invoice from './invoice/Invoice.resource';

/** resource → operation → module, for the shared router. */
export const resources: ResourceMap = {
	invoice: {
		create: invoice.create,
		createMany: invoice.createMany,
		preview: invoice.preview,
		get: invoice.get,
		getAll: invoice.getAll,
		update: invoice.update,
		delete: invoice.delete,
	},
};
