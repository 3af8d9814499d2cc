/**
 * The options Create and Create Many share about filing nothing twice. Every option is absent
 * from workflows saved before it existed, so each default is the safe behaviour.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { KEY_REPLAY_WINDOW_HOURS } from '../shared/service';

/** What a replayed invoice shows: read again (one call) or the first filing's reply, said so. */
export type ReplayedView = 'current' | 'firstReply';

/**
 * What a row does when a stored transaction on its policy agrees in all that tells transactions
 * apart but differs in something of substance (the rule cannot tell): refuse the row naming it,
 * file the row anyway, or take the stored transaction as the row's filing.
 */
export type LookAlike = 'refuse' | 'file' | 'takeAsFiled';

export interface FilingSettings {
	lookAlike: LookAlike;
	/** On accounts without the idempotency feature, look for the row on its policy before filing. */
	lookFirst: boolean;
	/** How long a timed-out create on such an account is looked for before it is sent again. */
	lostCreateWaitSeconds: number;
	replayedView: ReplayedView;
	/** Send the derived mark as the invoice number of a row that gives none (filing/mark.ts). */
	writeMark: boolean;
}

/** Default of Max Wait for a Lost Create: two looks, 10 s apart with the default 30 s Timeout. */
const DEFAULT_LOST_CREATE_WAIT_SECONDS = 20;

export function filingOptionProperties(defaultReplayedView: ReplayedView): INodeProperties[] {
	return [
		{
			displayName: 'Look for Rows Already Filed',
			name: 'lookFirst',
			type: 'boolean',
			default: true,
			description: `Whether to look for each row among its policy's transactions before filing it, on every account: an Idempotency-Key replays a row for ${KEY_REPLAY_WINDOW_HOURS} hours only, and accounts without the feature ignore it. A row found there by the package's mark, or as the same filing (every field the listing shows matches: state, insured, type, dates, premium, invoice number, insurers, fees, …), is returned as already filed instead of filed again; the item lists what was compared. Costs one list call per distinct policy per 100 transactions (a run of 10 or more policies reads the account's listing instead, several pages at once, where that takes fewer calls and no longer). Off, or with Idempotency Off, every row is filed: a re-run after ${KEY_REPLAY_WINDOW_HOURS} hours files it again.`,
		},
		{
			displayName: 'Look-Alike on the Policy',
			name: 'lookAlike',
			type: 'options',
			default: 'refuse',
			options: [
				{
					name: 'Refuse the Row',
					value: 'refuse',
					description:
						'Nothing is filed for the row; the error names the stored invoice and each field that differs, with both values',
				},
				{
					name: 'File Anyway',
					value: 'file',
					description: 'File the row as its own transaction; its item names the look-alike',
				},
				{
					name: 'Take It as Filed',
					value: 'takeAsFiled',
					description:
						'Return the stored invoice as the row’s filing (already_filed); its item names what differs',
				},
			],
			description:
				"On accounts without the idempotency feature: what a row does when a transaction on its policy agrees in all that tells transactions apart (state, type, dates, premium, insurers, invoice number where both have one) but differs in something else, or lacks it (for example one entered by hand without the sheet's invoice number, or with fees of other amounts), so the node cannot tell whether it is the row's filing",
		},
		{
			displayName: 'Max Wait for a Lost Create (Seconds)',
			name: 'lostCreateWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_LOST_CREATE_WAIT_SECONDS,
			description:
				'On accounts without the idempotency feature: how long to keep looking for an invoice whose create timed out before sending it again. It is looked for after min(Timeout, 10 s) and again at this time. An invoice the service stores later than this is sent again and its item is marked sent_again with the policy to check.',
		},
		{
			displayName: 'Mark Filings Without an Invoice Number',
			name: 'writeMark',
			type: 'boolean',
			default: true,
			description:
				"Whether to send a reference derived from the row (SL and 16 letters and digits) as the invoice number of a row that gives none, so a re-run, a lost reply and a reconciliation recognise the package's filing exactly, on every kind of account. The same row always gives the same reference. A row's own invoice number is always kept. Off, such rows are filed without an invoice number and recognised on accounts without the idempotency feature only by comparing what the service shows, which can ask a person about a row already filed.",
		},
		{
			displayName: 'Replayed Invoices Show',
			name: 'replayedView',
			type: 'options',
			default: defaultReplayedView,
			options: [
				{
					name: 'Their Status Now',
					value: 'current',
					description: 'Read each replayed invoice again (one call per replayed invoice)',
				},
				{
					name: 'The First Filing’s Reply',
					value: 'firstReply',
					description:
						'No call: the item shows the invoice as first returned and says so (outcomeNote)',
				},
			],
			description:
				'What a replayed invoice (the service returned an earlier filing for the same key) shows',
		},
	];
}

/** The filing settings in an operation's Options, as its operation read them (actions/settings.ts). */
export function filingSettings(
	options: IDataObject,
	defaultReplayedView: ReplayedView,
): FilingSettings {
	const wait = options.lostCreateWaitSeconds;
	return {
		lookAlike:
			options.lookAlike === 'file' || options.lookAlike === 'takeAsFiled'
				? options.lookAlike
				: 'refuse',
		lookFirst: options.lookFirst !== false,
		lostCreateWaitSeconds:
			typeof wait === 'number' && Number.isFinite(wait) && wait >= 0
				? wait
				: DEFAULT_LOST_CREATE_WAIT_SECONDS,
		replayedView:
			options.replayedView === 'current' || options.replayedView === 'firstReply'
				? options.replayedView
				: defaultReplayedView,
		writeMark: options.writeMark !== false,
	};
}
