import { z } from 'zod';

import { docUuidInPath, documentReference } from '../shared/documentRules';

/** The description's document input rules (Document), checked before any call. */
export const attachInput = documentReference.extend({ docUUID: docUuidInPath() });

export const referenceInput = z.discriminatedUnion('referenceType', [
	z.object({
		referenceType: z.literal('id'),
		value: z.string().regex(/^\d+$/, 'a service document ID is a whole number'),
	}),
	z.object({
		referenceType: z.literal('docUUID'),
		value: docUuidInPath(
			'; a document attached with such a docUUID is reached by its Service Document ID',
		),
	}),
]);
