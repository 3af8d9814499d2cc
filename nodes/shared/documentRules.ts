/**
 * The description's rules for a document reference (Document: type, docUUID,
 * filename, mime_type), in its own words. One schema for the Document node's Attach and for the
 * documents[] of an invoice body.
 */
import { z } from 'zod';

import { DOCUMENT_MIME_TYPES, DOCUMENT_TYPE_PATTERN, LIMITS } from './rules';
import { documentSegmentProblem } from './service';
import { isBlankValue, readText, readWith } from './values';

const blankAsMissing = (value: unknown) => (isBlankValue(value) ? undefined : value);
const tooLong = (max: number) => `Must not exceed ${max} characters`;

const DOCUMENT_MESSAGES = {
	typePattern: 'May contain only letters, digits, underscore or hyphen',
	mimeType: `Must be one of: ${DOCUMENT_MIME_TYPES.join(', ')}`,
	tooLong,
} as const;

// Text through the shared reader: a number is written as text, an object or a list is refused by
// name (never sent as "[object Object]").
const text = (required: boolean) => readWith(z, readText, required);

/** A docUUID: required, at most 256 characters. */
export const docUuidRule = text(true).pipe(z.string().max(LIMITS.docUuid, tooLong(LIMITS.docUuid)));

/**
 * A docUUID that goes in a request path (Attach, and Get, Download, Wait and Delete by docUUID):
 * also one path segment that means itself on any server (service.ts). A docUUID in an invoice
 * body goes in no path and keeps the plain rule. `advice` follows the rule in the message.
 */
export const docUuidInPath = (advice = '') =>
	docUuidRule.superRefine((value, issues) => {
		// A value already refused (missing, too long) reaches here too; it is said once.
		const problem = typeof value === 'string' ? documentSegmentProblem(value) : undefined;
		if (problem) issues.addIssue({ code: 'custom', message: `${problem}${advice}` });
	});

/** One document reference; `.passthrough()` it where unknown fields should travel on. */
export const documentReference = z.object({
	type: text(true).pipe(
		z
			.string()
			.max(LIMITS.documentType, tooLong(LIMITS.documentType))
			.regex(DOCUMENT_TYPE_PATTERN, DOCUMENT_MESSAGES.typePattern),
	),
	docUUID: docUuidRule,
	filename: text(false).pipe(z.string().max(LIMITS.fileName, tooLong(LIMITS.fileName)).optional()),
	mime_type: z.preprocess(
		blankAsMissing,
		z
			.enum(DOCUMENT_MIME_TYPES, { errorMap: () => ({ message: DOCUMENT_MESSAGES.mimeType }) })
			.optional(),
	),
});
