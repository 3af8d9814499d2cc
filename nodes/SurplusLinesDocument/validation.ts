import { z } from 'zod';

import { DOCUMENT_MIME_TYPES, DOCUMENT_TYPE_PATTERN, LIMITS } from '../shared/rules';

/** The description's document input rules (service-api.md, Document), checked before any call. */
export const attachInput = z.object({
	type: z
		.string()
		.min(1, 'This field is required')
		.max(LIMITS.documentType, `at most ${LIMITS.documentType} characters`)
		.regex(DOCUMENT_TYPE_PATTERN, 'letters, digits, underscore or hyphen only'),
	docUUID: z
		.string()
		.min(1, 'This field is required')
		.max(LIMITS.docUuid, `at most ${LIMITS.docUuid} characters`),
	filename: z.string().max(LIMITS.fileName, `at most ${LIMITS.fileName} characters`).optional(),
	mime_type: z
		.enum(DOCUMENT_MIME_TYPES, {
			errorMap: () => ({ message: `must be one of ${DOCUMENT_MIME_TYPES.join(', ')}` }),
		})
		.optional(),
});

export type AttachInput = z.infer<typeof attachInput>;

/** Which value the user gave for a document: the service's id or their own docUUID. */
export type ReferenceType = 'docUUID' | 'id';

export const referenceInput = z.discriminatedUnion('referenceType', [
	z.object({
		referenceType: z.literal('id'),
		value: z.string().regex(/^\d+$/, 'a service document ID is a whole number'),
	}),
	z.object({
		referenceType: z.literal('docUUID'),
		value: z
			.string()
			.min(1, 'This field is required')
			.max(LIMITS.docUuid, `at most ${LIMITS.docUuid} characters`),
	}),
]);
