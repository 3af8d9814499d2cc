import type { ResourceMap } from '../../shared/router';
import { withRowResults } from './rowResults';
import * as invoice from './invoice/Invoice.resource';

/** resource → operation → module, for the shared router. */
export const resources: ResourceMap = {
	invoice: {
		checkSheet: invoice.checkSheet,
		create: withRowResults(invoice.create, 'full', true),
		createMany: withRowResults(invoice.createMany, 'full', true),
		preview: withRowResults(invoice.preview, 'full'),
		get: invoice.get,
		getAll: invoice.getAll,
		update: withRowResults(invoice.update, 'partial'),
		delete: invoice.delete,
		reconcile: invoice.reconcile,
		correctFilings: invoice.correctFilings,
		watchLook: invoice.watchLook,
		watchRecord: invoice.watchRecord,
	},
};
