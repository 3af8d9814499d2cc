/**
 * What a broker does about a filing the state rejected (or refused) and an invoice in status
 * `error`: the state's reason as the service gives it, and the next step in n8n. A reason that
 * names a document the state takes (gaps.md: the types sent to the state) is answered by attaching
 * it with the Document node, after which the service's operator re-submits the filing (the API
 * has no re-submit call: status error → re-submitted is the operator's); any other reason by
 * correcting the invoice while the state has not accepted it.
 */
import type { IDataObject } from 'n8n-workflow';

import { filingOf } from '../shared/invoiceState';
import { FINAL_FILING_REFUSAL } from '../shared/service';

/** Filing states that say the state did not take the filing. */
export const REJECTED_STATES: ReadonlySet<string> = new Set(['rejected', FINAL_FILING_REFUSAL]);

/** Words of a state's reason → the document type the Document node attaches (types sent to the state). */
const DOCUMENT_WORDS: ReadonlyArray<[RegExp, string, string]> = [
	[/\bsl[\s-]?2\b/i, 'sl2_form', 'SL-2 form'],
	[/declination|diligent search|affidavit/i, 'declinations_form', 'declinations form'],
	[/declaration/i, 'declaration_page', 'declaration page'],
	[/lloyd/i, 'lloyds_syndicates', 'Lloyd’s syndicates list'],
	[/\becp\b|export/i, 'ecp_form', 'ECP form'],
	[/endorsement (form|document|copy)/i, 'policy_endorsement', 'policy endorsement'],
];

export interface ActionNeeded {
	/** `rejected` / `refused` by the state, or `error` (the filing failed). */
	why: string;
	/** The state's reason (the filing's message), or the status where none is given. */
	state_reason: string;
	next_step: string;
	/** The document type to attach, where the reason names one. */
	document_type?: string;
}

/** What must be done about an invoice, or undefined when nothing is asked of the broker. */
export function actionNeeded(invoice: IDataObject): ActionNeeded | undefined {
	const filing = filingOf(invoice);
	const state = typeof filing?.state_status === 'string' ? filing.state_status : undefined;
	const rejected = state !== undefined && REJECTED_STATES.has(state);
	if (!rejected && invoice.status !== 'error') return undefined;
	const id = String(invoice.id);
	const message = typeof filing?.message === 'string' && filing.message.trim() ? filing.message.trim() : undefined;
	const why = rejected ? state! : 'error';
	const reason = message ?? (rejected ? `the state ${state} the filing without a reason` : 'the filing failed (status error) without a reason');
	const document = message ? DOCUMENT_WORDS.find(([words]) => words.test(message)) : undefined;
	if (state === FINAL_FILING_REFUSAL)
		return {
			why,
			state_reason: reason,
			next_step: `The state refused invoice ${id} and answers nothing more: ask the service's operator whether it can be filed again; until then the transaction is not filed with the state.`,
		};
	if (document)
		return {
			why,
			state_reason: reason,
			document_type: document[1],
			next_step: `Attach the ${document[2]} to invoice ${id} with the Surplus Lines Document node (Attach, type ${document[1]}); the service's operator then re-submits the filing (status re-submitted), and the watch list or the trigger says when the state answers.`,
		};
	return {
		why,
		state_reason: reason,
		next_step: `Correct invoice ${id} as the reason says with Invoice → Update (or Invoice → Correct Filings where the sheet holds the right values) while the state has not accepted it; the service's operator then re-submits the filing.`,
	};
}
