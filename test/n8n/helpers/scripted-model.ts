/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// An OpenAI-compatible chat model server for the real-n8n tests: no model, no network. It speaks
// the Responses API (`POST /v1/responses`, the OpenAI Chat Model node's default since 1.3) and Chat
// Completions (`POST /v1/chat/completions`, "Use Responses API" off), streamed or not, plays a
// script of turns (tool calls, then a final text), and records every request n8n sends: the tools
// the model is offered (name, description, parameter JSON schema) and the tool results that come back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCall {
	name: string;
	/** the arguments as the model would send them (any JSON, wrong types included) */
	arguments: Record<string, unknown>;
}

/** One answer of the model: tool calls, or a final text. */
export type Turn = { toolCalls: ToolCall[] } | { text: string };

export interface OfferedTool {
	name: string;
	description: string;
	parameters: Record<string, unknown>;
}

export interface ToolResult {
	callId: string;
	/** the tool name the model called with this id */
	name: string;
	output: string;
}

export interface RecordedRequest {
	api: 'responses' | 'chat';
	stream: boolean;
	model: string;
	tools: OfferedTool[];
	/** tool results in this request's input (all of them, the earlier turns' included) */
	toolResults: ToolResult[];
	bytes: number;
}

export interface ScriptedModel {
	/** the base URL for the OpenAI credential, e.g. http://127.0.0.1:1234/v1 */
	url: string;
	requests: RecordedRequest[];
	/** Sets the turns for the next conversation; once they are played, the model answers `fallback`. */
	play(turns: Turn[], fallback?: string): void;
	close(): Promise<void>;
}

interface ResponsesBody {
	model: string;
	stream?: boolean;
	tools?: Array<{
		type: string;
		name: string;
		description?: string;
		parameters?: Record<string, unknown>;
	}>;
	input?: Array<{
		type?: string;
		role?: string;
		call_id?: string;
		name?: string;
		output?: unknown;
	}>;
}

interface ChatBody {
	model: string;
	stream?: boolean;
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: Record<string, unknown> };
	}>;
	messages?: Array<{
		role: string;
		content?: unknown;
		tool_call_id?: string;
		tool_calls?: Array<{ id: string; function: { name: string } }>;
	}>;
}

const text = (content: unknown): string =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((part: { text?: string }) => part.text ?? '').join('')
			: JSON.stringify(content);

