/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A local Slack-compatible Web API for tests and benchmarks: records every call, checks Block
// Kit limits as Slack does, and answers 429 with Retry-After when a channel gets more than one
// message a second. Also the target of response_url posts. One workspace and its bot token, or
// many (slack-workspaces.ts): each token reaches only its workspace's channels, and the app is
// installed through Slack's OAuth (slack-oauth.ts).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signature } from './helpers';
import { uninstallEvents } from './slack-payloads';
import { SlackOAuth, type Consent, type OAuthAppSpec } from './slack-oauth';
import {
	grantKey,
	SlackDirectory,
	type EnterpriseSpec,
	type Grant,
	type WorkspaceSpec,
} from './slack-workspaces';

export interface RecordedCall {
	method: string;
	body: Record<string, unknown>;
	status: number;
	ok: boolean;
	error?: string;
	at: number;
}

export interface StoredMessage {
	channel: string;
	ts: string;
	text: string;
	blocks: unknown[];
	/** Attachments holding blocks (a table). */
	attachments?: Array<{ blocks?: unknown[] }>;
	threadTs?: string;
	updates: number;
	/** Slack message metadata given with the post (chat.postMessage `metadata`). */
	metadata?: { event_type: string; event_payload: Record<string, unknown> };
	/** Files shared with the message (files.completeUploadExternal). */
	files?: UploadedFile[];
}

/** A file sent through files.getUploadURLExternal, its upload URL and files.completeUploadExternal. */
export interface UploadedFile {
	id: string;
	filename: string;
	/** The length announced to files.getUploadURLExternal. */
	length: number;
	title?: string;
	altText?: string;
	/** The bytes the upload URL received (undefined until then). */
	data?: Buffer;
	/** Set once completed: where it was shared. */
	channel?: string;
	threadTs?: string;
}

/** The bytes of the first part of a multipart/form-data body (the WebClient posts the file so), else the body. */
function uploadedBytes(raw: Buffer, contentType: string): Buffer {
	const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
	if (!/multipart\/form-data/i.test(contentType) || !boundary) return raw;
	const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	const start = raw.indexOf(marker);
	const headersEnd = raw.indexOf('\r\n\r\n', start);
	const end = raw.indexOf(Buffer.concat([Buffer.from('\r\n'), marker]), headersEnd);
	return start < 0 || headersEnd < 0 || end < 0 ? raw : raw.subarray(headersEnd + 4, end);
}

export interface SlackServerOptions {
	/**
	 * The bot token of the single-workspace form: workspace T0001 ("Plant"), which holds every
	 * channel no other workspace declares.
	 */
	token?: string;
	/** The workspaces of a Slack with many, their channels, and the tokens the app holds there already. */
	workspaces?: WorkspaceSpec[];
	/** Enterprise Grid orgs the workspaces belong to. */
	enterprises?: EnterpriseSpec[];
	/** The distributed app: oauth.v2.access and the authorize page (authorizeUrl) answer for it. */
	oauth?: OAuthAppSpec;
	/** Messages a channel may take per second before 429 (Slack: about one). */
	perChannelPerSecond?: number;
	/** Extra latency on every answer, in ms. */
	latencyMs?: number;
	/** Socket Mode: the app-level token apps.connections.open takes, and the WebSocket URL it hands out. */
	socketMode?: { appToken: string; url: string };
	/** User groups `usergroups.list` answers with. */
	usergroups?: Array<{ id: string; handle: string; name: string }>;
	/** The app manifest's `functions`: the steps Workflow Builder can run (runStep). */
	functions?: Record<string, FunctionDefinition>;
}

/** A parameter of a custom step, as the manifest declares it. */
export interface FunctionParameter {
	type: string;
	title?: string;
	description?: string;
	is_required?: boolean;
}

export interface FunctionDefinition {
	title: string;
	description?: string;
	input_parameters: Record<string, FunctionParameter>;
	output_parameters: Record<string, FunctionParameter>;
}

/** One run of a custom step, as Slack keeps it: the event sent, then its completion. */
export interface StepRun {
	executionId: string;
	callbackId: string;
	inputs: Record<string, unknown>;
	/** The workflow token the event carried (bot_access_token), valid until the step completes. */
	token: string;
	/** HTTP status and time of the app's acknowledgement of the event. */
	ack: { status: number; ms: number };
	outcome?:
		| { kind: 'success'; outputs: Record<string, unknown>; at: number }
		| { kind: 'error'; error: string; at: number };
	startedAt: number;
}

/** Does a value fit a step parameter's type (Slack's built-in types the manifest uses)? */
function fitsType(type: string, value: unknown): boolean {
	switch (type) {
		case 'string':
			return typeof value === 'string';
		case 'integer':
			return Number.isInteger(value);
		case 'number':
			return typeof value === 'number' && Number.isFinite(value);
		case 'boolean':
			return typeof value === 'boolean';
		case 'slack#/types/user_id':
			return typeof value === 'string' && /^[UW][A-Z0-9]{2,}$/.test(value);
		case 'slack#/types/channel_id':
			return typeof value === 'string' && /^[CGD][A-Z0-9]{2,}$/.test(value);
		default:
			return false;
	}
}

