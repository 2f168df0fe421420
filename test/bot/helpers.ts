/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger, type BotLogger } from '../../bot/log';

/** A token-shaped secret built at run time (never a literal in the repository). */
export function fakeSlackToken(kind: 'b' | 'app'): string {
	const prefix = kind === 'b' ? ['xo', 'xb'].join('') : ['xa', 'pp'].join('');
	return `${prefix}-${randomBytes(12).toString('hex')}`;
}

export function tempStateFile(): { file: string; cleanup(): void } {
	const dir = mkdtempSync(path.join(tmpdir(), 'drive-bot-'));
	return {
		file: path.join(dir, 'state.sqlite'),
		cleanup: () => rmSync(dir, { recursive: true, force: true }),
	};
}

/** A logger that keeps its lines, to assert on (and to prove secrets stay out). */
export function capturingLogger(): { logger: BotLogger; lines: string[] } {
	const lines: string[] = [];
	return { logger: createLogger({ level: 'debug', write: (line) => lines.push(line) }), lines };
}

export async function waitFor<T>(
	what: string,
	probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
	timeoutMs = 20_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== null && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(25);
	}
}

/** Slack's request signature (v0) over the raw body. */
export function signature(secret: string, timestamp: number, body: string): string {
	return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface SignedPostOptions {
	/** Seconds since the epoch; default now. */
	timestamp?: number;
	/** Sign this body but send another (a tampered request). */
	sendBody?: string;
	unsigned?: boolean;
	contentType?: string;
	/** Headers Slack adds on a retry (x-slack-retry-num, x-slack-retry-reason). */
	headers?: Record<string, string>;
}

export async function postToSlackApp(
	url: string,
	secret: string,
	body: string,
	options: SignedPostOptions = {},
): Promise<{ status: number; text: string; ms: number }> {
	const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
	const headers: Record<string, string> = {
		'content-type': options.contentType ?? 'application/x-www-form-urlencoded',
		...options.headers,
	};
	if (!options.unsigned) {
		headers['x-slack-request-timestamp'] = String(timestamp);
		headers['x-slack-signature'] = signature(secret, timestamp, body);
	}
	const started = performance.now();
	const response = await fetch(url, { method: 'POST', headers, body: options.sendBody ?? body });
	const text = await response.text();
	return { status: response.status, text, ms: performance.now() - started };
}

/** Slack's trigger_id: a new one for every interaction and command (a retry repeats it). */
export function triggerId(): string {
	return `${Date.now()}.${randomBytes(4).readUInt32BE()}.${randomBytes(16).toString('hex')}`;
}

export function slashCommandBody(fields: {
	command: string;
	text: string;
	responseUrl: string;
	user?: string;
	channel?: string;
}): string {
	return new URLSearchParams({
		token: 'legacy-verification-token',
		team_id: 'T0001',
		team_domain: 'plant',
		channel_id: fields.channel ?? 'C0MAINT01',
		channel_name: 'maintenance',
		user_id: fields.user ?? 'U0ALICE',
		user_name: 'alice',
		command: fields.command,
		text: fields.text,
		api_app_id: 'A0DRIVE',
		is_enterprise_install: 'false',
		response_url: fields.responseUrl,
		trigger_id: triggerId(),
	}).toString();
}

/** A button press; `text` is the button's label as the presser saw it. */
export function buttonClickBody(fields: {
	actionId: string;
	value: string;
	responseUrl: string;
	user?: string;
	channel?: string;
	text?: string;
}): string {
	const now = Date.now() / 1000;
	const payload = {
		type: 'block_actions',
		user: { id: fields.user ?? 'U0ALICE', username: 'alice', team_id: 'T0001' },
		api_app_id: 'A0DRIVE',
		token: 'legacy-verification-token',
		container: {
			type: 'message',
			message_ts: '1700000000.000100',
			channel_id: fields.channel ?? 'C0MAINT01',
			is_ephemeral: false,
		},
		trigger_id: triggerId(),
		team: { id: 'T0001', domain: 'plant' },
		channel: { id: fields.channel ?? 'C0MAINT01', name: 'maintenance' },
		message: { ts: '1700000000.000100', text: 'alert' },
		response_url: fields.responseUrl,
		actions: [
			{
				type: 'button',
				action_id: fields.actionId,
				block_id: 'b1',
				value: fields.value,
				action_ts: now.toFixed(6),
				text: { type: 'plain_text', text: fields.text ?? 'Details' },
			},
		],
	};
	return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