export async function startScriptedModel(): Promise<ScriptedModel> {
	let turns: Turn[] = [];
	let fallback = 'Done.';
	let sequence = 0;
	const requests: RecordedRequest[] = [];
	const next = (): Turn => turns.shift() ?? { text: fallback };

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const raw = Buffer.concat(chunks);
			const path = (req.url ?? '').replace(/\?.*$/, '');
			try {
				if (req.method === 'POST' && path.endsWith('/responses'))
					return responses(JSON.parse(raw.toString('utf8')) as ResponsesBody, raw.length, res);
				if (req.method === 'POST' && path.endsWith('/chat/completions'))
					return chat(JSON.parse(raw.toString('utf8')) as ChatBody, raw.length, res);
				if (req.method === 'GET' && path.endsWith('/models'))
					return json(res, 200, {
						object: 'list',
						data: [{ id: 'scripted-model', object: 'model', owned_by: 'test' }],
					});
				json(res, 404, {
					error: {
						message: `the scripted model does not serve ${req.method} ${path}`,
						type: 'invalid_request_error',
					},
				});
			} catch (error) {
				json(res, 400, {
					error: { message: (error as Error).message, type: 'invalid_request_error' },
				});
			}
		});
	});

	function responses(body: ResponsesBody, bytes: number, res: http.ServerResponse) {
		const names = new Map<string, string>();
		for (const item of body.input ?? [])
			if (item.type === 'function_call' && item.call_id) names.set(item.call_id, item.name ?? '');
		requests.push({
			api: 'responses',
			stream: body.stream === true,
			model: body.model,
			tools: (body.tools ?? [])
				.filter((t) => t.type === 'function')
				.map((t) => ({
					name: t.name,
					description: t.description ?? '',
					parameters: t.parameters ?? {},
				})),
			toolResults: (body.input ?? [])
				.filter((item) => item.type === 'function_call_output')
				.map((item) => ({
					callId: item.call_id!,
					name: names.get(item.call_id!) ?? '',
					output: text(item.output),
				})),
			bytes,
		});
		const turn = next();
		const id = `resp_${++sequence}`;
		const output =
			'text' in turn
				? [
						{
							type: 'message',
							id: `msg_${sequence}`,
							role: 'assistant',
							status: 'completed',
							content: [{ type: 'output_text', text: turn.text, annotations: [] }],
						},
					]
				: turn.toolCalls.map((call, index) => ({
						type: 'function_call',
						id: `fc_${sequence}_${index}`,
						call_id: `call_${sequence}_${index}`,
						name: call.name,
						arguments: JSON.stringify(call.arguments),
						status: 'completed',
					}));
		const response = {
			id,
			object: 'response',
			created_at: Math.floor(Date.now() / 1000),
			model: body.model,
			status: 'completed',
			output,
			usage: {
				input_tokens: Math.ceil(bytes / 4),
				output_tokens: 10,
				total_tokens: Math.ceil(bytes / 4) + 10,
			},
		};
		if (!body.stream) return json(res, 200, response);
		const events: Array<Record<string, unknown>> = [
			{ type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
		];
		output.forEach((item, index) => {
			if (item.type === 'message') {
				events.push({
					type: 'response.output_item.added',
					output_index: index,
					item: { ...item, content: [] },
				});
				events.push({
					type: 'response.output_text.delta',
					output_index: index,
					content_index: 0,
					item_id: item.id,
					delta: turn && 'text' in turn ? turn.text : '',
				});
			} else {
				const call = item as { arguments: string };
				events.push({
					type: 'response.output_item.added',
					output_index: index,
					item: { ...item, arguments: '' },
				});
				events.push({
					type: 'response.function_call_arguments.delta',
					output_index: index,
					item_id: item.id,
					delta: call.arguments,
				});
			}
			events.push({ type: 'response.output_item.done', output_index: index, item });
		});
		events.push({ type: 'response.completed', response });
		sse(
			res,
			events.map((event, index) => ({ ...event, sequence_number: index })),
		);
	}

	function chat(body: ChatBody, bytes: number, res: http.ServerResponse) {
		const names = new Map<string, string>();
		for (const message of body.messages ?? [])
			for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
		requests.push({
			api: 'chat',
			stream: body.stream === true,
			model: body.model,
			tools: (body.tools ?? []).map((t) => ({
				name: t.function.name,
				description: t.function.description ?? '',
				parameters: t.function.parameters ?? {},
			})),
			toolResults: (body.messages ?? [])
				.filter((m) => m.role === 'tool')
				.map((m) => ({
					callId: m.tool_call_id!,
					name: names.get(m.tool_call_id!) ?? '',
					output: text(m.content),
				})),
			bytes,
		});
		const turn = next();
		const id = `chatcmpl_${++sequence}`;
		const toolCalls =
			'text' in turn
				? undefined
				: turn.toolCalls.map((call, index) => ({
						id: `call_${sequence}_${index}`,
						type: 'function',
						function: { name: call.name, arguments: JSON.stringify(call.arguments) },
					}));
		const message = {
			role: 'assistant',
			content: 'text' in turn ? turn.text : null,
			...(toolCalls ? { tool_calls: toolCalls } : {}),
		};
		const finish = toolCalls ? 'tool_calls' : 'stop';
		const usage = {
			prompt_tokens: Math.ceil(bytes / 4),
			completion_tokens: 10,
			total_tokens: Math.ceil(bytes / 4) + 10,
		};
		const base = { id, created: Math.floor(Date.now() / 1000), model: body.model };
		if (!body.stream)
			return json(res, 200, {
				...base,
				object: 'chat.completion',
				choices: [{ index: 0, message, finish_reason: finish }],
				usage,
			});
		const delta = {
			role: 'assistant',
			content: message.content ?? '',
			...(toolCalls ? { tool_calls: toolCalls.map((call, index) => ({ index, ...call })) } : {}),
		};
		sse(res, [
			{
				...base,
				object: 'chat.completion.chunk',
				choices: [{ index: 0, delta, finish_reason: null }],
			},
			{
				...base,
				object: 'chat.completion.chunk',
				choices: [{ index: 0, delta: {}, finish_reason: finish }],
				usage,
			},
		]);
	}

	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		play(script, last = 'Done.') {
			turns = [...script];
			fallback = last;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

function json(res: http.ServerResponse, status: number, body: unknown) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

function sse(res: http.ServerResponse, events: unknown[]) {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	for (const event of events) res.write(`data: ${JSON.stringify(event)}\n\n`);
	res.end('data: [DONE]\n\n');
}
