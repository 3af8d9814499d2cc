import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItem } from './errors';
import { maskKnownKeysDeep, redactKeys } from './mask';
import { inFlightLimitOf, startRun } from './invoiceService';
import { readInvoiceId } from './params';
import type { Run } from './run';
import { sayRefusedRows, withRowPrefix, type RefusedNote } from './sheetRows';
import { noteDoneBeforeStop, noteRefusedBeforeAnyCall, type DescribeDone } from './stopped';
import { forToolUse } from './toolUse';

/** One operation of an action node: its own UI description and its own execute. */
export interface OperationModule {
	description: INodeProperties[];
	/**
	 * Runs once per input item; the router pairs, collects and handles continue-on-fail. `run`:
	 * the execution's one run (run.ts), the same for every item, made before the first.
	 */
	execute?: (this: IExecuteFunctions, itemIndex: number, run: Run) => Promise<INodeExecutionData[]>;
	/** Runs once over all input items (batching); it pairs its own output and handles its own failures. */
	executeAll?: (this: IExecuteFunctions, run: Run) => Promise<INodeExecutionData[]>;
	/**
	 * The checks of one item that need no call. When given, the router runs it over every item
	 * before the first item starts: a bad item stops the run before anything is sent, or (continue
	 * on fail) becomes its error item and is not run.
	 */
	check?: (this: IExecuteFunctions, itemIndex: number, run: Run) => Promise<void>;
	/**
	 * Items with the same key run one after another, in item order (two updates of one invoice
	 * must land as the rows say); undefined: no order needed. Read when the item starts; must not
	 * throw.
	 */
	orderKey?: (this: IExecuteFunctions, itemIndex: number) => string | undefined;
	/** Words for the items done before a failure stopped the run (default: their numbers). */
	describeDone?: DescribeDone;
	/** Said after the list of refused rows over the output (default: that each is an error item). */
	refusedNote?: RefusedNote;
	/** Says the run's summary over the output from its items (filing operations: outcome counts). */
	summarize?: (run: Run, items: INodeExecutionData[]) => void;
	/** What the run's work cost (filing operations: the look before filing beside the filing), said last. */
	sayCost?: (run: Run) => void;
	/** The most items in flight whatever the key's budget (concurrency.ts), for items that hold much while in flight. */
	mostInFlight?: number;
	/**
	 * Each item only reads (stores and changes nothing at the service): it may start with more items in
	 * flight before the key's budget is known (concurrency.ts), since a 429 only delays it.
	 */
	onlyReads?: boolean;
}

/** orderKey of operations that change one invoice: its id (an id that does not read needs no order). */
export function invoiceOrderKey(this: IExecuteFunctions, itemIndex: number): string | undefined {
	try {
		return `invoice:${readInvoiceId(this, itemIndex)}`;
	} catch {
		return undefined;
	}
}

export type ResourceMap = Record<string, Record<string, OperationModule>>;

function withItemIndex(ctx: IExecuteFunctions, error: Error, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), redactKeys(error.message), { itemIndex });
}

/**
 * An error that stops a run of several items names its row beside n8n's item index
 * ("Row 6 (item 4): …"), so n8n's "[item 4]" is not read as row 4.
 */
function stopError(ctx: IExecuteFunctions, run: Run, error: Error, itemIndex: number): Error {
	const stop = withItemIndex(ctx, error, itemIndex);
	if (run.items.length > 1) stop.message = withRowPrefix(run, itemIndex, stop.message);
	return stop;
}

/**
 * Every output item of every action node passes here: a reply that echoed the credential's key (in
 * any encoding) does not put it in an item. The items stay the same objects (errors.ts knows its
 * error items by identity); only their json is replaced.
 */
function withKeysMasked(items: INodeExecutionData[]): INodeExecutionData[] {
	for (const item of items) item.json = maskKnownKeysDeep(item.json);
	return items;
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
	// The run's values, read once from n8n's context: every stage below sees these, not the node.
	const run = startRun(this);
	if (module.executeAll) {
		const items = await module.executeAll.call(this, run);
		module.summarize?.(run, items);
		sayRefusedRows(run, items, module.refusedNote);
		module.sayCost?.(run);
		return [withKeysMasked(items)];
	}

	const count = this.getInputData().length;
	if (count === 0) return [[]];
	const results: INodeExecutionData[][] = new Array(count);
	const refused: Array<{ itemIndex: number; error: Error }> = [];
	for (let itemIndex = 0; module.check && itemIndex < count; itemIndex++) {
		try {
			await module.check.call(this, itemIndex, run);
		} catch (caught) {
			const error = run.tool ? forToolUse(caught as Error) : (caught as Error);
			refused.push({ itemIndex, error: withItemIndex(this, error, itemIndex) });
			results[itemIndex] = [errorItem(error, itemIndex, this.getNode())];
		}
	}
	if (refused.length && !this.continueOnFail()) {
		const [first] = refused;
		first.error = stopError(this, run, first.error, first.itemIndex);
		throw noteRefusedBeforeAnyCall(run, refused, count);
	}
	// The failure of the lowest item stops the run, as when items ran one by one; no new item
	// starts after a failure, and those in flight finish first.
	let failure: { itemIndex: number; error: Error } | undefined;
	const fail = (itemIndex: number, error: Error) => {
		if (!failure || itemIndex < failure.itemIndex) failure = { itemIndex, error };
	};
	const stopped = () => failure !== undefined;
	const lastOfKey = new Map<string, Promise<void>>();
	let next = 0;

	const runItem = async (itemIndex: number, after: Promise<void> | undefined) => {
		if (after) await after;
		if (stopped()) return;
		try {
			const items = await module.execute!.call(this, itemIndex, run);
			results[itemIndex] = this.helpers.constructExecutionMetaData(items, {
				itemData: { item: itemIndex },
			});
		} catch (caught) {
			// A tool's error is read by a model: its details say what input to send instead.
			const error = run.tool ? forToolUse(caught as Error) : (caught as Error);
			if (this.continueOnFail()) {
				results[itemIndex] = [errorItem(error, itemIndex, this.getNode())];
			} else {
				fail(itemIndex, error);
			}
		}
	};

	// A promise pool whose size the key's budget sets (concurrency.ts), asked again each time an
	// item ends: workers beyond the limit stop after their item, missing ones start.
	const limit = await inFlightLimitOf(this, module.mostInFlight, module.onlyReads);
	const pending: Array<Promise<void>> = [];
	let workers = 0;
	const worker = async () => {
		while (next < count && !stopped() && workers <= limit()) {
			const itemIndex = next++;
			if (results[itemIndex]) continue;
			const key = module.orderKey?.call(this, itemIndex);
			const after = key === undefined ? undefined : lastOfKey.get(key);
			const done = runItem(itemIndex, after);
			if (key !== undefined) lastOfKey.set(key, done);
			await done;
			startWorkers();
		}
		workers--;
	};
	const startWorkers = () => {
		while (workers < limit() && next < count && !stopped()) {
			workers++;
			pending.push(worker());
		}
	};
	startWorkers();
	while (pending.length > 0) await Promise.all(pending.splice(0));

	if (failure) {
		const error = stopError(this, run, failure.error, failure.itemIndex);
		throw noteDoneBeforeStop(run, error, results, module.describeDone);
	}
	const items = results.flat();
	module.summarize?.(run, items);
	sayRefusedRows(run, items, module.refusedNote);
	module.sayCost?.(run);
	return [withKeysMasked(items)];
}
