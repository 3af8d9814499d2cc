/**
 * One run of an operation, as the stages see it: values only, never n8n's context. The operation
 * creates it once per execution (invoiceService.ts, `startRun`), hands it to every stage it
 * calls, and builds its items from what the stages left in it.
 */
import type { IDataObject, INode, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';

import type { InvoiceService } from './invoiceService';

/**
 * What the run learned, one field per stage that learned it. Each stage declares its own field
 * beside its code (`declare module '../shared/run' { interface RunLearned { … } }`), so this one
 * type lists them all while shared/ imports no stage.
 */
export interface RunLearned {
	/** The body's sanity warnings of each item, until its output item is built. */
	warnings?: Map<number, string[]>;
}

export interface Run {
	/** The node, for the errors the stages raise (errors.ts names it). */
	readonly node: INode;
	/** The errors' builders read the node through this (errors.ts takes `{ getNode }`). */
	getNode(): INode;
	/** The run's input items, as n8n gave them. */
	readonly items: INodeExecutionData[];
	/** A tool's call (an AI agent's or an MCP client's): its items have no sheet row. */
	readonly tool: boolean;
	/** The nodes before this one (asked once, only when a note about row numbers needs them). */
	parents(): Array<{ type: string; parameters?: IDataObject }>;
	/** Says a hint over the output (n8n's execution hints). */
	say(hint: NodeExecutionHint): void;
	/** The service, through the one transport. */
	readonly service: InvoiceService;
	/** Calls made by this run, by purpose (`create`, `list`, `preview`…). */
	readonly calls: Map<string, number>;
	/** What the stages learned on the way (notes, warnings, look-ups, the sheet's shape). */
	readonly learned: RunLearned;
}

/** A run over plain values: what the n8n edge builds, and what the stages' tests build. */
export function newRun(values: {
	node: INode;
	items: INodeExecutionData[];
	service: InvoiceService;
	calls?: Map<string, number>;
	tool?: boolean;
	parents?: () => Array<{ type: string; parameters?: IDataObject }>;
	say?: (hint: NodeExecutionHint) => void;
}): Run {
	let parents: Array<{ type: string; parameters?: IDataObject }> | undefined;
	return {
		node: values.node,
		getNode: () => values.node,
		items: values.items,
		tool: values.tool ?? false,
		parents: () => (parents ??= values.parents?.() ?? []),
		say: values.say ?? (() => undefined),
		service: values.service,
		calls: values.calls ?? new Map(),
		learned: {},
	};
}
