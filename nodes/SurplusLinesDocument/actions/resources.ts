import type { ResourceMap } from '../../shared/router';
import * as document from './document/Document.resource';

export const resources: ResourceMap = {
	document: {
		attach: document.attach,
		get: document.get,
		getAll: document.getAll,
		delete: document.delete,
		download: document.download,
		waitUntilFetched: document.waitUntilFetched,
	},
};