/** What Slack refuses in a step's inputs or outputs against its definition: none when valid. */
export function parameterProblems(
	declared: Record<string, FunctionParameter>,
	values: Record<string, unknown>,
	what: 'input' | 'output',
): string[] {
	const problems: string[] = [];
	for (const [name, parameter] of Object.entries(declared)) {
		const value = values[name];
		if (value === undefined || value === null) {
			if (parameter.is_required) problems.push(`${what} ${name} is required`);
		} else if (!fitsType(parameter.type, value))
			problems.push(`${what} ${name} is not a ${parameter.type}: ${JSON.stringify(value)}`);
	}
	for (const name of Object.keys(values))
		if (!(name in declared)) problems.push(`${what} ${name} is not declared`);
	return problems;
}

const LIMITS = {
	blocks: 50,
	sectionText: 3000,
	field: 2000,
	fields: 10,
	header: 150,
	tableRows: 100,
	tableCells: 20,
	columnSettings: 20,
};

/** The table block's documented shape: 1 to 100 rows of 1 to 20 raw_text or rich_text cells, at most 20 column settings. */
function tableProblems(
	where: string,
	block: { rows?: unknown; column_settings?: unknown },
): string[] {
	const problems: string[] = [];
	const rows = block.rows;
	if (!Array.isArray(rows) || rows.length === 0) return [`${where}: table without rows`];
	if (rows.length > LIMITS.tableRows)
		problems.push(`${where}: ${rows.length} rows > ${LIMITS.tableRows}`);
	rows.forEach((row: unknown, r) => {
		if (!Array.isArray(row) || row.length === 0 || row.length > LIMITS.tableCells)
			problems.push(`${where}.rows[${r}]: 1 to ${LIMITS.tableCells} cells`);
		else
			row.forEach((cell: { type?: string; text?: unknown; elements?: unknown }, c) => {
				const ok =
					(cell.type === 'raw_text' && typeof cell.text === 'string' && cell.text !== '') ||
					(cell.type === 'rich_text' && Array.isArray(cell.elements));
				if (!ok)
					problems.push(`${where}.rows[${r}][${c}]: a cell is raw_text with text, or rich_text`);
			});
	});
	const settings = block.column_settings;
	if (settings !== undefined) {
		if (!Array.isArray(settings) || settings.length > LIMITS.columnSettings)
			problems.push(`${where}.column_settings: at most ${LIMITS.columnSettings}`);
		else
			settings.forEach((setting: { align?: unknown; is_wrapped?: unknown } | null, i) => {
				if (setting === null) return;
				if (
					setting.align !== undefined &&
					!['left', 'center', 'right'].includes(String(setting.align))
				)
					problems.push(`${where}.column_settings[${i}].align: left, center or right`);
				if (setting.is_wrapped !== undefined && typeof setting.is_wrapped !== 'boolean')
					problems.push(`${where}.column_settings[${i}].is_wrapped: a boolean`);
			});
	}
	return problems;
}

/**
 * The data visualization block's documented shape, for the line, bar and area charts: a title of
 * at most 50 characters, 1 to 6 uniquely named series, categories of at most 20 characters, and
 * every data point on a category with a finite value.
 */
function chartProblems(
	where: string,
	block: {
		title?: unknown;
		chart?: { type?: string; series?: unknown; axis_config?: { categories?: unknown } };
	},
): string[] {
	const problems: string[] = [];
	if (typeof block.title !== 'string' || block.title === '' || block.title.length > 50)
		problems.push(`${where}.title: 1 to 50 characters`);
	const chart = block.chart;
	if (!chart || !['line', 'bar', 'area'].includes(String(chart.type)))
		return [...problems, `${where}.chart: a line, bar or area chart`];
	const categories = chart.axis_config?.categories;
	if (
		!Array.isArray(categories) ||
		categories.length === 0 ||
		categories.some((c) => typeof c !== 'string' || c.length > 20)
	)
		problems.push(`${where}.axis_config.categories: labels of at most 20 characters`);
	const series = chart.series;
	if (!Array.isArray(series) || series.length === 0 || series.length > 6)
		return [...problems, `${where}.chart.series: 1 to 6`];
	const names = series.map((s: { name?: unknown }) => s.name);
	if (new Set(names).size !== names.length || names.some((n) => typeof n !== 'string' || n === ''))
		problems.push(`${where}.chart.series: unique names`);
	series.forEach((s: { data?: unknown }, i) => {
		const data = s.data;
		if (
			!Array.isArray(data) ||
			data.some(
				(d: { label?: unknown; value?: unknown }) =>
					!Array.isArray(categories) ||
					!categories.includes(d.label) ||
					typeof d.value !== 'number' ||
					!Number.isFinite(d.value),
			)
		) {
			problems.push(
				`${where}.chart.series[${i}].data: points on the categories, with finite values`,
			);
		}
	});
	return problems;
}

