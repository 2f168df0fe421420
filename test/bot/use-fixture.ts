// Jest hooks around the bot harness; kept apart from harness.ts, which the compiled benchmark
// also loads outside jest.
import { startSimulator, type SimulatorOptions } from '../../simulator';
import { shutdown, type Fixture } from './harness';
import { capturingLogger, tempStateFile } from './helpers';
import { SlackApiServer, type SlackServerOptions } from './slack-server';

/** A simulator and a Slack-compatible server for the enclosing describe block, all stopped after it. */
export function useFixture(
	botToken: string,
	simulatorOptions: SimulatorOptions = {},
	slackOptions: Omit<SlackServerOptions, 'token'> = {},
): Fixture {
	const fixture = { state: tempStateFile(), ...capturingLogger() } as Fixture;
	beforeAll(async () => {
		fixture.sim = await startSimulator(simulatorOptions);
		fixture.slack = await new SlackApiServer({ ...slackOptions, token: botToken }).start();
	});
	afterAll(() => shutdown(fixture));
	return fixture;
}
