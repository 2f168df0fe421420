export {
	AuthError,
	DriveMonitoringApiError,
	redact,
	registerSecret,
	ValidationError,
} from '../../shared';
export { endpointRef as endpointRefForTest } from '../../shared/errors';
