import type { DocumentInput } from '../invoices/types';

export const MIME_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/jpg'];
const TYPE_RE = /^[A-Za-z0-9_-]+$/;

type Add = (field: string, message: string) => void;

/**
 * Checks one document reference. `label` names the item in messages ("documents[2]") when the
 * reference comes inside an invoice; for the PUT endpoint it is empty and fields stand alone.
 */
export function checkDocument(raw: unknown, docUUID: unknown, label: string, add: Add): DocumentInput | null {
	const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
	const name = (field: string): string => (label ? `${label}.${field}` : field);
	// Standalone fields use the service's sentence form; items inside documents[] name themselves.
	const report = (field: string, message: string): void =>
		label
			? add('documents', `${name(field)} ${message}`)
			: add(field, message === 'is required' ? 'This field is required' : message[0].toUpperCase() + message.slice(1));
	let ok = true;
	const fail = (field: string, message: string): void => {
		ok = false;
		report(field, message);
	};

	const type = item.type;
	if (typeof type !== 'string' || type === '') fail('type', 'is required');
	else if (type.length > 50) fail('type', 'must not exceed 50 characters');
	else if (!TYPE_RE.test(type)) fail('type', 'may contain only letters, digits, underscore or hyphen');

	if (typeof docUUID !== 'string' || docUUID === '') fail('docUUID', 'is required');
	else if (docUUID.length > 256) fail('docUUID', 'must not exceed 256 characters');

	const filename = item.filename;
	if (filename !== undefined && filename !== null) {
		if (typeof filename !== 'string') fail('filename', 'must be a string');
		else if (filename.length > 255) fail('filename', 'must not exceed 255 characters');
	}
	const mime = item.mime_type;
	if (mime !== undefined && mime !== null && (typeof mime !== 'string' || !MIME_TYPES.includes(mime)))
		fail('mime_type', `must be one of: ${MIME_TYPES.join(', ')}`);

	if (!ok) return null;
	return {
		type: type as string,
		docUUID: docUUID as string,
		filename: typeof filename === 'string' ? filename : undefined,
		mime_type: typeof mime === 'string' ? mime : undefined,
	};
}
