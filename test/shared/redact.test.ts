import {
	AuthError,
	DriveMonitoringApiError,
	endpointRefForTest,
	redact,
	registerSecret,
	ValidationError,
} from './redactFixtures';

describe('secrets never reach messages or serialized errors', () => {
	test('registered secrets and secret shapes are masked', () => {
		registerSecret('s3cr3t-api-value');
		const text = redact(
			'secret s3cr3t-api-value; Authorization: Bearer abc.def.ghi; client_secret=xyz&scope=a; {"password":"p@ss"}; eyJhbGciOi.eyJzdWIiOiIx.c2ln',
		);
		expect(text).not.toMatch(/s3cr3t-api-value|abc\.def\.ghi|xyz|p@ss|eyJhbGciOi/);
		expect(text).toContain('scope=a');
	});

	test('errors redact their message and JSON', () => {
		registerSecret('another-secret-123');
		const apiError = new DriveMonitoringApiError({
			code: 100400,
			httpStatus: 400,
			endpoint: endpointRefForTest('E5'),
			apiMessage: 'bad value another-secret-123',
		});
		expect(apiError.message).not.toContain('another-secret-123');
		expect(JSON.stringify(apiError)).not.toContain('another-secret-123');
		expect(apiError).toMatchObject({
			code: 100400,
			httpStatus: 400,
			kind: 'invalidInput',
			endpoint: { id: 'E5' },
		});
		expect(apiError.message).toMatch(/^The platform refused a value of the request\. /);
		expect(apiError.message).not.toMatch(/\bE5\b/);
		const validation = new ValidationError({
			field: 'password',
			value: 'another-secret-123',
			rule: 'x',
		});
		expect(JSON.stringify(validation)).not.toContain('another-secret-123');
		expect(validation.message).not.toContain('another-secret-123');
		const auth = new AuthError({
			refused: 'clientSecret',
			httpStatus: 401,
			oauthError: 'invalid_client',
			oauthDescription: 'secret another-secret-123 wrong',
			explanation: 'x',
		});
		expect(`${auth.message} ${JSON.stringify(auth)}`).not.toContain('another-secret-123');
	});
});