/** Message attachments holding blocks: where Slack takes a table block. */
function attachmentProblems(attachments: unknown): string[] {
	if (attachments === undefined) return [];
	if (!Array.isArray(attachments)) return ['invalid_attachments: attachments is not an array'];
	return attachments.flatMap((attachment: { blocks?: unknown }, a) => {
		if (!Array.isArray(attachment.blocks)) return [];
		return attachment.blocks.flatMap(
			(block: { type?: string; rows?: unknown; column_settings?: unknown }, i) =>
				block.type === 'table'
					? tableProblems(`attachments[${a}].blocks[${i}]`, block)
					: blockKitProblems('attachment', [block]).map((p) => `attachments[${a}].${p}`),
		);
	});
}

/** Slack's checks on a message: the problems found, none when valid. */
export function blockKitProblems(text: unknown, blocks: unknown, attachments?: unknown): string[] {
	const problems: string[] = attachmentProblems(attachments);
	if (blocks === undefined)
		return typeof text === 'string' && text.length > 0
			? problems
			: [...problems, 'no_text: neither text nor blocks'];
	if (!Array.isArray(blocks)) return ['invalid_blocks_format: blocks is not an array'];
	if (typeof text !== 'string' || text.trim() === '')
		problems.push('missing text fallback: messages with blocks need text for notifications');
	if (blocks.length > LIMITS.blocks)
		problems.push(`too many blocks: ${blocks.length} > ${LIMITS.blocks}`);
	blocks.forEach(
		(
			block: {
				type?: string;
				text?: { text?: string };
				fields?: Array<{ text?: string }>;
				elements?: unknown[];
			},
			i,
		) => {
			if (block.type === 'section') {
				if (!block.text && !block.fields)
					problems.push(`blocks[${i}]: section without text or fields`);
				if ((block.text?.text?.length ?? 0) > LIMITS.sectionText)
					problems.push(
						`blocks[${i}].text: ${block.text?.text?.length} > ${LIMITS.sectionText} characters`,
					);
				if ((block.fields?.length ?? 0) > LIMITS.fields)
					problems.push(`blocks[${i}].fields: more than ${LIMITS.fields}`);
				block.fields?.forEach(
					(f, j) =>
						(f.text?.length ?? 0) > LIMITS.field &&
						problems.push(`blocks[${i}].fields[${j}]: > ${LIMITS.field} characters`),
				);
				if (block.text?.text === '') problems.push(`blocks[${i}].text: empty`);
			} else if (block.type === 'header') {
				if ((block.text?.text?.length ?? 0) > LIMITS.header)
					problems.push(`blocks[${i}]: header > ${LIMITS.header} characters`);
			} else if (block.type === 'context' || block.type === 'actions') {
				if (
					!Array.isArray(block.elements) ||
					block.elements.length === 0 ||
					block.elements.length > (block.type === 'context' ? 10 : 25)
				)
					problems.push(`blocks[${i}]: bad elements`);
			} else if (block.type === 'data_visualization') {
				problems.push(
					...chartProblems(`blocks[${i}]`, block as Parameters<typeof chartProblems>[1]),
				);
			} else if (block.type === 'table') {
				problems.push(`blocks[${i}]: a table block goes in the message's attachments`);
			} else if (block.type !== 'divider') {
				problems.push(`blocks[${i}]: unexpected block type ${String(block.type)}`);
			}
		},
	);
	return problems;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const raw = Buffer.concat(chunks).toString('utf8');
	if ((req.headers['content-type'] ?? '').includes('application/json'))
		return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
	const form: Record<string, unknown> = Object.fromEntries(new URLSearchParams(raw));
	for (const key of ['blocks', 'attachments', 'metadata']) {
		if (typeof form[key] === 'string') form[key] = JSON.parse(form[key] as string);
	}
	return form;
}

export class SlackApiServer {
	readonly calls: RecordedCall[] = [];
	readonly responses: Array<{ id: string; body: Record<string, unknown>; at: number }> = [];
	readonly messages = new Map<string, StoredMessage>();
	/** The messages files.completeUploadExternal shared files in. */
	readonly fileShares: StoredMessage[] = [];
	/** Files by id, from files.getUploadURLExternal on. */
	readonly files = new Map<string, UploadedFile>();
	/** The App Home view last published for each user (views.publish). */
	readonly homeViews = new Map<string, { type: string; blocks: unknown[]; publishedAt: number }>();
	/** Every Block Kit problem seen, with the method: a correct bot leaves this empty. */
	readonly problems: Array<{ method: string; problems: string[] }> = [];
	rateLimited = 0;
	/** Called once a call took effect, before its answer leaves (e.g. to stop the bot's database while an update is on its way back). */
	onApplied: ((method: string, ok: boolean) => void) | undefined;
	private readonly server: Server;
	private readonly lastPosts = new Map<string, number[]>();
	private seq = 0;
	private readonly forced = new Map<string, number>();
	private readonly dropped = new Map<string, number>();
	private readonly names = new Map<string, string>();
	/** Block types this workspace refuses as Slack would a block it does not take (invalid_blocks), not counted as the bot's problems. */
	refusedBlockTypes: string[] = [];
	/** Custom step runs by function_execution_id. */
	readonly stepRuns = new Map<string, StepRun>();
	/** Told of every Web API call as it arrives, before it is answered (its request's socket still open: who made it). */
	onApiCall?: (method: string, request: IncomingMessage) => void;
	url = '';
	/** Workspaces, orgs, channels and the bot tokens issued. */
	readonly directory: SlackDirectory;
	/** The distributed app's OAuth (when `oauth` was given). */
	readonly oauth: SlackOAuth | undefined;
	/** The person signed in to Slack in the test's browser: who approves on the authorize page. */
	signedInAs: Consent | undefined;

