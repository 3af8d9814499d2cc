import type { ResourceMap } from '../../shared/execute';
import * as tax from './tax/Tax.resource';

export const resources: ResourceMap = {
	tax: { estimate: tax.estimate },
};
