/**
 * Runs this package's node classes inside n8n's real engine (n8n-core's WorkflowExecute, its
 * request helpers, parameter resolution and error types), with a credentials helper and a node
 * registry of our own. n8n's own test harness is not published, so this is the smallest one that
 * executes a node the way n8n does.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'sl-n8n-'));

import {
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PollContext,
	WorkflowExecute,
} from 'n8n-core';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import {
	ICredentialsHelper,
	NodeConnectionTypes,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
	type NodeParameterValueType,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { SurplusLinesApi } from '../../credentials/SurplusLinesApi.credentials';

export const PACKAGE = 'n8n-nodes-surplus-lines';
const CREDENTIAL_ID = 'cred-1';

/** A start node that emits the items given in its `items` parameter. */
class ItemsNode implements INodeType {
	description = {
		displayName: 'Items',
		name: 'items',
		group: ['input'],
		version: 1,
		description: 'Emits test items',
		defaults: { name: 'Items' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }] as INodeProperties[],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json, index) => ({ json, pairedItem: { item: index } }))];
	}
}

class NodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType>();

	constructor(nodes: INodeType[]) {
		this.types.set('test.items', new ItemsNode());
		for (const node of nodes) this.types.set(`${PACKAGE}.${node.description.name}`, node);
	}

	getByName(name: string): INodeType | IVersionedNodeType {
		const type = this.types.get(name);
		if (!type) throw new Error(`Unknown node type ${name}`);
		return type;
	}

	getByNameAndVersion(name: string): INodeType {
		return this.getByName(name) as INodeType;
	}

	getKnownTypes() {
		return {};
	}
}

/** Applies the credential type's `authenticate`, as n8n's CLI credentials helper does. */
class CredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: ICredentialDataDecryptedObject | undefined) {
		super();
	}

	private readonly type: ICredentialType = new SurplusLinesApi();

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(credentials: ICredentialDataDecryptedObject, _typeName: string, options: IHttpRequestOptions) {
		const authenticate = this.type.authenticate;
		if (typeof authenticate !== 'function') throw new Error('the harness expects an authenticate function');
		return await authenticate(credentials, options);
	}

	async preAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used in tests');
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		if (!this.data) throw new Error('No credential set for this test');
		return { ...this.data };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(): INodeProperties[] {
		return this.type.properties;
	}
}

export interface CredentialData {
	apiKey: string;
	baseUrl: string;
}

export function additionalData(credentials: CredentialData | undefined, workflow: Workflow, mode: WorkflowExecuteMode) {
	const data = {
		credentialsHelper: new CredentialsHelper(credentials as unknown as ICredentialDataDecryptedObject),
		hooks: new ExecutionLifecycleHooks(mode, 'test-execution', {
			id: workflow.id,
			name: workflow.name ?? 'test',
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
			nodes: Object.values(workflow.nodes),
			connections: workflow.connectionsBySourceNode,
			settings: {},
		} as never),
		executionId: 'test-execution',
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost/rest',
		instanceBaseUrl: 'http://localhost',
		formWaitingBaseUrl: 'http://localhost/form-waiting',
		webhookBaseUrl: 'http://localhost/webhook',
		webhookWaitingBaseUrl: 'http://localhost/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost/webhook-test',
		variables: {},
		logAiEvent: () => {},
		executeWorkflow: async () => {
			throw new Error('not used in tests');
		},
		getRunExecutionData: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('not used in tests');
		},
	};
	return data as unknown as IWorkflowExecuteAdditionalData;
}

export interface NodeRun {
	/** Output items of the node under test (first output), undefined when the run failed. */
	output?: INodeExecutionData[];
	/** Items n8n moved to the error output (On Error: Continue (using error output)); else undefined. */
	errorOutput?: INodeExecutionData[];
	/** The error that stopped the run, as n8n recorded it. */
	error?: Error & { description?: string; context?: IDataObject; httpCode?: string };
	run: IRun;
	/** The node's workflow static data after the run. */
	staticData?: IDataObject;
}