	/** The next `count` calls of `method` are carried out, then their connection reset instead of answered (the answer lost). */
	dropAnswerOfNext(method: string, count: number): void {
		this.dropped.set(method, (this.dropped.get(method) ?? 0) + count);
	}

	/** The next `count` calls of `method` are answered 429 (Retry-After 1 s), whatever the rate. */
	rateLimitNext(method: string, count: number): void {
		this.forced.set(method, (this.forced.get(method) ?? 0) + count);
	}

	/** Calls Slack accepted (status 200, ok), by method. */
	accepted(method: string): RecordedCall[] {
		return this.calls.filter((c) => c.method === method && c.ok);
	}

	constructor(private readonly options: SlackServerOptions) {
		this.server = createServer((req, res) => void this.handle(req, res));
		this.directory = new SlackDirectory(options);
		this.oauth = options.oauth ? new SlackOAuth(options.oauth, this.directory) : undefined;
	}

	/** Slack's authorize page (InstallProvider's `authorizationUrl`). */
	get authorizeUrl(): string {
		return `${this.url}/oauth/v2/authorize`;
	}

	/**
	 * Uninstalls the app from a workspace (T…) or an org-wide install (E…), as its admin does in
	 * Slack: its token stops working at once (`token_revoked`). The events Slack then sends the
	 * app are returned, for the test to deliver.
	 */
	uninstall(key: string): ReturnType<typeof uninstallEvents> {
		const [grant] = this.directory.uninstall(key);
		if (!grant) throw new Error(`the app is not installed in ${key}`);
		return uninstallEvents(grant);
	}

	async start(): Promise<this> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	/** What Bolt and the WebClient take as `slackApiUrl`. */
	get apiUrl(): string {
		return `${this.url}/api/`;
	}

	responseUrl(id: string): string {
		return `${this.url}/response/${id}`;
	}

