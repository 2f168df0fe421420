/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a build script, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// What the real-n8n benchmark (bench/n8n) needs of a running n8n beyond what the tests use: the
// server started with extra settings, an owner session on n8n's REST API (to publish and
// unpublish workflows while it runs), the main process's resident memory, and the run data n8n
// saved, read from its own SQLite database.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { startN8nServer, type N8nInstance, type N8nServer } from './instance';

/**
 * `n8n start` with extra environment (n8n reads its settings from there). startN8nServer builds
 * n8n's environment from this process's, so the extra settings are set here for the start only.
 */
export async function startN8nServerWith(
	instance: N8nInstance,
	logFile: string,
	extra: Record<string, string>,
): Promise<N8nServer> {
	const saved = Object.fromEntries(Object.keys(extra).map((key) => [key, process.env[key]]));
	Object.assign(process.env, extra);
	try {
		return await startN8nServer(instance, logFile);
	} finally {
		for (const [key, value] of Object.entries(saved)) {
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
		}
	}
}

export interface OwnerSession {
	request<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
	/**
	 * Publishes (activates) the workflow's current version and waits until n8n reports its triggers
	 * and webhooks started: n8n 2.41 applies publications from an outbox, after the call returned.
	 */
	activate(workflowId: string): Promise<void>;
	/** Unpublishes the workflow and waits until n8n reports its triggers stopped. */
	deactivate(workflowId: string): Promise<void>;
}

