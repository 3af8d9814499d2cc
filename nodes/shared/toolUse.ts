import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { readErrorInfo } from './errors';

// Whether a run is a tool call is read at n8n's edge (context.ts); the stages read `run.tool`.
export { isToolUse } from './context';

/**
 * The Tool Description an assistant reads, one per operation. n8n adds its own generic pair
 * (Tool Description: Set Automatically, "<action> in <node>") only to nodes that have no
 * `toolDescription` parameter; these take its place, shown on the tool variant only (`@tool`),
 * so a tool dragged onto an agent or an MCP Server Trigger starts with a description a model
 * can act on, and the user may still rewrite it.
 */
export function toolDescriptionProperties(
	resource: string,
	texts: Record<string, string>,
	versions: NonNullable<IDisplayOptions['show']> = {},
): INodeProperties[] {
	return Object.entries(texts).map(([operation, text]) => ({
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 6 },
		default: text,
		description:
			'What the assistant reads about this tool: what it does, what it returns, the inputs it needs and what to do after an error',
		displayOptions: {
			show: { '@tool': [true], ...versions, resource: [resource], operation: [operation] },
		},
	}));
}

/**
 * What a model should do next after each kind of failure, in place of the advice written for a
 * person at the node (which names panels and switches a model cannot see).
 */
const NEXT_STEP: Record<string, string> = {
	INVALID_INPUT:
		'Nothing was sent to the service. Call the tool again with the fields named above corrected.',
	VALIDATION_ERROR:
		'The service refused these values and stored nothing. Correct the fields named above and call the tool again.',
	PREVIEW_INVALID:
		'The preview found the problems listed above, so nothing was filed. Correct those inputs and call the tool again.',
	BAD_REQUEST: 'The service could not read the request. Check the inputs’ formats and call again.',
	NOT_FOUND:
		'There is no such record on this account. Check the ID; listing the policy’s transactions gives the invoice IDs.',
	CONFLICT:
		'The invoice can no longer be changed or deleted (the state has accepted it). Nothing was changed; tell the user.',
	UNAUTHORIZED:
		'The API key in n8n was refused: changing the inputs will not help. Tell the user to check the Surplus Lines credential in n8n; do not retry.',
	FORBIDDEN:
		'The API key in n8n may not do this: changing the inputs will not help. Tell the user; do not retry.',
	TIER_REQUIRED:
		'The API key in n8n is of a lower tier than this needs: changing the inputs will not help. Tell the user; do not retry.',
	RATE_LIMIT_EXCEEDED:
		'The key’s hourly calls are used up. Call again after the time given (retry_at), not before; tell the user if they are waiting.',
	INTERNAL_ERROR:
		'A fault at the service. Try the same call again in a minute; calling again with the same inputs files nothing twice.',
	NETWORK_ERROR:
		'The service could not be reached. Try the same call again in a minute; calling again with the same inputs files nothing twice.',
	TIMEOUT:
		'The service did not answer in time. Try the same call again; calling again with the same inputs files nothing twice.',
};

/**
 * The error as a model reads it: the message (what was wrong) stays; the details become the
 * fields at fault, the next step for a model and the request ID. Unknown errors pass unchanged.
 */
export function forToolUse<T extends Error>(error: T): T {
	const info = readErrorInfo(error);
	if (!info) return error;
	const lines = [...(info.fields ?? [])];
	const next = NEXT_STEP[info.code];
	if (next) lines.push(next);
	if (info.requestId) lines.push(`Request ID: ${info.requestId}`);
	(error as { description?: string }).description = lines.join('\n');
	return error;
}
