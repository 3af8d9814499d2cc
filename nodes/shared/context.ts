import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

/** Every kind of n8n context that talks to the service: actions, the trigger, dropdowns. */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export function isExecuteContext(ctx: ApiContext): ctx is IExecuteFunctions {
	return 'getInputData' in ctx;
}

// Kept per context here, at n8n's edge: the transport asks it for every call.
const toolRuns = new WeakMap<object, boolean>();

/**
 * Whether this run is a tool call: n8n generates a `...Tool` variant of every action node (for
 * the AI Agent and the MCP Server Trigger), and only that variant's type ends in `Tool`. Read
 * once per context: getNode() copies the whole node. (A run's stages read `run.tool`.)
 */
export function isToolUse(ctx: ApiContext): boolean {
	let tool = toolRuns.get(ctx);
	if (tool === undefined) toolRuns.set(ctx, (tool = ctx.getNode().type.endsWith('Tool')));
	return tool;
}
