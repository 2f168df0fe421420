// The outbox's Slack calls are fenced (issue 26): a leader checks its lease before every call, the KPI chart upload
// that follows a CBM warning's post included. Here the lease is lost while the post is on its way: the post was
// allowed, the upload after it is not made.
import { outboxSink } from '../../bot/alerts/fenced-sink';
import type { Notice, NoticeSink, Posted } from '../../bot/alerts/sink';
import type { MessageSink, OutgoingFile } from '../../bot/reports/sink';
import { capturingLogger } from './helpers';

const asset = { id: 7, name: 'Fan 7 drive', serialNumber: 'D7', organization: 'Harbor', group: 'Fans', plant: 'North' };
const warning: Notice = {
  kind: 'cbm',
  cbm: { key: '7:Fan', asset, unit: 'Fan', status: 'Yellow', kpis: Array.from({ length: 30 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, kpi: 80 - i })) },
};

class FencedOutForTest extends Error {}

function setUp(loseLeadDuringPost: boolean) {
  let leading = true;
  const posts: string[] = [];
  const uploads: OutgoingFile[] = [];
  const slack: NoticeSink = {
    async post(channel: string): Promise<Posted> {
      posts.push(channel);
      if (loseLeadDuringPost) leading = false;
      return { channelId: 'C1', ts: '1.000100' };
    },
    async update() {
      return undefined;
    },
  };
  const files: MessageSink = {
    post: async () => ({ channelId: 'C1', ts: '2.0' }),
    update: async () => undefined,
    async upload(_channelId: string, file: OutgoingFile) {
      uploads.push(file);
      return 'F1';
    },
  };
  const { logger, lines } = capturingLogger();
  const check = () => {
    if (!leading) throw new FencedOutForTest('this replica no longer leads');
  };
  return { sink: outboxSink(slack, files, check, logger), posts, uploads, lines, stopLeading: () => (leading = false) };
}

test("a leader's CBM warning is posted with its KPI chart in the thread", async () => {
  const { sink, posts, uploads } = setUp(false);
  await sink.post('#cbm', warning);
  expect(posts).toEqual(['#cbm']);
  expect(uploads.map((f) => f.filename)).toEqual(['cbm-kpi-D7-Fan.png']);
});

test('a leader that lost its lease while the post was on its way makes no upload after it', async () => {
  const { sink, posts, uploads, lines } = setUp(true);
  await sink.post('#cbm', warning);
  expect(posts).toEqual(['#cbm']);
  expect(uploads).toEqual([]);
  expect(lines.some((l) => l.includes('KPI chart of 7:Fan not uploaded') && l.includes('no longer leads'))).toBe(true);
});

test('a replica that does not lead makes neither the post nor the upload', async () => {
  const { sink, posts, uploads, stopLeading } = setUp(false);
  stopLeading();
  await expect(sink.post('#cbm', warning)).rejects.toThrow(FencedOutForTest);
  expect(posts).toEqual([]);
  expect(uploads).toEqual([]);
});
