/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the platform simulator, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { AddressInfo, Server } from 'node:net';
import { TokenService } from './auth';
import type { SimulatorBus } from './bus';
import { createControl, type SimulatorControl } from './control';
import { Faults, type FaultRule } from './faults';
import { seedFleet } from './fleet/seed';
import { fleetView, type FleetView } from './fleet/view';
import { createSimulatorServer } from './server';
import { startupInfo, type SimulatorInfo } from './info';
import { Platform } from './platform';
import { startPushChannel } from './push';
import { seedOf } from './random';
import { RequestLog } from './requestLog';
import { SimClock } from './time';
import { Ticker } from './ticks';

export type { FaultRule, Faults } from './faults';
export type { RequestLog, RequestRecord } from './requestLog';
export type { SimulatorControl } from './control';
export type { RaiseEventInput } from './data/events';
export type { AssetSummary, FleetView } from './fleet/view';
export type { SimulatorCredential, SimulatorInfo } from './info';
export { SimClock } from './time';
export { SimulatorBus } from './bus';

export interface SimulatorOptions {
	/** Port of the HTTP server (API, token endpoint, temporary links); 0 (default) picks a free one. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Same seed, same fleet. Default 1. */
	seed?: number | string;
	/** Fleet size (PowerTrains count with their drive and motor); at least the 35 required assets. Default 60. */
	assets?: number;
	/** Demo event generator: new events per simulated minute across the fleet. Default 0 (off). */
	eventRatePerMinute?: number;
	/** Simulated time runs this many times faster than real time. Default 1. */
	timeScale?: number;
	/** Simulated time at start (default: now). History is generated before it. */
	startTime?: Date | string | number;
	/** Lifetime of issued tokens in seconds. Default 3599 (as Entra). */
	tokenLifetimeSec?: number;
	/** Simulated time a report stays Creating. Default 20 s. */
	reportGenerationMs?: number;
	/** Faults active from the start. */
	faults?: FaultRule[];
	/** Start the push channel (default true). */
	push?: boolean;
	amqpPort?: number;
	mqttPort?: number;
}

export interface Simulator {
	info: SimulatorInfo;
	faults: Faults;
	clock: SimClock;
	requests: RequestLog;
	control: SimulatorControl;
	bus: SimulatorBus;
	fleet: FleetView;
	close(): Promise<void>;
}

const DEFAULT_ASSETS = 60;
const POLL_MS = 200;

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	const seed = seedOf(options.seed ?? 1);
	const timeScale = options.timeScale ?? 1;
	const clock = startClock(options.startTime, timeScale);
	const data = seedFleet(seed, options.assets ?? DEFAULT_ASSETS, clock.origin);
	const platform = new Platform(seed, data, clock, options.reportGenerationMs ?? 20_000);
	const faults = new Faults(seed, options.faults ?? []);
	const requests = new RequestLog();
	const tokenLifetime = options.tokenLifetimeSec ?? 3599;
	const tokens = new TokenService(platform.store, {
		authUrl: '',
		tenantId: data.tenantId,
		apiScopeId: data.apiScopeId,
		lifetimeSec: () => faults.tokenLifetimeSec() ?? tokenLifetime,
		now: () => clock.wallNow(),
	});
	const server = createSimulatorServer({ platform, tokens, faults, requests });
	const host = options.host ?? '127.0.0.1';
	const baseUrl = `http://${host}:${await listen(server, host, options.port ?? 0)}`;
	const authUrl = `${baseUrl}/login`;
	tokens.setAuthUrl(authUrl);
	platform.baseUrl = baseUrl;

	const ticker = new Ticker(platform, options.eventRatePerMinute ?? 0);
	const control = createControl(platform, ticker);
	clock.onAdvance(() => ticker.poll());
	const timer = setInterval(() => ticker.poll(), POLL_MS);
	timer.unref();

	const push =
		options.push === false
			? { urls: {}, close: async () => undefined }
			: await startPushChannel(platform.subscribers, {
					host,
					amqpPort: options.amqpPort,
					mqttPort: options.mqttPort,
				});

	let closed: Promise<void> | undefined;
	return {
		info: startupInfo(platform, { baseUrl, authUrl, pushUrls: push.urls, timeScale }),
		faults,
		clock,
		requests,
		control,
		bus: platform.bus,
		fleet: fleetView(platform),
		close: () =>
			(closed ??= (async () => {
				clearInterval(timer);
				await push.close();
				await new Promise<void>((resolve) => {
					server.close(() => resolve());
					server.closeAllConnections();
				});
			})()),
	};
}

/** The simulated clock: from `startTime` (default now, a whole second), `timeScale` times faster than real time. */
function startClock(startTime: SimulatorOptions['startTime'], timeScale: number): SimClock {
	if (!(timeScale > 0)) throw new RangeError(`timeScale must be > 0, got ${timeScale}`);
	const origin = startTime === undefined ? Date.now() : new Date(startTime).getTime();
	if (Number.isNaN(origin)) throw new RangeError(`startTime is not a date: ${String(startTime)}`);
	// The origin is a whole second (the fleet is seeded from it). Without a startTime it stands for
	// that same real instant, so simulated time never runs behind the wall clock: an event raised
	// right after a client started must not be stamped with a second before that start.
	const wholeSecond = Math.floor(origin / 1000) * 1000;
	return new SimClock(
		wholeSecond,
		timeScale,
		Date.now,
		startTime === undefined ? wholeSecond : undefined,
	);
}

/** Listens on `host`:`port` (0: a free one); resolves the port. */
async function listen(server: Server, host: string, port: number): Promise<number> {
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => resolve());
	});
	return (server.address() as AddressInfo).port;
}
