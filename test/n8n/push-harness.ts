/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// What the real-n8n push tests share: an n8n user folder of their own with both
// packages, the Drive Monitoring Push Trigger in a workflow that hands every item of its batch to
// a receiver in the test (which can hold or fail the requests of an execution), and waiting.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { installPack, productTarball } from '../../scripts/n8n/install-pack';
import type { N8nInstance } from '../../scripts/n8n/instance';
import type { RabbitMq } from '../brokers/rabbitmq';
import { readState, type WorkflowJson } from './harness';

/** A fresh n8n user folder (database, key) with the pack and the push companion installed. */
export async function pushInstance(prefix: string): Promise<N8nInstance> {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	const instance = {
		runtime: readState().instance.runtime,
		userFolder,
		encryptionKey: crypto.randomBytes(24).toString('hex'),
	};
	await installPack(productTarball('n8n-nodes-drive-monitoring'), userFolder);
	await installPack(productTarball('n8n-nodes-drive-monitoring-push'), userFolder);
	return instance;
}

/** One request the receiver got: an item of a batch, as the workflow's HTTP Request node sent it. */
export interface Handed {
	route: string;
	id: number;
	execution: string;
	index: number;
	/** what the receiver answered: 200, 500, or 0 while held (and for good, if the caller died) */
	status: number;
}

/** How the receiver answers a route: take it, hold it until `release()`, or fail one execution's items. */
export type RouteMode = 'ok' | 'hold' | 'failFirstExecution';

export class Receiver {
	readonly handed: Handed[] = [];
	private readonly modes = new Map<string, RouteMode>();
	private readonly held: Array<() => void> = [];
	private readonly doomed = new Map<string, string>();
	private server?: http.Server;
	url = '';

	async start(): Promise<void> {
		this.server = http.createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			request.on('end', () => {
				const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
					id: number;
					execution: string;
					index: number;
				};
				const route = (request.url ?? '').slice(1);
				const entry: Handed = {
					route,
					id: Number(body.id),
					execution: String(body.execution),
					index: Number(body.index),
					status: 0,
				};
				this.handed.push(entry);
				const answer = (status: number) => {
					entry.status = status;
					if (!response.destroyed)
						response
							.writeHead(status, { 'content-type': 'application/json' })
							.end(status === 200 ? '{}' : '{"error":"failed by the test"}');
				};
				const mode = this.modes.get(route) ?? 'ok';
				if (mode === 'hold') this.held.push(() => answer(200));
				else if (mode === 'failFirstExecution') {
					if (!this.doomed.has(route)) this.doomed.set(route, entry.execution);
					answer(this.doomed.get(route) === entry.execution ? 500 : 200);
				} else answer(200);
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
		this.url = `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
	}

	mode(route: string, mode: RouteMode): void {
		this.modes.set(route, mode);
	}

	/** Answers every held request, and takes the route's next ones at once. */
	release(route: string): void {
		this.modes.set(route, 'ok');
		for (const answer of this.held.splice(0)) answer();
	}

	of(route: string): Handed[] {
		return this.handed.filter((h) => h.route === route);
	}

	/** The executions that handed items on this route, each with its event ids in item order. */
	batches(route: string, status?: number): Array<{ execution: string; ids: number[] }> {
		const byExecution = new Map<string, Handed[]>();
		for (const h of this.of(route).filter((h) => status === undefined || h.status === status))
			byExecution.set(h.execution, [...(byExecution.get(h.execution) ?? []), h]);
		return [...byExecution].map(([execution, items]) => ({
			execution,
			ids: items.sort((a, b) => a.index - b.index).map((h) => h.id),
		}));
	}

	async stop(): Promise<void> {
		for (const answer of this.held.splice(0)) answer();
		this.server?.closeAllConnections();
		await new Promise((resolve) => this.server?.close(resolve) ?? resolve(undefined));
	}
}

export async function until<T>(
	what: () => string,
	probe: () => T | undefined | false,
	timeoutMs: number,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = probe();
		if (value) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** A RabbitMQ queue's messages waiting and delivered but not acknowledged, as rabbitmqctl lists them. */
export async function queueDepth(
	rabbit: RabbitMq,
	queue: string,
): Promise<{ ready: number; unacked: number }> {
	const line = (
		await rabbit.ctl('list_queues', 'name', 'messages_ready', 'messages_unacknowledged')
	)
		.split('\n')
		.find((l) => l.split(/\s+/)[0] === queue);
	const [, ready, unacked] = (line ?? '').split(/\s+/);
	return { ready: Number(ready), unacked: Number(unacked) };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const range = (from: number, count: number): number[] =>
	Array.from({ length: count }, (_, i) => from + i);

/** Ids seen more than once (each extra sighting counted). */
export function repeats(ids: number[]): number {
	return ids.length - new Set(ids).size;
}

export interface TriggerOptions {
	acknowledge?: 'executionFinishes' | 'executionFinishesSuccessfully' | 'immediately';
	eventsPerExecution?: number;
	batchWindow?: number;
	executionTimeout?: number;
	parallelMessages?: number;
}

/**
 * The push trigger, then an HTTP Request node posting each item of the batch to the receiver's
 * route with its event id, the execution's id and its place in the batch. The request fails the
 * execution when the receiver answers 500.
 */
export function pushWorkflow(
	id: string,
	credential: { id: string; name: string },
	receiverUrl: string,
	route: string,
	options: TriggerOptions,
): WorkflowJson {
	return {
		id,
		name: `Push e2e: ${route}`,
		nodes: [
			{
				name: 'Pushed Events',
				type: 'n8n-nodes-drive-monitoring-push.driveMonitoringPushTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: { dataTypes: ['AssetEvent'], filters: {}, options },
				credentials: { driveMonitoringPushApi: credential },
			},
			{
				name: 'Hand To Test',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [240, 0],
				parameters: {
					method: 'POST',
					url: `${receiverUrl}/${route}`,
					sendBody: true,
					specifyBody: 'json',
					jsonBody:
						'={{ JSON.stringify({ id: $json.id, execution: $execution.id, index: $itemIndex }) }}',
					options: {},
				},
			},
		],
		connections: {
			'Pushed Events': { main: [[{ node: 'Hand To Test', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}
