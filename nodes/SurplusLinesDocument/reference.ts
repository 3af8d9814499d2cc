import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { inputError, serviceError } from '../shared/errors';
import { readTextParameter } from '../shared/params';
import { LIST_KEYS, PATHS, readList } from '../shared/service';
import { apiRequest } from '../shared/transport';
import { zodIssueLines } from '../shared/zodIssues';
import { referenceInput } from './validation';

const ALL_DIGITS = /^\d+$/;

/**
 * The value to put in the document path for the user's reference. The service reads an all-digit
 * path value as its own document id, so an all-digit docUUID cannot be sent as it is: it is found
 * in the invoice's document list (one extra call) and its service id is used instead.
 */
export async function documentPathRef(
	ctx: IExecuteFunctions,
	itemIndex: number,
	invoiceId: string,
): Promise<string> {
	const raw = {
		referenceType: ctx.getNodeParameter('referenceType', itemIndex) as string,
		value: readTextParameter(ctx, 'document', itemIndex, 'Document'),
	};
	const parsed = referenceInput.safeParse(raw);
	if (!parsed.success) {
		throw inputError(
			ctx,
			zodIssueLines(parsed.error, raw, { value: 'Document', referenceType: 'Reference Type' }),
			{
				itemIndex,
			},
		);
	}
	const { referenceType, value } = parsed.data;
	if (referenceType === 'id' || !ALL_DIGITS.test(value)) return value;

	const reply = await apiRequest.call(ctx, {
		method: 'GET',
		path: PATHS.documents(invoiceId),
		itemIndex,
	});
	const match = readList<IDataObject>(reply.data, LIST_KEYS.documents).find(
		(d) => d.external_doc_uuid === value,
	);
	if (!match || match.id === undefined || match.id === null) {
		throw serviceError(
			ctx,
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
