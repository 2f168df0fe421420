// Every failure code walked through the core: the class it belongs to, the hint that says what
// to do, and no endpoint number in the text a person reads (the endpoint stays a field).
import {
  AuthenticationError,
  CODE_INFO,
  ConflictError,
  createClient,
  ForbiddenError,
  InvalidInputError,
  LevelDeniedError,
  NotFoundError,
  SubscriptionError,
  TokenCache,
  type DriveMonitoringApiError,
  type DriveMonitoringClient,
} from '../../shared';
import { CODE_SERVER_CREDENTIALS, FAILURE_CODES, startCodeServer, type CodeServer } from './codeServer';

/** The class of each code, written out here independently of the catalog. */
export const EXPECTED_CLASS: Record<number, { name: string; kind: string }> = {
  100400: { name: 'InvalidInputError', kind: 'invalidInput' },
  100403: { name: 'ForbiddenError', kind: 'forbidden' },
  101201: { name: 'NotFoundError', kind: 'notFound' },
  101202: { name: 'NotFoundError', kind: 'notFound' },
  101401: { name: 'ForbiddenError', kind: 'forbidden' },
  102201: { name: 'NotFoundError', kind: 'notFound' },
  102202: { name: 'InvalidInputError', kind: 'invalidInput' },
  102203: { name: 'ConflictError', kind: 'conflict' },
  102204: { name: 'NotFoundError', kind: 'notFound' },
  102205: { name: 'SubscriptionError', kind: 'subscription' },
  102401: { name: 'ForbiddenError', kind: 'forbidden' },
  102403: { name: 'LevelDeniedError', kind: 'subscription' },
  103201: { name: 'NotFoundError', kind: 'notFound' },
  103401: { name: 'ForbiddenError', kind: 'forbidden' },
  104201: { name: 'NotFoundError', kind: 'notFound' },
  104401: { name: 'ForbiddenError', kind: 'forbidden' },
  105201: { name: 'NotFoundError', kind: 'notFound' },
  105202: { name: 'SubscriptionError', kind: 'subscription' },
  105203: { name: 'SubscriptionError', kind: 'subscription' },
  105204: { name: 'ConflictError', kind: 'conflict' },
  105205: { name: 'SubscriptionError', kind: 'subscription' },
  106201: { name: 'NotFoundError', kind: 'notFound' },
  107201: { name: 'NotFoundError', kind: 'notFound' },
  100401: { name: 'AuthenticationError', kind: 'authentication' },
};

const CLASSES = { NotFoundError, ForbiddenError, SubscriptionError, LevelDeniedError, ConflictError, InvalidInputError, AuthenticationError };

/** Endpoint numbers (E1 to E30) or the spec's endpoint names must not reach a person's text. */
export const ENDPOINT_NUMBER = /\bE\d{1,2}\b/;

/** The hint a code's error must carry: the catalog's, with the level explanation for 102403. */
export function expectedHint(code: number): string | RegExp {
  return code === 102403
    ? /^At Basic the health conditions are Overall, Availability, Environment or Reliability; all five need Standard or Premium\. Bind a subscription code of a higher level/
    : CODE_INFO[code].hint;
}

let server: CodeServer;
let client: DriveMonitoringClient;

beforeAll(async () => {
  server = await startCodeServer();
  client = createClient({ ...CODE_SERVER_CREDENTIALS, baseUrl: server.baseUrl, authUrl: server.baseUrl, tokenCache: new TokenCache(), retry: { baseDelayMs: 1, maxDelayMs: 5 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

test('the walk covers the 23 failure codes of the spec and 100401', () => {
  expect(FAILURE_CODES).toHaveLength(24);
  expect(Object.keys(EXPECTED_CLASS).map(Number).sort()).toEqual([...FAILURE_CODES].sort());
  expect(Object.keys(CODE_INFO).map(Number).sort()).toEqual([...FAILURE_CODES].sort());
});

test.each(FAILURE_CODES)('%d: class, hint, and a message without endpoint numbers', async (code) => {
  server.code = code;
  server.paths.length = 0;
  const error = (await client.assetData.getConditions({ assetId: 100001 }).catch((e: unknown) => e)) as DriveMonitoringApiError;
  const expected = EXPECTED_CLASS[code];
  expect(error).toBeInstanceOf(CLASSES[expected.name as keyof typeof CLASSES]);
  expect(error).toMatchObject({ name: expected.name, kind: expected.kind, code, endpoint: { id: 'E18' } });
  expect(error.hint).toMatch(expectedHint(code));
  expect(error.message.startsWith(`${error.summary}. `)).toBe(true);
  expect(error.message).toContain(error.hint);
  expect(error.message).not.toMatch(ENDPOINT_NUMBER);
  expect(error.message).not.toContain('Get latest health conditions');
  // A 102403 reads the level held once (E9); no other code asks for it.
  expect(server.paths.filter((p) => p.includes('/assetmanagement/subscription/'))).toHaveLength(code === 102403 ? 1 : 0);
  if (code === 102403) expect(error).toMatchObject({ levelHeld: 'Basic', levelsNeeded: ['Standard', 'Premium'] });
});

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
  expect((error as Error).message).toMatch(/^This organization already has its data-subscription user\. An organization has one data-subscription user/);
});
