import type { IExecuteFunctions } from 'n8n-workflow';

import { readTextParameter } from '../../../shared/params';
import type { DocumentReference } from '../../reference';

/** Reference Type and Document, as the document operations read them (checked by reference.ts). */
export function readDocumentReference(
	ctx: IExecuteFunctions,
	itemIndex: number,
): DocumentReference {
	return {
		referenceType: ctx.getNodeParameter('referenceType', itemIndex) as string,
		value: readTextParameter(ctx, 'document', itemIndex, 'Document'),
	};
}
