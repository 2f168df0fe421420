// createClient: the one entry point the n8n nodes and the Slack bot use (docs/architecture.md).
import { Limiter } from './core/limiter';
import { safeLogger } from './core/logger';
import { ApiCore } from './core/request';
import { assetDataEndpoints } from './endpoints/assetData';
import { assetEndpoints } from './endpoints/assets';
import { EndpointContext } from './endpoints/context';
import { dataSubscriptionEndpoints } from './endpoints/dataSubscription';
import { organizationEndpoints } from './endpoints/organization';
import { subscriptionEndpoints } from './endpoints/subscription';
import { filesApi } from './files';
import { rangesApi } from './ranges';
import { createDefaultTransport } from './transport/default';
import { levelCache } from './client/level-cache';
import { clientLimits, type ClientOptions } from './client/options';
import { tokenAuth } from './client/token-auth';

export {
	DEFAULT_CONCURRENCY,
	DEFAULT_DEADLINE_MS,
	DEFAULT_TIMEOUT_MS,
	type ClientOptions,
} from './client/options';

export function createClient(options: ClientOptions) {
	const { baseUrl, concurrency, timeoutMs, deadlineMs, deadlineSetting, retry } =
		clientLimits(options);
	const ownTransport = options.transport
		? undefined
		: createDefaultTransport({
				connections: Math.max(concurrency, 4),
				headersTimeoutMs: timeoutMs,
				bodyTimeoutMs: timeoutMs,
			});
	const plainTransport = options.transport ?? ownTransport!;
	const logger = safeLogger(options.logger);
	const auth = tokenAuth(options, plainTransport, retry, timeoutMs, logger);
	const levelOf = levelCache((assetId) => assets.listSubscriptions({ assetId }));
	const common = {
		baseUrl,
		limiter: new Limiter(concurrency),
		retry,
		timeoutMs,
		deadlineMs,
		deadlineSetting,
		logger,
		signal: options.signal,
	};
	const core = new ApiCore({
		...common,
		transport: options.authenticatedTransport ?? plainTransport,
		auth,
		levelOf,
	});
	// Temporary links must not carry the bearer token that an authenticated transport adds.
	const downloadCore = options.authenticatedTransport
		? new ApiCore({ ...common, transport: plainTransport })
		: core;
	const ctx = new EndpointContext(core);
	const assetData = assetDataEndpoints(ctx);
	const assets = assetEndpoints(ctx);

	return {
		organization: organizationEndpoints(ctx),
		subscription: subscriptionEndpoints(ctx),
		assets,
		assetData,
		dataSubscription: dataSubscriptionEndpoints(ctx),
		ranges: rangesApi(assetData, {
			concurrency,
			now: options.now ?? Date.now,
			levelOf: async (assetId, requestOptions) => await levelOf(assetId, requestOptions?.signal),
			logger,
			deadlineMs,
			deadlineSetting,
		}),
		files: filesApi(downloadCore),
		/** The bearer token the client would send now (fetched or cached); undefined with an authenticated transport. */
		async accessToken(signal?: AbortSignal): Promise<string | undefined> {
			return auth ? auth.cache.get(auth.credentials, () => auth.fetch(), signal) : undefined;
		},
		/** Close the connection pool the client created (a transport passed in is left open). */
		async close(): Promise<void> {
			await ownTransport?.close?.();
		},
	};
}

export type DriveMonitoringClient = ReturnType<typeof createClient>;
