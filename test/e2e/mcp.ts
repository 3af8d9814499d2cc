/**
 * An MCP client as an assistant's host would be one: the official MCP TypeScript SDK over
 * streamable HTTP, with no model behind it. The tools it lists and the replies it gets are what a
 * model would read.
 */
import { randomBytes } from 'node:crypto';

import { createRequire } from 'node:module';

// The SDK publishes its entry points through package exports, which the lint's import resolver
// does not read: loaded with Node's require, typed from the same paths.
type ClientModule = typeof import('@modelcontextprotocol/sdk/client/index.js');
type TransportModule = typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
const requireSdk = createRequire(__filename);
const { Client } = requireSdk('@modelcontextprotocol/sdk/client/index.js') as ClientModule;
const { StreamableHTTPClientTransport } = requireSdk('@modelcontextprotocol/sdk/client/streamableHttp.js') as TransportModule;

/**
 * The Bearer Auth credential the MCP examples' trigger checks (the examples ship with this id),
 * with a new random token in each process that sets n8n up (the demo, the e2e run, the browser test).
 */
export const MCP_CREDENTIAL = { id: 'slDemoMcpBearer', name: 'MCP clients (bearer token)', type: 'httpBearerAuth' };
export const MCP_TOKEN = randomBytes(24).toString('hex');

export function mcpCredential(): typeof MCP_CREDENTIAL & { data: { token: string } } {
	return { ...MCP_CREDENTIAL, data: { token: MCP_TOKEN } };
}

export interface ToolReply {
	/** The reply's text as the model reads it. */
	text: string;
	isError: boolean;
}

export interface McpConnection {
	tools(): Promise<Array<{ name: string; description?: string; inputSchema: { properties?: Record<string, { type?: string; description?: string }>; required?: string[] } }>>;
	call(name: string, args: Record<string, unknown>): Promise<ToolReply>;
	close(): Promise<void>;
}

/** Connects to an MCP Server Trigger's URL, with `Authorization: Bearer <token>` when a token is given. */
export async function connectMcp(url: string, token?: string): Promise<McpConnection> {
	const transport = new StreamableHTTPClientTransport(new URL(url), {
		requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
	});
	const client = new Client({ name: 'surplus-lines-e2e', version: '1.0.0' });
	await client.connect(transport);
	return {
		async tools() {
			return (await client.listTools()).tools as Awaited<ReturnType<McpConnection['tools']>>;
		},
		async call(name, args) {
			const result = (await client.callTool({ name, arguments: args })) as { content?: Array<{ type: string; text?: string }>; isError?: boolean };
			const text = (result.content ?? []).map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
			return { text, isError: result.isError === true };
		},
		async close() {
			await client.close();
		},
	};
}