/** Sets up the instance's owner account (or logs in to it) and keeps the session cookie. */
export async function ownerSession(server: N8nServer): Promise<OwnerSession> {
	const browserId = 'drive-monitoring-bench';
	let cookie = '';
	const request = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${server.url}/rest${route}`, {
			method,
			headers: { 'content-type': 'application/json', 'browser-id': browserId, cookie },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(
				`n8n ${method} /rest${route} answered ${response.status}: ${text.slice(0, 500)}`,
			);
		const setCookie = response.headers.get('set-cookie');
		if (setCookie) cookie = setCookie.split(';')[0];
		return (text ? (JSON.parse(text) as { data: T }).data : undefined) as T;
	};
	const owner = { email: 'bench@example.com', password: 'Bench-owner-1' };
	try {
		await request('POST', '/owner/setup', { ...owner, firstName: 'Bench', lastName: 'Owner' });
	} catch {
		// set up by an earlier start of this user folder
		await request('POST', '/login', { emailOrLdapLoginId: owner.email, password: owner.password });
	}
	const settled = async (workflowId: string, wanted: string, timeoutMs = 120_000) => {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const { status, triggers } = await request<{
				status: string;
				triggers: Array<{ status: string; errorMessage?: string }>;
			}>('GET', `/workflows/${workflowId}/publication-status`);
			if (status === wanted) return;
			if (status === 'failed' || status === 'partial')
				throw new Error(
					`n8n could not publish workflow ${workflowId}: ${triggers.map((t) => t.errorMessage).join('; ')}`,
				);
			if (Date.now() > deadline)
				throw new Error(
					`workflow ${workflowId} still "${status}" after ${timeoutMs / 1000} s, not "${wanted}"`,
				);
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	};
	return {
		request,
		async activate(workflowId) {
			const workflow = await request<{ versionId: string }>('GET', `/workflows/${workflowId}`);
			await request('POST', `/workflows/${workflowId}/activate`, { versionId: workflow.versionId });
			await settled(workflowId, 'published');
		},
		async deactivate(workflowId) {
			await request('POST', `/workflows/${workflowId}/deactivate`, {});
			await settled(workflowId, 'not_published');
		},
	};
}

/** Resident set size of a process in bytes (Linux /proc). */
export function residentBytes(pid: number): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
	if (!kib) throw new Error(`no VmRSS in /proc/${pid}/status`);
	return Number(kib[1]) * 1024;
}

export interface NodeRunTiming {
	startTime: number;
	executionTime: number;
	items: Array<{ json: Record<string, unknown> }>;
	error?: { message: string };
}

export interface SavedExecution {
	id: number;
	status: string;
	startedAt: number;
	stoppedAt: number;
	/** Each node's first run, as n8n recorded it. */
	nodes: Record<string, NodeRunTiming>;
}

interface SqliteDatabase {
	all(
		sql: string,
		params: unknown[],
		callback: (error: Error | null, rows: Array<Record<string, unknown>>) => void,
	): void;
	close(callback: (error: Error | null) => void): void;
}

/** n8n's SQLite timestamps ('YYYY-MM-DD HH:MM:SS.SSS', UTC) as epoch milliseconds. */
function epochOf(value: unknown): number {
	if (typeof value === 'number') return value;
	return Date.parse(`${String(value).replace(' ', 'T')}${String(value).endsWith('Z') ? '' : 'Z'}`);
}

/**
 * The executions n8n saved, read-only from its database with the sqlite3 and flatted modules of
 * the n8n runtime itself (n8n stores run data serialized with flatted).
 */
export class ExecutionStore {
	private constructor(
		private readonly db: SqliteDatabase,
		private readonly flatted: { parse(text: string): unknown },
	) {}

	static open(instance: N8nInstance): ExecutionStore {
		const runtimeRequire = createRequire(path.join(instance.runtime.dir, 'package.json'));
		const sqlite3 = runtimeRequire('sqlite3') as {
			Database: new (file: string, mode: number) => SqliteDatabase;
			OPEN_READONLY: number;
		};
		const file = path.join(instance.userFolder, '.n8n', 'database.sqlite');
		return new ExecutionStore(
			new sqlite3.Database(file, sqlite3.OPEN_READONLY),
			runtimeRequire('flatted') as { parse(text: string): unknown },
		);
	}

	private all(sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
		return new Promise((resolve, reject) =>
			this.db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows))),
		);
	}

	/** The highest execution id so far (0 when none). */
	async lastId(): Promise<number> {
		const [row] = await this.all('SELECT MAX(id) AS id FROM execution_entity', []);
		return Number(row?.id ?? 0);
	}

	/** How many executions of the workflow after `afterId` have finished (any outcome). */
	async countFinished(workflowId: string, afterId: number): Promise<number> {
		const [row] = await this.all(
			'SELECT COUNT(*) AS n FROM execution_entity WHERE workflowId = ? AND id > ? AND stoppedAt IS NOT NULL',
			[workflowId, afterId],
		);
		return Number(row?.n ?? 0);
	}

	/** The finished executions of the workflow after `afterId`, with each node's run data. */
	async finished(workflowId: string, afterId: number): Promise<SavedExecution[]> {
		const rows = await this.all(
			`SELECT e.id, e.status, e.startedAt, e.stoppedAt, d.data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id
       WHERE e.workflowId = ? AND e.id > ? AND e.stoppedAt IS NOT NULL ORDER BY e.id`,
			[workflowId, afterId],
		);
		return rows.map((row) => {
			const data = this.flatted.parse(String(row.data)) as {
				resultData: {
					runData: Record<
						string,
						Array<{
							startTime: number;
							executionTime: number;
							error?: { message: string };
							data?: { main: Array<NodeRunTiming['items'] | null> };
						}>
					>;
				};
			};
			const nodes: Record<string, NodeRunTiming> = {};
			for (const [name, runs] of Object.entries(data.resultData.runData)) {
				const [first] = runs;
				nodes[name] = {
					startTime: first.startTime,
					executionTime: first.executionTime,
					items: first.data?.main[0] ?? [],
					error: first.error,
				};
			}
			return {
				id: Number(row.id),
				status: String(row.status),
				startedAt: epochOf(row.startedAt),
				stoppedAt: epochOf(row.stoppedAt),
				nodes,
			};
		});
	}

	close(): Promise<void> {
		return new Promise((resolve, reject) =>
			this.db.close((error) => (error ? reject(error) : resolve())),
		);
	}
}
