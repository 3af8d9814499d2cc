/**
 * A stand-in for an OpenAI-compatible chat model on 127.0.0.1, for n8n's AI Agent: no model runs
 * here, so this one follows a script. Asked first, it calls one tool; given the tool's result, it
 * answers with that result. It keeps every request, so a test sees the tools the agent offered.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OfferedTool {
	name: string;
	description: string;
	parameters: { properties?: Record<string, unknown> };
}

export interface ChatRequest {
	messages: Array<{ role: string; content?: unknown }>;
	tools?: Array<{ type: string; function: OfferedTool }>;
	stream?: boolean;
}

export interface StandInModel {
	/** The base URL to give the chat model node (ends in /v1). */
	url: string;
	requests: ChatRequest[];
	close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<ChatRequest> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
}

/** The assistant's message as the reply's `message` (or, streamed, as one `delta`). */
function reply(res: ServerResponse, stream: boolean, message: Record<string, unknown>, finish: string): void {
	const base = { id: 'chatcmpl-standin', created: 0, model: 'stand-in' };
	if (!stream) {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
		return;
	}
	const toolCalls = (message.tool_calls as Array<Record<string, unknown>> | undefined)?.map((call, index) => ({ index, ...call }));
	const delta = { role: 'assistant', content: message.content ?? '', ...(toolCalls ? { tool_calls: toolCalls } : {}) };
	res.writeHead(200, { 'content-type': 'text/event-stream' });
	res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
	res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }] })}\n\n`);
	res.end('data: [DONE]\n\n');
}

/** Starts the stand-in: its first answer calls `tool` with `args`; after the tool's result it answers `Answer: <result>`. */
export async function startStandInModel(tool: string, args: Record<string, unknown>): Promise<StandInModel> {
	const requests: ChatRequest[] = [];
	const server: Server = createServer((req, res) => {
		void readJson(req).then(
			(body) => {
				requests.push(body);
				const result = body.messages.find((m) => m.role === 'tool');
				if (result) reply(res, body.stream === true, { role: 'assistant', content: `Answer: ${String(result.content)}` }, 'stop');
				else reply(res, body.stream === true, { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: tool, arguments: JSON.stringify(args) } }] }, 'tool_calls');
			},
			() => {
				res.writeHead(400);
				res.end();
			},
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
