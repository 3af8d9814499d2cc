/**
 * Runs the credential's test the way n8n 2.8.4's CLI does for a declarative test
 * (`CredentialsTester.testCredentials` in n8n/dist/services/credentials-tester.service.js, which is
 * not published as a library): the test request goes through n8n-core's RoutingNode in a one-node
 * workflow, with the credential's `authenticate`; a thrown error becomes the message shown, and on a
 * reply the `responseSuccessBody` rules are checked in order. The end-to-end run checks the same
 * cases against the real n8n's REST endpoint.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	createEmptyRunExecutionData,
	NodeConnectionTypes,
	Workflow,
	type ICredentialsDecrypted,
	type INode,
	type INodeCredentialTestResult,
	type INodeType,
	type INodeTypes,
} from 'n8n-workflow';

import { SurplusLinesApi } from '../../credentials/SurplusLinesApi.credentials';
import { additionalData, type CredentialData } from './engine';

/** lodash's `get` for the dotted keys the rules use (n8n's tester uses lodash). */
function get(value: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), value);
}

export async function testCredential(data: CredentialData): Promise<INodeCredentialTestResult> {
	const credentialType = new SurplusLinesApi();
	const testRequest = credentialType.test;
	const nodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: [],
			version: 1,
			description: '',
			defaults: {},
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' },
			],
		},
	} as unknown as INodeType;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType.name]: { id: 'cred-test', name: 'Test' } },
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData(data, workflow, 'internal'),
		'internal',
		createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const credentials: ICredentialsDecrypted = {
		id: 'cred-test',
		name: 'Test',
		type: credentialType.name,
		data: { ...data },
	};
	let response: Awaited<ReturnType<RoutingNode['runNode']>>;
	try {
		response = await new RoutingNode(context, nodeType, credentials).runNode();
	} catch (error) {
		// The test sets ignoreHttpStatusErrors, so an error here never carries a reply.
		const cause = (error as { cause?: { code?: string } }).cause;
		if (cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: String((error as Error).message) };
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		if (get(response?.[0]?.[0]?.json, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
