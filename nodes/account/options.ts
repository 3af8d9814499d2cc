/**
 * The one choice about adapting rows to an account (accountAdapt.ts): what to do with a line of
 * business name the account's list does not hold. Absent from workflows saved before it existed,
 * so its default is the safe one: the row fails.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

export type UnknownLob = 'fail' | 'fileWithout';

export const unknownLobOption: INodeProperties = {
	displayName: 'Unknown Line of Business Name',
	name: 'unknownLineOfBusiness',
	type: 'options',
	default: 'fail',
	options: [
		{
			name: 'Fail the Row',
			value: 'fail',
			description: 'Nothing is sent; the error names the value and the listed lines of business',
		},
		{
			name: 'File Without a Line of Business',
			value: 'fileWithout',
			description:
				'As the service does with an unknown name: the invoice is stored without one, and the item says so (_adapted)',
		},
	],
	description:
		'On accounts without the lob_name feature the node turns lob_name into lob_id with the lines of business list (one call per run). What to do with a name the list does not hold.',
};

/** Options → Unknown Line of Business, as its operation read the Options (actions/settings.ts). */
export function unknownLobOf(options: IDataObject): UnknownLob {
	return options.unknownLineOfBusiness === 'fileWithout' ? 'fileWithout' : 'fail';
}

/** Options of the operations without filing options (Preview, Update): only this choice. */
export function accountOptionsProperty(): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [unknownLobOption],
	};
}
