import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { BoundedReadStop, readBounded } from '../shared/boundedRead';
import { getServiceCredential } from '../shared/credentials';
import { serviceError } from '../shared/errors';
import { DOWNLOAD_MAX_REDIRECTS } from '../shared/service';
import { downloadLinkProblem } from './downloadAddress';

interface FileResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MB = 1024 * 1024;

export interface FetchOptions {
	itemIndex: number;
	timeoutSeconds: number;
	/** The largest file kept, in bytes. */
	maxBytes: number;
}

function downloadError(
	ctx: IExecuteFunctions,
	code: string,
	message: string,
	itemIndex: number,
	hint: string,
	httpStatus?: number,
) {
	return serviceError(ctx, { code, message, httpStatus }, { itemIndex, hint });
}

const REFUSED_HINT =
	'Documents are fetched only over https from public hosts (hosts are checked by name and literal address; a name’s DNS answer is not checked). Ask the operator where the service’s download links point.';

function sizeLimitHint(maxBytes: number) {
	return `Raise Options → Max File Size (MB) (now ${Math.round(maxBytes / MB)} MB) if the file is expected to be this large.`;
}

/**
 * Reads the body up to `maxBytes` and until the download's deadline (the node's Timeout for the
 * whole transfer, redirects included); stops reading (and says so) past either.
 */
async function readCapped(
	ctx: IExecuteFunctions,
	body: unknown,
	options: FetchOptions,
	deadline: AbortSignal,
): Promise<Buffer> {
	try {
		const read = await readBounded(body, { maxBytes: options.maxBytes, signal: deadline });
		return Buffer.isBuffer(read) ? read : Buffer.from(String(read ?? ''));
	} catch (error) {
		if (deadline.aborted || (error instanceof BoundedReadStop && error.reason === 'expired'))
			throw downloadTimeout(ctx, options);
		if (!(error instanceof BoundedReadStop))
			throw downloadError(
				ctx,
				'DOWNLOAD_FAILED',
				`the file's transfer broke off (${(error as Error).message})`,
				options.itemIndex,
				'Run the node again: it asks the service for a fresh link each time.',
			);
		throw downloadError(
			ctx,
			'DOWNLOAD_TOO_LARGE',
			`the file is larger than the ${Math.round(options.maxBytes / MB)} MB this node keeps in memory, so it was not downloaded`,
			options.itemIndex,
			sizeLimitHint(options.maxBytes),
		);
	}
}

function downloadTimeout(ctx: IExecuteFunctions, options: FetchOptions) {
	return downloadError(
		ctx,
		'DOWNLOAD_TIMEOUT',
		`the file did not arrive whole within ${options.timeoutSeconds} s (the node's Timeout bounds the whole download), so it was not kept`,
		options.itemIndex,
		'Raise Options → Timeout if the file is large or the host slow, then run again: each run asks the service for a fresh link.',
	);
}

/**
 * Fetches a document's download link. The link is a signed, expiring address of the file (like a
 * storage service's pre-signed URL), not an API endpoint: it needs no key, and the API key must not
 * travel to it, so this is a plain request without the credential (not `apiRequest`). Redirects are
 * followed by hand, each target checked by the same rule as the link (service.ts), and the body is
 * read as a stream up to the size limit.
 */
export async function fetchFile(
	ctx: IExecuteFunctions,
	url: string,
	options: FetchOptions,
): Promise<Buffer> {
	const { itemIndex } = options;
	const { baseUrl } = await getServiceCredential(ctx, itemIndex);
	// One deadline for the whole download: every hop's headers and the body.
	const deadline = AbortSignal.timeout(options.timeoutSeconds * 1000);
	let address = url;
	for (let hop = 0; ; hop++) {
		const problem = downloadLinkProblem(address, baseUrl);
		if (problem) {
			const what =
				hop === 0 ? 'the document’s download link' : `redirect ${hop} of the download link`;
			throw downloadError(
				ctx,
				'DOWNLOAD_REFUSED',
				`${what} was not followed: ${problem}`,
				itemIndex,
				REFUSED_HINT,
			);
		}
		let response: FileResponse;
		try {
			response = (await ctx.helpers.httpRequest({
				method: 'GET',
				url: address,
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: options.timeoutSeconds * 1000,
				abortSignal: deadline,
				json: false,
			})) as FileResponse;
		} catch (error) {
			if (deadline.aborted) throw downloadTimeout(ctx, options);
			throw downloadError(
				ctx,
				'DOWNLOAD_FAILED',
				`the file could not be fetched from its download link (${(error as Error).message})`,
				itemIndex,
				'Run the node again: it asks the service for a fresh link each time.',
			);
		}
		const location = response.headers?.location;
		if (REDIRECTS.has(response.statusCode) && typeof location === 'string' && location) {
			(response.body as { destroy?: () => void } | undefined)?.destroy?.();
			if (hop >= DOWNLOAD_MAX_REDIRECTS)
				throw downloadError(
					ctx,
					'DOWNLOAD_REFUSED',
					`the download link redirected more than ${DOWNLOAD_MAX_REDIRECTS} times`,
					itemIndex,
					REFUSED_HINT,
				);
			try {
				address = new URL(location, address).toString();
			} catch {
				address = location;
			}
			continue;
		}
		if (response.statusCode !== 200) {
			(response.body as { destroy?: () => void } | undefined)?.destroy?.();
			throw downloadError(
				ctx,
				'DOWNLOAD_FAILED',
				`the file host answered HTTP ${response.statusCode} for the download link`,
				itemIndex,
				'Links expire 60 minutes after the service issues them; run the node again to get a fresh link.',
				response.statusCode,
			);
		}
		const declared = Number(response.headers?.['content-length']);
		if (Number.isFinite(declared) && declared > options.maxBytes) {
			(response.body as { destroy?: () => void } | undefined)?.destroy?.();
			throw downloadError(
				ctx,
				'DOWNLOAD_TOO_LARGE',
				`the file is ${Math.ceil(declared / MB)} MB, more than the ${Math.round(options.maxBytes / MB)} MB this node keeps in memory, so it was not downloaded`,
				itemIndex,
				sizeLimitHint(options.maxBytes),
			);
		}
		return await readCapped(ctx, response.body, options, deadline);
	}
}