	async close(): Promise<void> {
		await new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	posts(): StoredMessage[] {
		return [...this.messages.values()];
	}

	/** Channel names are turned into stable ids, as Slack answers with ids. */
	channelId(channel: string): string {
		return channel.startsWith('#')
			? `C${createHash('sha1').update(channel).digest('hex').slice(0, 10).toUpperCase()}`
			: channel;
	}

	/**
	 * Runs a custom step as Workflow Builder does: the inputs checked against the step's
	 * definition (a workflow with a missing required input does not run), the function_executed
	 * event signed and posted to the app, which must acknowledge it within 3 s. The run completes
	 * when the app calls functions.completeSuccess or functions.completeError.
	 */
	async runStep(
		appUrl: string,
		signingSecret: string,
		callbackId: string,
		inputs: Record<string, unknown>,
	): Promise<StepRun> {
		const definition = this.options.functions?.[callbackId];
		if (!definition) throw new Error(`the manifest declares no step ${callbackId}`);
		const problems = parameterProblems(definition.input_parameters, inputs, 'input');
		if (problems.length)
			throw new Error(`Workflow Builder would not run ${callbackId}: ${problems.join('; ')}`);
		const id = (prefix: string) => `${prefix}${randomBytes(5).toString('hex').toUpperCase()}`;
		const params = (declared: Record<string, FunctionParameter>) =>
			Object.entries(declared).map(([name, p]) => ({
				name,
				type: p.type,
				title: p.title,
				description: p.description,
				is_required: p.is_required ?? false,
			}));
		const now = Math.floor(Date.now() / 1000);
		const run: StepRun = {
			executionId: id('Fx'),
			callbackId,
			inputs,
			token: `xwfp-${randomBytes(16).toString('hex')}`,
			ack: { status: 0, ms: 0 },
			startedAt: Date.now(),
		};
		this.stepRuns.set(run.executionId, run);
		const body = JSON.stringify({
			token: 'legacy-verification-token',
			team_id: 'T0001',
			api_app_id: 'A0DRIVE',
			type: 'event_callback',
			event_id: id('Ev'),
			event_time: now,
			authorizations: [
				{ team_id: 'T0001', user_id: 'U0BOT', is_bot: true, is_enterprise_install: false },
			],
			event: {
				type: 'function_executed',
				function: {
					id: id('Fn'),
					callback_id: callbackId,
					title: definition.title,
					description: definition.description,
					type: 'app',
					input_parameters: params(definition.input_parameters),
					output_parameters: params(definition.output_parameters),
					app_id: 'A0DRIVE',
					date_created: now - 86_400,
					date_updated: now - 3_600,
					date_deleted: 0,
				},
				inputs,
				function_execution_id: run.executionId,
				workflow_execution_id: id('Wx'),
				event_ts: `${now}.000100`,
				bot_access_token: run.token,
			},
		});
		const started = performance.now();
		const response = await fetch(appUrl, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-slack-request-timestamp': String(now),
				'x-slack-signature': signature(signingSecret, now, body),
			},
			body,
		});
		await response.text();
		run.ack = { status: response.status, ms: performance.now() - started };
		return run;
	}

	private send(
		res: ServerResponse,
		status: number,
		body: unknown,
		headers: Record<string, string> = {},
	): void {
		const delay = this.options.latencyMs ?? 0;
		const write = () => {
			res.writeHead(status, { 'content-type': 'application/json', ...headers });
			res.end(JSON.stringify(body));
		};
		if (delay > 0) setTimeout(write, delay);
		else write();
	}

	private record(
		method: string,
		body: Record<string, unknown>,
		status: number,
		ok: boolean,
		error?: string,
	): void {
		this.calls.push({ method, body, status, ok, error, at: Date.now() });
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', this.url);
		const upload = /^\/upload\/(F[A-Z0-9]+)$/.exec(url.pathname);
		if (upload) {
			const chunks: Buffer[] = [];
			for await (const chunk of req) chunks.push(chunk as Buffer);
			const file = this.files.get(upload[1]);
			if (!file) {
				res.writeHead(404).end('unknown upload');
				return;
			}
			file.data = uploadedBytes(Buffer.concat(chunks), req.headers['content-type'] ?? '');
			this.record('upload', { file_id: file.id, bytes: file.data.length }, 200, true);
			res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${file.data.length}`);
			return;
		}
		if (url.pathname === '/oauth/v2/authorize') {
			this.authorizePage(url, res);
			return;
		}
		const body = await readBody(req).catch(() => ({}) as Record<string, unknown>);
		const response = /^\/response\/(.+)$/.exec(url.pathname);
		if (response) {
			const refused =
				Array.isArray(body.blocks) &&
				body.blocks.some((b: { type?: string }) => this.refusedBlockTypes.includes(String(b.type)));
			if (refused) {
				this.send(res, 400, { ok: false, error: 'invalid_blocks' });
				return;
			}
			const problems = blockKitProblems(body.text, body.blocks, body.attachments);
			if (problems.length) this.problems.push({ method: 'response_url', problems });
			this.responses.push({ id: response[1], body, at: Date.now() });
			this.send(
				res,
				problems.length ? 400 : 200,
				problems.length ? { ok: false, error: 'invalid_blocks' } : { ok: true },
			);
			return;
		}
		const method = url.pathname.replace(/^\/api\//, '');
		this.onApiCall?.(method, req);
		if (method === 'oauth.v2.access') {
			this.tokenExchange(body, req.headers.authorization, res);
			return;
		}
		const auth =
			req.headers.authorization ?? (typeof body.token === 'string' ? `Bearer ${body.token}` : '');
		if (
			method === 'apps.connections.open' &&
			this.options.socketMode &&
			auth === `Bearer ${this.options.socketMode.appToken}`
		) {
			this.record(method, body, 200, true);
			this.send(res, 200, { ok: true, url: this.options.socketMode.url });
			return;
		}
		const caller = this.caller(auth);
		if ('error' in caller) {
			this.record(method, body, 200, false, caller.error);
			this.send(res, 200, { ok: false, error: caller.error });
			return;
		}
		const answer = this.answer(method, body, caller.grant, req.headers.authorization);
		if ('retryAfter' in answer) {
			this.rateLimited++;
			this.record(method, body, 429, false, 'ratelimited');
			this.send(
				res,
				429,
				{ ok: false, error: 'ratelimited' },
				{ 'retry-after': String(answer.retryAfter) },
			);
			return;
		}
		this.record(method, body, 200, answer.ok === true, answer.error as string | undefined);
		// The call took effect; its answer is still to be sent (after latencyMs): what a test does to the world meanwhile.
		this.onApplied?.(method, answer.ok === true);
		const drop = this.dropped.get(method) ?? 0;
		if (drop > 0) {
			this.dropped.set(method, drop - 1);
			req.socket.destroy();
			return;
		}
		this.send(res, 200, answer);
	}

	/** The installation a call's token belongs to, or Slack's error for the token. */
	private caller(auth: string): { grant: Grant } | { error: string } {
		const token = /^Bearer\s+(.+)$/.exec(auth)?.[1] ?? '';
		// A workflow token acts for the workspace its step runs in (runStep's, the open one).
		const workflow = [...this.stepRuns.values()].some((r) => !r.outcome && r.token === token);
		const grant = workflow
			? this.directory.activeGrant(this.directory.openTeam ?? '')
			: this.directory.grant(token);
		if (!grant) return { error: token ? 'invalid_auth' : 'not_authed' };
		if (grant.revoked) return { error: 'token_revoked' };
		return { grant };
	}

	/** The authorize page, approved at once by whoever `signedInAs` names: a redirect back to the app. */
	private authorizePage(url: URL, res: ServerResponse): void {
		const query = Object.fromEntries(url.searchParams);
		if (!this.oauth || !this.signedInAs) {
			this.record('oauth/v2/authorize', query, 400, false, 'not_signed_in');
			res
				.writeHead(400, { 'content-type': 'text/plain' })
				.end('no distributed app, or nobody signed in to Slack in this browser (signedInAs)');
			return;
		}
		const page = this.oauth.approve(url, this.signedInAs);
		if ('refused' in page) {
			this.record('oauth/v2/authorize', query, 400, false, page.refused);
			res.writeHead(400, { 'content-type': 'text/plain' }).end(page.refused);
			return;
		}
		this.record('oauth/v2/authorize', query, 302, true);
		res.writeHead(302, { location: page.location }).end();
	}

	/** oauth.v2.access: no bearer token, the app's client credentials instead (kept out of `calls`). */
	private tokenExchange(
		body: Record<string, unknown>,
		authorization: string | undefined,
		res: ServerResponse,
	): void {
		const answer = this.oauth
			? this.oauth.exchange(body, authorization)
			: { ok: false, error: 'invalid_client_id' };
		const recorded = Object.fromEntries(
			Object.entries(body).filter(([key]) => key !== 'client_secret'),
		);
		this.record('oauth.v2.access', recorded, 200, answer.ok === true, answer.error as string);
		this.send(res, 200, answer);
	}

	/** The methods that tell an installation about itself and end it. */
	private installationAnswer(
		method: string,
		body: Record<string, unknown>,
		caller: Grant,
		authorization: string | undefined,
	): Record<string, unknown> | undefined {
		switch (method) {
			case 'auth.test':
				return this.directory.authTest(caller);
			case 'auth.teams.list':
				return {
					ok: true,
					teams: this.directory.teamsOf(caller).map((id) => ({
						id,
						name: this.directory.workspace(id)?.name,
					})),
					response_metadata: { next_cursor: '' },
				};
			case 'auth.revoke':
				if (body.test === true || body.test === 'true') return { ok: true, revoked: false };
				caller.revoked = true;
				return { ok: true, revoked: true };
			case 'apps.uninstall': {
				const refused = this.oauth
					? this.oauth.clientError(body, authorization)
					: 'invalid_client_id';
				if (refused) return { ok: false, error: refused };
				this.directory.uninstall(grantKey(caller));
				return { ok: true };
			}
			case 'conversations.list':
				return this.conversationsList(body, caller);
			default:
				return undefined;
		}
	}

	/** The channels a token sees in one workspace; an org-wide token must name the workspace. */
	private conversationsList(body: Record<string, unknown>, caller: Grant): Record<string, unknown> {
		const team = typeof body.team_id === 'string' && body.team_id ? body.team_id : caller.teamId;
		if (!team) return { ok: false, error: 'missing_argument' };
		if (!this.directory.covers(caller, team))
			return { ok: false, error: 'team_access_not_granted' };
		const declared = this.directory.channelsOf(team).map((c) => ({
			id: c.id,
			name: c.name,
			is_channel: true,
			is_shared: c.shared,
			is_ext_shared: this.directory.isExternallyShared(c.id),
			context_team_id: c.owner,
		}));
		const named =
			team === this.directory.openTeam
				? [...this.names].map(([id, name]) => ({ id, name, is_channel: true }))
				: [];
		return { ok: true, channels: [...declared, ...named], response_metadata: { next_cursor: '' } };
	}

	/** The channel id a call names, when its token reaches it. */
	private reachable(caller: Grant, channel: unknown): string | undefined {
		return this.directory.resolveChannel(caller, String(channel ?? ''), (name) =>
			this.channelId(name),
		);
	}

	private answer(
		method: string,
		body: Record<string, unknown>,
		caller: Grant,
		authorization?: string,
	): Record<string, unknown> | { retryAfter: number } {
		const forced = this.forced.get(method) ?? 0;
		if (forced > 0) {
			this.forced.set(method, forced - 1);
			return { retryAfter: 1 };
		}
		const installation = this.installationAnswer(method, body, caller, authorization);
		if (installation) return installation;
		switch (method) {
			case 'chat.postMessage': {
				const channel = this.reachable(caller, body.channel);
				if (!channel) return { ok: false, error: 'channel_not_found' };
				const problems = blockKitProblems(body.text, body.blocks, body.attachments);
				if (problems.length) {
					this.problems.push({ method, problems });
					return { ok: false, error: 'invalid_blocks', errors: problems };
				}
				const now = Date.now();
				const recent = (this.lastPosts.get(channel) ?? []).filter((t) => now - t < 1000);
				if (recent.length >= (this.options.perChannelPerSecond ?? 1)) {
					this.lastPosts.set(channel, recent);
					return { retryAfter: 1 };
				}
				recent.push(now);
				this.lastPosts.set(channel, recent);
				const ts = `${Math.floor(now / 1000)}.${String(++this.seq).padStart(6, '0')}`;
				const threadTs =
					typeof body.thread_ts === 'string' && body.thread_ts ? body.thread_ts : undefined;
				const metadata = body.metadata as StoredMessage['metadata'];
				if (
					String(body.channel).startsWith('#') &&
					channel === this.channelId(String(body.channel))
				)
					this.names.set(channel, String(body.channel).slice(1));
				const message: StoredMessage = {
					channel,
					ts,
					text: String(body.text ?? ''),
					blocks: (body.blocks as unknown[]) ?? [],
					attachments: body.attachments as StoredMessage['attachments'],
					threadTs,
					updates: 0,
					metadata,
				};
				this.messages.set(`${channel}/${ts}`, message);
				return { ok: true, channel, ts, message: { text: message.text, ts } };
			}
			case 'chat.update': {
				const channel = String(body.channel ?? '');
				if (!this.directory.reaches(caller, channel))
					return { ok: false, error: 'channel_not_found' };
				const message = this.messages.get(`${channel}/${String(body.ts)}`);
				if (!message) return { ok: false, error: 'message_not_found' };
				const problems = blockKitProblems(body.text, body.blocks, body.attachments);
				if (problems.length) {
					this.problems.push({ method, problems });
					return { ok: false, error: 'invalid_blocks', errors: problems };
				}
				message.text = String(body.text ?? '');
				message.attachments = body.attachments as StoredMessage['attachments'];
				message.blocks = (body.blocks as unknown[]) ?? [];
				if (body.metadata !== undefined)
					message.metadata = body.metadata as StoredMessage['metadata'];
				message.updates++;
				return { ok: true, channel, ts: message.ts };
			}
			case 'files.getUploadURLExternal': {
				const length = Number(body.length);
				if (typeof body.filename !== 'string' || !body.filename)
					return { ok: false, error: 'invalid_arguments' };
				if (!Number.isInteger(length) || length <= 0)
					return { ok: false, error: 'invalid_arguments' };
				const id = `F${String(++this.seq).padStart(9, '0')}`;
				this.files.set(id, {
					id,
					filename: body.filename,
					length,
					altText: typeof body.alt_text === 'string' ? body.alt_text : undefined,
				});
				return { ok: true, upload_url: `${this.url}/upload/${id}`, file_id: id };
			}
			case 'files.completeUploadExternal': {
				const list = (typeof body.files === 'string' ? JSON.parse(body.files) : body.files) as
					| Array<{ id: string; title?: string }>
					| undefined;
				if (!Array.isArray(list) || list.length === 0)
					return { ok: false, error: 'invalid_arguments' };
				const files = list.map((f) => this.files.get(f.id));
				// Slack refuses to complete a file whose bytes never arrived or do not match the announced length.
				if (files.some((f) => f?.data === undefined || f.data.length !== f.length))
					return { ok: false, error: 'file_not_found' };
				const channel =
					typeof body.channel_id === 'string' ? this.reachable(caller, body.channel_id) : undefined;
				if (typeof body.channel_id === 'string' && !channel)
					return { ok: false, error: 'channel_not_found' };
				const threadTs =
					typeof body.thread_ts === 'string' && body.thread_ts ? body.thread_ts : undefined;
				list.forEach((f, i) =>
					Object.assign(files[i] as UploadedFile, { title: f.title, channel, threadTs }),
				);
				// Slack shares the files in a message of their own; kept apart from `messages` so that a
				// test looking for a thread's text replies does not find a file share.
				if (channel) {
					const ts = `${Math.floor(Date.now() / 1000)}.${String(++this.seq).padStart(6, '0')}`;
					const text = typeof body.initial_comment === 'string' ? body.initial_comment : '';
					this.fileShares.push({
						channel,
						ts,
						text,
						blocks: [],
						threadTs,
						updates: 0,
						files: files as UploadedFile[],
					});
				}
				return { ok: true, files: list.map((f) => ({ id: f.id, title: f.title ?? '' })) };
			}
			case 'views.publish': {
				const view = (typeof body.view === 'string' ? JSON.parse(body.view) : body.view) as
					| { type?: string; blocks?: unknown[] }
					| undefined;
				if (
					typeof body.user_id !== 'string' ||
					!view ||
					view.type !== 'home' ||
					!Array.isArray(view.blocks)
				)
					return { ok: false, error: 'invalid_arguments' };
				// Home tabs take up to 100 blocks; each block is checked as in messages.
				const problems = [
					...(view.blocks.length > 100 ? [`too many blocks: ${view.blocks.length} > 100`] : []),
					...blockKitProblems('home', view.blocks.slice(0, 50)),
					...blockKitProblems('home', view.blocks.slice(50)),
				];
				if (problems.length) {
					this.problems.push({ method, problems });
					return { ok: false, error: 'invalid_blocks', errors: problems };
				}
				this.homeViews.set(body.user_id, {
					type: view.type,
					blocks: view.blocks,
					publishedAt: Date.now(),
				});
				return { ok: true, view: { id: `V${String(++this.seq).padStart(9, '0')}`, type: 'home' } };
			}
			case 'conversations.history':
			case 'conversations.replies': {
				// As Slack: ids only (a #name is channel_not_found), newest first, metadata on request.
				const channel = String(body.channel ?? '');
				if (!/^[CGD][A-Z0-9]{6,}$/.test(channel) || !this.directory.reaches(caller, channel))
					return { ok: false, error: 'channel_not_found' };
				const oldest = Number(body.oldest ?? 0);
				// `latest` ends the range (Slack: exclusive unless `inclusive`); latest = a message's ts with inclusive and limit 1 reads that message.
				const latest = body.latest === undefined ? Infinity : Number(body.latest);
				const inclusive = body.inclusive === true || body.inclusive === 'true';
				const withMetadata =
					body.include_all_metadata === true || body.include_all_metadata === 'true';
				const all = this.posts()
					.filter(
						(m) =>
							m.channel === channel &&
							(method === 'conversations.history'
								? !m.threadTs &&
									Number(m.ts) >= oldest &&
									(inclusive ? Number(m.ts) <= latest : Number(m.ts) < latest)
								: m.ts === body.ts || m.threadTs === body.ts),
					)
					.sort((a, b) =>
						method === 'conversations.history'
							? Number(b.ts) - Number(a.ts)
							: Number(a.ts) - Number(b.ts),
					);
				const from = Number(body.cursor ?? 0) || 0;
				const limit = Math.min(Number(body.limit ?? 100) || 100, 1000);
				const page = all.slice(from, from + limit).map((m) => ({
					type: 'message',
					ts: m.ts,
					text: m.text,
					thread_ts: m.threadTs,
					...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
				}));
				const next = from + limit < all.length ? String(from + limit) : '';
				return {
					ok: true,
					messages: page,
					has_more: next !== '',
					response_metadata: { next_cursor: next },
				};
			}
			case 'usergroups.list':
				return {
					ok: true,
					usergroups: (this.options.usergroups ?? []).map((g) => ({
						id: g.id,
						handle: g.handle,
						name: g.name,
					})),
				};
			case 'functions.completeSuccess':
			case 'functions.completeError': {
				const run = this.stepRuns.get(String(body.function_execution_id ?? ''));
				if (!run) return { ok: false, error: 'function_execution_not_found' };
				if (run.outcome) return { ok: false, error: 'function_execution_already_completed' };
				if (method === 'functions.completeError') {
					if (typeof body.error !== 'string' || body.error.trim() === '')
						return {
							ok: false,
							error: 'invalid_arguments',
							errors: ['error must be a non-empty string'],
						};
					run.outcome = { kind: 'error', error: body.error, at: Date.now() };
					return { ok: true };
				}
				const outputs = (
					typeof body.outputs === 'string' ? JSON.parse(body.outputs) : body.outputs
				) as Record<string, unknown> | undefined;
				if (!outputs || typeof outputs !== 'object' || Array.isArray(outputs))
					return { ok: false, error: 'invalid_arguments', errors: ['outputs must be an object'] };
				const problems = parameterProblems(
					this.options.functions?.[run.callbackId]?.output_parameters ?? {},
					outputs,
					'output',
				);
				if (problems.length) {
					this.problems.push({ method, problems });
					return { ok: false, error: 'invalid_arguments', errors: problems };
				}
				run.outcome = { kind: 'success', outputs, at: Date.now() };
				return { ok: true };
			}
			case 'files.info': {
				const file = this.files.get(String(body.file ?? ''));
				if (!file?.channel) return { ok: false, error: 'file_not_found' };
				return {
					ok: true,
					file: {
						id: file.id,
						name: file.filename,
						title: file.title,
						permalink: `https://example.slack.com/files/U0BOT/${file.id}/${encodeURIComponent(file.filename)}`,
					},
				};
			}
			case 'chat.getPermalink': {
				const channel = String(body.channel ?? '');
				if (!this.directory.reaches(caller, channel))
					return { ok: false, error: 'channel_not_found' };
				const ts = String(body.message_ts ?? '');
				if (
					!this.messages.has(`${channel}/${ts}`) &&
					!this.fileShares.some((m) => m.channel === channel && m.ts === ts)
				)
					return { ok: false, error: 'message_not_found' };
				return {
					ok: true,
					channel,
					permalink: `https://example.slack.com/archives/${channel}/p${ts.replace('.', '')}`,
				};
			}
			case 'chat.postEphemeral':
				if (!this.reachable(caller, body.channel)) return { ok: false, error: 'channel_not_found' };
				return {
					ok: true,
					message_ts: `${Math.floor(Date.now() / 1000)}.${String(++this.seq).padStart(6, '0')}`,
				};
			default:
				return { ok: false, error: 'unknown_method' };
		}
	}
}
