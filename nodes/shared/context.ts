import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

/** Every kind of n8n context that talks to the service: actions, the trigger, dropdowns. */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export function isExecuteContext(ctx: ApiContext): ctx is IExecuteFunctions {
	return 'getInputData' in ctx;
}
