/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the platform simulator, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { AddressInfo } from 'node:net';
import { TokenService } from './auth';
import type { SimulatorBus } from './bus';
import { createControl, type SimulatorControl } from './control';
import { Faults, type FaultRule } from './faults';
import type { Level } from '../shared/spec';
import { isCbmCapable, type AssetRec } from './fleet/model';
import { seedFleet } from './fleet/seed';
import { createSimulatorServer } from './http/server';
import { Platform } from './platform';
import { startPushChannel } from './push';
import { seedOf } from './random';
import { RequestLog } from './requestLog';
import { SimClock, isoUtc } from './time';
import { Ticker } from './ticks';

export type { FaultRule, Faults } from './faults';
export type { RequestLog, RequestRecord } from './requestLog';
export type { SimulatorControl } from './control';
export type { RaiseEventInput } from './data/events';
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

export interface SimulatorCredential {
	orgId: number;
	orgName: string;
	orgType: 'VENDOR' | 'CP' | 'EU';
	apiKey: string;
	apiSecret: string;
}

/** The start-up JSON (the first stdout line of the CLI). Keep it stable: other tools read it. */
export interface SimulatorInfo {
	baseUrl: string;
	authUrl: string;
	tenantId: string;
	apiScopeId: string;
	credentials: SimulatorCredential[];
	/** Unused codes to bind (E7). */
	subscriptionCodes: Array<{ code: string; level: string; type: string; assetType: string }>;
	/** Unused but expired codes (E7 answers 105202). */
	expiredSubscriptionCodes: string[];
	/** Serial numbers in the upstream registry that no asset uses yet (E10 can create them). */
	registrySerialNumbers: string[];
	pushUrls: Record<string, string>;
	seed: number;
	assetCount: number;
	timeScale: number;
	startTime: string;
}

/** A read-only view of the fleet, for tests and demos to pick assets by kind. */
export interface AssetSummary
	extends Pick<
		AssetRec,
		| 'id'
		| 'orgId'
		| 'groupId'
		| 'plantId'
		| 'name'
		| 'serialNumber'
		| 'assetType'
		| 'modelType'
		| 'gatewayType'
		| 'powerTrainId'
		| 'memberIds'
	> {
	/** The gating level, 'expired' when every subscription ended. */
	level: Level | 'expired';
	/** True when the asset never had a subscription (it then stands at Entry). */
	unsubscribed: boolean;
	cbmCapable: boolean;
	createdOn: string;
}

export interface FleetView {
	assets(): AssetSummary[];
	orgs(): Array<{
		id: number;
		name: string;
		orgType: string;
		authorizedCpIds: number[];
		groupIds: number[];
		plantIds: number[];
	}>;
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
	if (!(timeScale > 0)) throw new RangeError(`timeScale must be > 0, got ${timeScale}`);
	const origin =
		options.startTime === undefined ? Date.now() : new Date(options.startTime).getTime();
	if (Number.isNaN(origin))
		throw new RangeError(`startTime is not a date: ${String(options.startTime)}`);
	// The origin is a whole second (the fleet is seeded from it). Without a startTime it stands for
	// that same real instant, so simulated time never runs behind the wall clock: an event raised
	// right after a client started must not be stamped with a second before that start.
	const wholeSecond = Math.floor(origin / 1000) * 1000;
	const clock = new SimClock(
		wholeSecond,
		timeScale,
		Date.now,
		options.startTime === undefined ? wholeSecond : undefined,
	);
	const data = seedFleet(seed, options.assets ?? DEFAULT_ASSETS, clock.origin);
	const platform = new Platform(seed, data, clock, options.reportGenerationMs ?? 20_000);
	const faults = new Faults(seed, options.faults ?? []);
	const requests = new RequestLog();
	const tokenLifetime = options.tokenLifetimeSec ?? 3599;
	let authUrl = '';
	const tokens = new TokenService(platform.store, {
		authUrl: '',
		tenantId: data.tenantId,
		apiScopeId: data.apiScopeId,
		lifetimeSec: () => faults.tokenLifetimeSec() ?? tokenLifetime,
		now: () => clock.wallNow(),
	});
	const server = createSimulatorServer({ platform, tokens, faults, requests });
	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	const baseUrl = `http://${host}:${port}`;
	authUrl = `${baseUrl}/login`;
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

	const usedSerials = new Set(platform.store.assets().map((a) => a.serialNumber));
	const info: SimulatorInfo = {
		baseUrl,
		authUrl,
		tenantId: data.tenantId,
		apiScopeId: data.apiScopeId,
		credentials: platform.store.orgs().map((o) => ({
			orgId: o.id,
			orgName: o.name,
			orgType: o.orgType,
			apiKey: o.apiKey,
			apiSecret: o.apiSecret,
		})),
		subscriptionCodes: [...data.codes.values()]
			.filter((c) => c.usedByAssetId === null && c.expiresAt > clock.now())
			.map((c) => ({ code: c.code, level: c.level, type: c.type, assetType: c.assetType })),
		expiredSubscriptionCodes: [...data.codes.values()]
			.filter((c) => c.usedByAssetId === null && c.expiresAt <= clock.now())
			.map((c) => c.code),
		registrySerialNumbers: [...data.registry.keys()].filter((s) => !usedSerials.has(s)),
		pushUrls: { ...push.urls },
		seed,
		assetCount: data.assets.size,
		timeScale,
		startTime: isoUtc(clock.origin),
	};

	const fleet: FleetView = {
		assets: () =>
			platform.store.assets().map((a) => {
				const standing = platform.store.standing(a, clock.now());
				return {
					id: a.id,
					orgId: a.orgId,
					groupId: a.groupId,
					plantId: a.plantId,
					name: a.name,
					serialNumber: a.serialNumber,
					assetType: a.assetType,
					modelType: a.modelType,
					gatewayType: a.gatewayType,
					level: standing.kind === 'expired' ? 'expired' : standing.level,
					unsubscribed: standing.kind === 'never',
					cbmCapable: isCbmCapable(a),
					createdOn: isoUtc(a.createdOn),
					powerTrainId: a.powerTrainId,
					memberIds: a.memberIds && [...a.memberIds],
				};
			}),
		orgs: () =>
			platform.store.orgs().map((o) => ({
				id: o.id,
				name: o.name,
				orgType: o.orgType,
				authorizedCpIds: [...o.authorizedCpIds],
				groupIds: platform.store.groupsOf(o.id).map((g) => g.id),
				plantIds: platform.store.plantsOf(o.id).map((p) => p.id),
			})),
	};

	let closed: Promise<void> | undefined;
	return {
		info,
		faults,
		clock,
		requests,
		control,
		bus: platform.bus,
		fleet,
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
