/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A platform that refuses everything with 102403, the subscription lookup (E9) included: the
// call the lookup was to explain must still settle, with its own 102403 (issue 31).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, TokenCache, LevelDeniedError } from '../../shared';
import { CODE_SERVER_CREDENTIALS } from './codeServer';

const TOKEN = ['eyJhbGciOiJub25lIn0', Buffer.from('{"sub":"hostile"}').toString('base64url'), 'unsigned'].join('.');

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

describe('a platform that answers 102403 to everything', () => {
  const paths: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      if (path.includes('/oauth2/v2.0/token')) {
        reply(res, 200, { token_type: 'Bearer', expires_in: 3600, ext_expires_in: 3600, access_token: TOKEN });
        return;
      }
      paths.push(`${req.method} ${path}`);
      reply(res, 403, { payload: null, message: 'no permission', success: false, code: 102403 });
    });
  });
  let client: ReturnType<typeof createClient>;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = createClient({ ...CODE_SERVER_CREDENTIALS, baseUrl, authUrl: baseUrl, tokenCache: new TokenCache(), retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  });

  afterAll(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('a CBM read settles with its own 102403 instead of waiting on its own explanation', async () => {
    const started = Date.now();
    const outcome = await Promise.race([
      client.assetData.getCbm({ assetId: 100001 }).then(
        () => 'answered',
        (error: unknown) => error,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000).unref()),
    ]);
    expect(outcome).toBeInstanceOf(LevelDeniedError);
    expect((outcome as LevelDeniedError).code).toBe(102403);
    expect((outcome as LevelDeniedError).levelHeld).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(paths.some((p) => /\/assetmanagement\/subscription\/100001$/.test(p))).toBe(true);
  });

  test('the subscription lookup itself settles with its 102403', async () => {
    await expect(client.assets.listSubscriptions({ assetId: 100002 })).rejects.toBeInstanceOf(LevelDeniedError);
  });
});
