import type { Platform } from './platform';
import { isoUtc } from './time';

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

/** The start-up info of a simulator listening at `baseUrl`, its push channel at `pushUrls`. */
export function startupInfo(
	platform: Platform,
	at: { baseUrl: string; authUrl: string; pushUrls: Record<string, string>; timeScale: number },
): SimulatorInfo {
	const { data, clock } = platform;
	const usedSerials = new Set(platform.store.assets().map((a) => a.serialNumber));
	return {
		baseUrl: at.baseUrl,
		authUrl: at.authUrl,
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
		pushUrls: { ...at.pushUrls },
		seed: platform.seed,
		assetCount: data.assets.size,
		timeScale: at.timeScale,
		startTime: isoUtc(clock.origin),
	};
}
