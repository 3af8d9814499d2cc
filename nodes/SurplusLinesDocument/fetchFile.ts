import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { serviceError } from '../shared/errors';

interface FileResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
}

/**
 * Fetches a document's download link. The link is a signed, expiring address of the file (like a
 * storage service's pre-signed URL), not an API endpoint: it needs no key, and the API key must not
 * travel to it, so this is a plain request without the credential (not `apiRequest`).
 */
export async function fetchFile(
	ctx: IExecuteFunctions,
	url: string,
	options: { itemIndex: number; timeoutSeconds: number },
): Promise<Buffer> {
	let protocol = '';
	try {
		protocol = new URL(url).protocol;
	} catch {
		protocol = '';
	}
	if (protocol !== 'https:' && protocol !== 'http:') {
		throw serviceError(
			ctx,
			{
				code: 'DOWNLOAD_FAILED',
				message: 'the document’s download link is not an http(s) address',
			},
			{ itemIndex: options.itemIndex },
		);
	}
	let response: FileResponse;
	try {
		response = (await ctx.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'arraybuffer',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: options.timeoutSeconds * 1000,
			json: false,
		})) as FileResponse;
	} catch (error) {
		throw serviceError(
			ctx,
			{
				code: 'DOWNLOAD_FAILED',
				message: `the file could not be fetched from its download link (${(error as Error).message})`,
			},
			{
				itemIndex: options.itemIndex,
				hint: 'Run the node again: it asks the service for a fresh link each time.',
			},
		);
	}
	if (response.statusCode !== 200) {
		throw serviceError(
			ctx,
			{
				code: 'DOWNLOAD_FAILED',
				httpStatus: response.statusCode,
				message: `the file host answered HTTP ${response.statusCode} for the download link`,
			},
			{
				itemIndex: options.itemIndex,
				hint: 'Links expire 60 minutes after the service issues them; run the node again to get a fresh link.',
			},
		);
	}
	const body = response.body;
	return Buffer.isBuffer(body) ? body : Buffer.from(body as ArrayBuffer);
}
