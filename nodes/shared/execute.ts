import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItem } from './errors';

/** One operation of an action node: its own UI description and its own execute. */
export interface OperationModule {
	description: INodeProperties[];
	/** Runs once per input item; the router pairs, collects and handles continue-on-fail. */
	execute?: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
	/** Runs once over all input items (batching); it pairs its own output and handles its own failures. */
	executeAll?: (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;
}

export type ResourceMap = Record<string, Record<string, OperationModule>>;

function withItemIndex(ctx: IExecuteFunctions, error: Error, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error.message, { itemIndex });
}

/** The router every action node uses: resource and operation pick a module; each item runs on its own. */
export async function routeOperations(
	this: IExecuteFunctions,
	resources: ResourceMap,
): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = resources[resource]?.[operation];
	if (!module) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not supported for "${resource}"`,
		);
	}
	if (module.executeAll) return [await module.executeAll.call(this)];

	const output: INodeExecutionData[] = [];
	const count = this.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const items = await module.execute!.call(this, itemIndex);
			output.push(
				...this.helpers.constructExecutionMetaData(items, { itemData: { item: itemIndex } }),
			);
		} catch (error) {
			if (this.continueOnFail()) {
				output.push(errorItem(error as Error, itemIndex, this.getNode()));
				continue;
			}
			throw withItemIndex(this, error as Error, itemIndex);
		}
	}
	return [output];
}
