import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { mapperFields } from '../../sheet';
import { loadOptions } from '../../shared/methods/loadOptions';

/** Column lists for n8n's resource mapper ("Map Columns"). */
export const resourceMapping = {
	/**
	 * The invoice's columns with the service's states, lines of business and invoice fee types
	 * (3 calls, through the same feeders as the dropdowns).
	 */
	async getInvoiceColumns(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
		const [states, linesOfBusiness, feeTypes] = await Promise.all([
			loadOptions.getStates.call(this),
			loadOptions.getLinesOfBusiness.call(this),
			loadOptions.getInvoiceFeeTypes.call(this),
		]);
		return { fields: mapperFields({ states, linesOfBusiness, feeTypes }) };
	},
};
