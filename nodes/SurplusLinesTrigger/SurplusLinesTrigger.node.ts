import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { triggerProperties } from './description';
import { pollTrigger } from './poll';

export class SurplusLinesTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Surplus Lines Trigger',
		name: 'surplusLinesTrigger',
		icon: {
			light: 'file:../../icons/surplusLines.svg',
			dark: 'file:../../icons/surplusLines.dark.svg',
		},
		group: ['trigger'],
		// Offered in the node list as surplusLinesInvoiceTrigger (listed with the Invoice node); this
		// type stays for saved workflows.
		hidden: true,
		version: 1,
		subtitle:
			'={{ (($parameter["events"] || []).length) + ((($parameter["events"] || []).length) === 1 ? " event" : " events") }}',
		description:
			'Starts the workflow when a watched invoice’s status, its filing or a document changes, or a watched policy gets a new transaction (the service sends no webhooks, so this polls within a share of the key’s hourly limit)',
		defaults: { name: 'Surplus Lines Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'surplusLinesApi', required: true }],
		properties: triggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrigger.call(this);
	}
}
