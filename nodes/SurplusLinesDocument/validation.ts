import { z } from 'zod';

import { docUuidRule, documentReference } from '../shared/documentRules';

/** The description's document input rules (Document), checked before any call. */
export const attachInput = documentReference;

export const referenceInput = z.discriminatedUnion('referenceType', [
	z.object({
		referenceType: z.literal('id'),
		value: z.string().regex(/^\d+$/, 'a service document ID is a whole number'),
	}),
	z.object({
		referenceType: z.literal('docUUID'),
		value: docUuidRule,
	}),
]);
