import type { INodeTypeDescription } from 'n8n-workflow';

import { SurplusLinesTrigger } from '../SurplusLinesTrigger/SurplusLinesTrigger.node';

/**
 * The Surplus Lines Trigger under the type name n8n's node creator pairs with the Invoice node: it
 * offers an action node's triggers when a trigger is named `<action node name>Trigger` (n8n 2.8.4,
 * generateMergedNodesAndActions), so this one appears under "Triggers" when Surplus Lines Invoice
 * is opened. The same trigger as `surplusLinesTrigger`, which stays for saved workflows, hidden
 * from the node list so the trigger is not offered twice.
 */
export class SurplusLinesInvoiceTrigger extends SurplusLinesTrigger {
	description: INodeTypeDescription = {
		...new SurplusLinesTrigger().description,
		name: 'surplusLinesInvoiceTrigger',
		icon: {
			light: 'file:../../icons/surplusLines.svg',
			dark: 'file:../../icons/surplusLines.dark.svg',
		},
		hidden: undefined,
	};
}
