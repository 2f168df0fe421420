// The API core's surface in one import: createClient, its options and errors, the schemas, the
// fleet directory and the helpers. The nodes, the bot, tests and benchmarks import either this
// file or the one module they need (shared/schemas, shared/errors, shared/fleet, ...): the same
// code either way. Nothing here names a timer or an HTTP client, so n8n's pack can load it under
// n8n Cloud's rules; the host installs those: shared/runtime/node (Node programs: node:timers,
// undici) or shared/runtime/n8n (the pack). The Node-only modules (shared/push,
// shared/runtime/node, shared/transport/undici) are not exported here: import them by path.
export {
	createClient,
	DEFAULT_CONCURRENCY,
	DEFAULT_TIMEOUT_MS,
	DEFAULT_DEADLINE_MS,
	type ClientOptions,
	type DriveMonitoringClient,
} from './client';
export {
	fetchAccessToken,
	buildTokenRequest,
	parseTokenResponse,
	tokenUrl,
	type AccessToken,
	type ApiCredentials,
	type TokenRequest,
	type FetchAccessTokenOptions,
} from './auth/token';
export { TokenCache, sharedTokenCache, credentialKey, type TokenCacheOptions } from './auth/cache';
export type { Transport, TransportRequest, TransportResponse } from './transport/types';
export { headerValue } from './transport/types';
export {
	setDefaultTransport,
	type TransportFactory,
	type DefaultTransportOptions,
} from './transport/default';
export { useTimers, type Timers } from './timers/wait';
export type { Logger } from './core/logger';
export type { RetryOptions } from './core/retry';
export type { RequestOptions } from './endpoints/context';
export {
	DriveMonitoringError,
	DriveMonitoringApiError,
	ValidationError,
	UnexpectedResponseError,
	ResponseShapeError,
	TransportError,
	DeadlineError,
	formatDuration,
	type RangeProgress,
	AuthError,
	DownloadError,
	assetStandingRefusal,
	type AuthRefusal,
	type EndpointRef,
} from './errors';
export {
	NotFoundError,
	ForbiddenError,
	SubscriptionError,
	LevelDeniedError,
	ConflictError,
	InvalidInputError,
	AuthenticationError,
	RateLimitedError,
	apiErrorOf,
	type ErrorKind,
} from './errors';
export { CODE_INFO, codeInfo, CHECK_BEFORE_REPEATING, type CodeInfo } from './errorCatalog';
export { redact, redactValue, registerSecret, REDACTED } from './redact';
export * from './time';
export {
	splitWindows,
	mergeEvents,
	mergeTrendSignalData,
	checkHistory,
	levelOfSubscriptions,
	type RangeInput,
	type TrendRangeInput,
	type Window,
} from './ranges';
export * from './levels';
export { fileNameOf, type DownloadedFile } from './files';
export * from './fleet';
export * as schemas from './schemas';
export type * from './schemas/resources';
export type {
	OrgInput,
	GroupAssetsInput,
	CreateAssetGroupInput,
	BindSubscriptionInput,
	AssetIdInput,
	AssetIdOnlyInput,
	RenameAssetInput,
	MoveAssetInput,
	CreateDriveInput,
	AssetReferenceInput,
	ListEventsInput,
	EventLoggerInput,
	TrendSignalDataInput,
	CommissioningDateInput,
	CreateReportInput,
	ReportDownloadInput,
	ParameterBackupsInput,
	ParameterBackupInput,
	SubCustomerInput,
	SetDataTypesInput,
} from './schemas/inputs';
export * from './spec';
