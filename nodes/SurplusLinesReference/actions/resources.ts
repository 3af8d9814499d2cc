import type { ResourceMap } from '../../shared/router';
import * as account from './account/Account.resource';
import * as company from './company/Company.resource';
import * as referenceData from './referenceData/ReferenceData.resource';

export const resources: ResourceMap = {
	account: { getKeyInfo: account.getKeyInfo, checkKey: account.checkKey },
	referenceData: referenceData.operations,
	company: { search: company.search },
};