export interface RunOptions {
	node: INodeType;
	parameters: Record<string, NodeParameterValueType | object>;
	items?: IDataObject[];
	credentials?: CredentialData;
	/** true: On Error "Continue"; 'errorOutput': "Continue (using error output)". */
	continueOnFail?: boolean | 'errorOutput';
	settings?: Partial<INode>;
	/** The node's workflow static data before the run (as the database held it); the run's is returned. */
	staticData?: IDataObject;
}

function nodeOf(options: Pick<RunOptions, 'node' | 'parameters' | 'credentials' | 'settings'>, name = 'Under Test'): INode {
	return {
		id: 'node-under-test',
		name,
		type: `${PACKAGE}.${options.node.description.name}`,
		typeVersion: 1,
		position: [200, 0],
		parameters: options.parameters as INode['parameters'],
		credentials: options.credentials ? { surplusLinesApi: { id: CREDENTIAL_ID, name: 'Surplus Lines' } as INodeCredentialsDetails } : undefined,
		...options.settings,
	};
}

/** Runs `Items → node under test` in WorkflowExecute and returns the node's output or error. */
export async function runNode(options: RunOptions): Promise<NodeRun> {
	const nodeTypes = new NodeTypes([options.node]);
	const underTest = nodeOf({
		...options,
		settings: { ...(options.continueOnFail
			? {
					onError:
						options.continueOnFail === 'errorOutput'
							? ('continueErrorOutput' as const)
							: ('continueRegularOutput' as const),
				}
			: {}), ...options.settings },
	});
	const itemsNode: INode = {
		id: 'items',
		name: 'Items',
		type: 'test.items',
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(options.items ?? [{}]) },
	};
	const workflow = new Workflow({
		id: 'wf-test',
		name: 'test',
		nodes: [itemsNode, underTest],
		connections: { Items: { main: [[{ node: underTest.name, type: NodeConnectionTypes.Main, index: 0 }]] } },
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
		staticData: options.staticData ? { [`node:${underTest.name}`]: JSON.parse(JSON.stringify(options.staticData)) } : {},
	});
	const run = await new WorkflowExecute(additionalData(options.credentials, workflow, 'manual'), 'manual').run({
		workflow,
		startNode: itemsNode,
	});
	const taskData = run.data.resultData.runData[underTest.name]?.[0];
	return {
		run,
		output: taskData?.data?.main?.[0] ?? undefined,
		errorOutput: taskData?.data?.main?.[1] ?? undefined,
		error: (taskData?.error ?? run.data.resultData.error) as NodeRun['error'],
		staticData: JSON.parse(JSON.stringify((workflow.staticData as IDataObject)[`node:${underTest.name}`] ?? {})),
	};
}

export interface PollOptions {
	node: INodeType;
	parameters: Record<string, NodeParameterValueType | object>;
	credentials?: CredentialData;
	/** The node's static data, carried between polls like n8n does for an active workflow. */
	staticData?: IDataObject;
	mode?: WorkflowExecuteMode;
}

/** Calls the trigger's `poll()` in n8n's PollContext; returns what it emitted and the static data. */
export async function pollNode(options: PollOptions): Promise<{ emitted: INodeExecutionData[][] | null; staticData: IDataObject }> {
	const nodeTypes = new NodeTypes([options.node]);
	const node = nodeOf(options, 'Trigger');
	const workflow = new Workflow({
		id: 'wf-poll',
		name: 'poll',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData: options.staticData ? { [`node:${node.name}`]: options.staticData } : {},
	});
	const mode = options.mode ?? 'trigger';
	const context = new PollContext(workflow, node, additionalData(options.credentials, workflow, mode), mode, 'activate');
	const emitted = await options.node.poll!.call(context);
	const staticData = (workflow.staticData as IDataObject)[`node:${node.name}`] as IDataObject;
	return { emitted, staticData: JSON.parse(JSON.stringify(staticData ?? {})) };
}

/**
 * A polling trigger in an active workflow as n8n 2.8.4 runs it. ActiveWorkflows keeps one Workflow
 * between polls; WorkflowStaticDataService writes its static data to the database only when
 * `workflow.staticData.__dataChanged` is set (n8n's Proxy sets it on assignments it sees), and only
 * after the poll at activation and after a poll that emits. `saved` is what the database holds;
 * `restart()` builds a new Workflow from it and polls once, as `n8n start` does. A manual poll runs
 * on a Workflow of its own and writes nothing (n8n does not save manual runs' static data).
 */
