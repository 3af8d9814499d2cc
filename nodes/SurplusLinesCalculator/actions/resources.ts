import type { ResourceMap } from '../../shared/router';
import * as tax from './tax/Tax.resource';

export const resources: ResourceMap = {
	tax: { estimate: tax.estimate },
};
