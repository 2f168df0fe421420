// Every failure code as the bot shows it in Slack: the core's error from a stand-in platform over
// HTTP, turned into the sentence of the command answer. It says what went wrong and what to do,
// and carries no endpoint number, no code number and no secret.
import { commandMessage } from '../../bot/blocks/command';
import { platformErrorText } from '../../bot/render/errors';
import {
	DeadlineError,
	TransportError,
	type DriveMonitoringApiError,
	type DriveMonitoringClient,
} from '../../shared';
import {
	CODE_SERVER_CREDENTIALS,
	ENDPOINT_NUMBER,
	expectedHint,
	FAILURE_CODES,
	startCodeServer,
	type CodeServer,
} from '../shared/codeServer';

let server: CodeServer;
let client: DriveMonitoringClient;

beforeAll(async () => {
	server = await startCodeServer();
	client = server.client;
});
afterAll(async () => await server.close());

function slackText(message: ReturnType<typeof commandMessage>): string {
	return JSON.stringify(message.blocks);
}

test.each(FAILURE_CODES)('%d', async (code) => {
	server.code = code;
	const error = (await client.assetData
		.getConditions({ assetId: 100001 })
		.catch((e: unknown) => e)) as DriveMonitoringApiError;
	const sentence = platformErrorText(error);
	expect(sentence.startsWith(`${error.summary}. `)).toBe(true);
	expect(sentence.slice(error.summary.length + 2)).toMatch(expectedHint(code));
	const message = commandMessage({ kind: 'error', message: sentence }, 'UTC');
	expect(message.text).toBe(sentence);
	for (const text of [sentence, slackText(message)]) {
		expect(text).not.toMatch(ENDPOINT_NUMBER);
		expect(text).not.toContain(String(code));
		expect(text).not.toContain(CODE_SERVER_CREDENTIALS.apiSecret);
	}
});

test('a create whose answer was lost says it may have happened and how to check', () => {
	const lost = new TransportError({
		reason: 'ECONNRESET',
		detail: 'socket hang up',
		endpoint: { id: 'E21', name: 'Create user report' },
		mayHaveSucceeded: true,
	});
	expect(platformErrorText(lost)).toBe(
		"The answer from the Drive Monitoring platform was lost: the connection was reset. The platform may have carried it out before the answer was lost, so it was not repeated: list the asset's reports and look for one created just now before creating it again.",
	);
});

test('a ranged read past its deadline says which read, after how long, how far it came and to ask for less', () => {
	// The bot's client has deadlineSetting: false (bot/platform/client.ts): Slack users cannot change it.
	const late = new DeadlineError({
		operation: 'Reading the events of asset 7',
		deadlineMs: 90_000,
		elapsedMs: 90_012,
		endpoint: { id: 'E14', name: 'List events' },
		range: {
			start: '2026-05-29T00:00:00Z',
			end: '2026-11-25T00:00:00Z',
			done: 12,
			total: 26,
			daysDone: 84,
			pending: { start: '2026-08-21T00:00:00Z', end: '2026-08-28T00:00:00Z' },
		},
	});
	expect(platformErrorText(late)).toBe(
		'Reading the events of asset 7 from 2026-05-29T00:00:00Z to 2026-11-25T00:00:00Z did not finish within 90 s. Ask for a shorter time range (84 days were read in 90 s).',
	);
});

test("an error that is not the core's is still one redacted sentence", () => {
	expect(platformErrorText(new Error('Bearer abc.def.ghi went missing'))).toBe(
		'Something went wrong: Bearer [REDACTED] went missing',
	);
});
