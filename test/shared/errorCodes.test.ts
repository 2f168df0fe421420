/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Every failure code walked through the core: the class it belongs to, the hint that says what
// to do, and no endpoint number in the text a person reads (the endpoint stays a field).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	AuthenticationError,
	CODE_INFO,
	ConflictError,
	ForbiddenError,
	InvalidInputError,
	LevelDeniedError,
	NotFoundError,
	SubscriptionError,
	type DriveMonitoringApiError,
	type DriveMonitoringClient,
} from '../../shared';
import { httpStatusOfCode } from '../../shared/spec';
import {
	ENDPOINT_NUMBER,
	EXPECTED_CLASS,
	expectedHint,
	FAILURE_CODES,
	startCodeServer,
	type CodeServer,
} from './codeServer';

const CLASSES = {
	NotFoundError,
	ForbiddenError,
	SubscriptionError,
	LevelDeniedError,
	ConflictError,
	InvalidInputError,
	AuthenticationError,
};

let server: CodeServer;
let client: DriveMonitoringClient;

beforeAll(async () => {
	server = await startCodeServer();
	client = server.client;
});
afterAll(async () => await server.close());

test('the walk covers the 23 failure codes of the spec and 100401', () => {
	expect(FAILURE_CODES).toHaveLength(24);
	expect(Object.keys(EXPECTED_CLASS).map(Number).sort()).toEqual([...FAILURE_CODES].sort());
	expect(Object.keys(CODE_INFO).map(Number).sort()).toEqual([...FAILURE_CODES].sort());
});

test.each(FAILURE_CODES)(
	'%d: class, hint, and a message without endpoint numbers',
	async (code) => {
		server.code = code;
		server.paths.length = 0;
		const error = (await client.assetData
			.getConditions({ assetId: 100001 })
			.catch((e: unknown) => e)) as DriveMonitoringApiError;
		const expected = EXPECTED_CLASS[code];
		expect(error).toBeInstanceOf(CLASSES[expected.name as keyof typeof CLASSES]);
		expect(error).toMatchObject({
			name: expected.name,
			kind: expected.kind,
			code,
			endpoint: { id: 'E18' },
		});
		expect(error.hint).toMatch(expectedHint(code));
		expect(error.message.startsWith(`${error.summary}. `)).toBe(true);
		expect(error.message).toContain(error.hint);
		expect(error.message).not.toMatch(ENDPOINT_NUMBER);
		expect(error.message).not.toContain('Get latest health conditions');
		// A 102403 reads the level held once (E9); no other code asks for it.
		expect(server.paths.filter((p) => p.includes('/assetmanagement/subscription/'))).toHaveLength(
			code === 102403 ? 1 : 0,
		);
		if (code === 102403)
			expect(error).toMatchObject({ levelHeld: 'Basic', levelsNeeded: ['Standard', 'Premium'] });
	},
);

test('a second 102403 on the same asset reuses the level read (no second E9)', async () => {
	server.code = 102403;
	server.paths.length = 0;
	const error = await client.assetData.getConditions({ assetId: 100001 }).catch((e: unknown) => e);
	expect(error).toMatchObject({ levelHeld: 'Basic' });
	expect(server.paths.filter((p) => p.includes('/assetmanagement/subscription/'))).toHaveLength(0);
});

test('E26 answered 100403: the organization already has its data-subscription user (a conflict)', async () => {
	server.code = 100403;
	const error = await client.dataSubscription.createUser().catch((e: unknown) => e);
	expect(error).toBeInstanceOf(ConflictError);
	expect((error as Error).message).toMatch(
		/^This organization already has its data-subscription user\. An organization has one data-subscription user/,
	);
});

test("shared/README.md's table lists every code with its class, summary, hint and HTTP status", () => {
	const readme = readFileSync(join(__dirname, '../../shared/README.md'), 'utf8');
	for (const code of FAILURE_CODES) {
		const row = readme.split('\n').find((line) => line.startsWith(`| ${code} |`));
		expect(row).toBeDefined();
		const info = CODE_INFO[code];
		expect(row).toContain(`| ${EXPECTED_CLASS[code].name}`);
		expect(row).toContain(`${info.summary}. `);
		expect(row).toContain(info.hint);
		expect(row).toContain(`| ${code === 100401 ? 401 : httpStatusOfCode(code)} |`);
	}
});
