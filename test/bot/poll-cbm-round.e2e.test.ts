import { fakeSlackToken } from './helpers';
import { startTestBot } from './harness';
import { useFixture } from './use-fixture';

// CBM by polling is spread over `cbm.pollIntervalMinutes`: each planned pass reads the next
// share of the drives (B46), and the persisted CBM watermark says since when every drive was
// read, so a restart resumes the round instead of starting it again (B47).
const botToken = fakeSlackToken('b');
const f = useFixture(botToken, { push: false });

// One pass a minute and the default hourly CBM interval: a sixtieth of the drives per pass.
const start = () =>
  startTestBot({ sim: f.sim, slackApiUrl: f.slack.apiUrl, botToken, stateFile: f.state.file, logger: f.logger, config: { source: { kind: 'poll', pollIntervalSeconds: 60 }, connectivity: { enabled: false } } });
const cbmReads = () => new Set(f.sim.requests.api('E19').map((r) => Number(/assetdata\/(\d+)\//.exec(r.path)?.[1])));

test('each planned pass reads the next share of the drives, until the round is done', async () => {
  const drives = f.sim.fleet.assets().filter((a) => a.assetType === 'Drive');
  const perPass = Math.ceil(drives.length / 60);
  const passes = 4;
  expect(drives.length).toBeGreaterThan(passes * perPass);
  const bot = (f.bot = await start());
  // The pass the timer starts at once, then three more as the timer would run them.
  for (let i = 1; i < passes; i++) await bot.poll!.planned();
  // Each pass a share of drives not read before: the first round goes on after its first slice.
  expect(cbmReads().size).toBe(passes * perPass);
  // Not every drive read yet: no watermark claims they were.
  expect(bot.store.getWatermark('poll.cbm')).toBeUndefined();
});

test('once every drive was read the watermark says since when, and a restart does not read them again', async () => {
  const before = Date.now();
  await f.bot!.poll!.pollOnce(true);
  const mark = Date.parse(f.bot!.store.getWatermark('poll.cbm') ?? '');
  // The full pass read every drive: the round is complete since its start.
  expect(mark).toBeGreaterThanOrEqual(before);
  expect(mark).toBeLessThanOrEqual(Date.now());
  await f.bot!.stop();
  f.bot = undefined;
  f.sim.requests.clear();
  const bot = (f.bot = await start());
  await bot.poll!.planned();
  expect(cbmReads().size).toBe(0);
  expect(f.sim.requests.api('E14').length).toBeGreaterThan(0);
});
