import type { IDataObject } from 'n8n-workflow';

import { inputError, serviceError } from '../shared/errors';
import type { Run } from '../shared/run';
import { LIST_KEYS, readList } from '../shared/service';
import { zodIssueLines } from '../shared/zodIssues';
import { referenceInput } from './validation';

const ALL_DIGITS = /^\d+$/;

/**
 * The value to put in the document path for the user's reference. The service reads an all-digit
 * path value as its own document id, so an all-digit docUUID cannot be sent as it is: it is found
 * in the invoice's document list (one extra call) and its service id is used instead.
 */
/** Reference Type and Document as the operation read them (actions/document/referenceSettings.ts). */
export interface DocumentReference {
	referenceType: string;
	value: string;
}

export async function documentPathRef(
	run: Pick<Run, 'getNode' | 'service'>,
	raw: DocumentReference,
	itemIndex: number,
	invoiceId: string,
): Promise<string> {
	const parsed = referenceInput.safeParse(raw);
	if (!parsed.success) {
		throw inputError(
			run,
			zodIssueLines(parsed.error, raw, { value: 'Document', referenceType: 'Reference Type' }),
			{
				itemIndex,
			},
		);
	}
	const { referenceType, value } = parsed.data;
	if (referenceType === 'id' || !ALL_DIGITS.test(value)) return value;

	const reply = await run.service.documents(invoiceId, itemIndex);
	const match = readList<IDataObject>(reply.data, LIST_KEYS.documents).find(
		(d) => d.external_doc_uuid === value,
	);
	if (!match || match.id === undefined || match.id === null) {
		throw serviceError(
			run,
			{
				code: 'NOT_FOUND',
				httpStatus: 404,
				message: `invoice ${invoiceId} has no document with docUUID "${value}"`,
				requestId: reply.requestId,
			},
			{
				itemIndex,
				hint: 'An all-digit docUUID is looked up in the invoice’s document list, because the service reads an all-digit value as its own document ID. If you meant the service’s ID, set Reference Type to Service Document ID.',
			},
		);
	}
	return String(match.id);
}