export function activePoller(options: Omit<PollOptions, 'staticData' | 'mode'> & { saved?: IDataObject }) {
	const nodeTypes = new NodeTypes([options.node]);
	const node = nodeOf(options, 'Trigger');
	const key = `node:${node.name}`;
	let database = JSON.stringify(options.saved ? { [key]: options.saved } : {});
	let workflow: Workflow | undefined;
	let writes = 0;
	const build = () =>
		new Workflow({ id: 'wf-active', name: 'active', nodes: [node], connections: {}, active: true, nodeTypes, staticData: JSON.parse(database) as IDataObject });
	const changed = (wf: Workflow) => (wf.staticData as IDataObject).__dataChanged === true;
	const pollOn = async (wf: Workflow, mode: WorkflowExecuteMode, credentials = options.credentials) =>
		await options.node.poll!.call(new PollContext(wf, node, additionalData(credentials, wf, mode), mode, 'activate'));
	const poller = {
		/** One scheduled poll (the first one is the activation's); the node's output. */
		async poll(credentials?: CredentialData): Promise<INodeExecutionData[][] | null> {
			const activation = workflow === undefined;
			const wf = (workflow ??= build());
			const emitted = await pollOn(wf, 'trigger', credentials);
			if ((activation || emitted !== null) && changed(wf)) {
				database = JSON.stringify(wf.staticData);
				(wf.staticData as IDataObject).__dataChanged = false;
				writes += 1;
			}
			return emitted;
		},
		/** "Fetch Test Event": whether it marked its Workflow's static data as changed, and its output. */
		async manual(): Promise<{ emitted: INodeExecutionData[][] | null; changed: boolean }> {
			const wf = build();
			const emitted = await pollOn(wf, 'manual');
			return { emitted, changed: changed(wf) };
		},
		/** n8n stops (what it did not write is gone) and starts again: the activation poll runs. */
		async restart(): Promise<INodeExecutionData[][] | null> {
			workflow = undefined;
			return await poller.poll();
		},
		/** The node's static data as the database holds it. */
		get saved(): IDataObject {
			return ((JSON.parse(database) as IDataObject)[key] ?? {}) as IDataObject;
		},
		/** The node's static data in the running n8n. */
		get live(): IDataObject {
			return JSON.parse(JSON.stringify((workflow?.staticData as IDataObject | undefined)?.[key] ?? {})) as IDataObject;
		},
		/** Database writes of the static data so far. */
		get writes(): number {
			return writes;
		},
	};
	return poller;
}

/** Calls a `methods.loadOptions`, `methods.listSearch` or `methods.resourceMapping` function in n8n's LoadOptionsContext. */
export async function loadOptions(options: {
	node: INodeType;
	parameters: Record<string, NodeParameterValueType | object>;
	credentials?: CredentialData;
	kind: 'loadOptions' | 'listSearch' | 'resourceMapping';
	method: string;
	filter?: string;
}) {
	const nodeTypes = new NodeTypes([options.node]);
	const node = nodeOf(options);
	const workflow = new Workflow({ id: 'wf-lo', nodes: [node], connections: {}, active: false, nodeTypes });
	const context = new LoadOptionsContext(workflow, node, additionalData(options.credentials, workflow, 'internal'), 'parameters');
	const methods = options.node.methods?.[options.kind] as Record<string, (this: unknown, filter?: string) => Promise<unknown>>;
	if (!methods?.[options.method]) throw new Error(`No ${options.kind} method ${options.method}`);
	return await methods[options.method].call(context, options.filter);
}

/** n8n-core keeps an SSH-client timer alive; stop it so jest can exit. */
export function shutdownEngine(): void {
	// n8n-core carries its own copy of @n8n/di; the container that knows the service is that one.
	const di = require(require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] })) as typeof import('@n8n/di');
	di.Container.get(SSHClientsManager).onShutdown();
}
