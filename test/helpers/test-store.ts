/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads */
import { startPostgres, type PrivatePostgres } from './postgres';

/**
 * Which store the bot tests run on: SQLite (the default), or PostgreSQL with DRIVE_TEST_STORE=postgres
 * (`npm run test:bot:postgres`). On PostgreSQL each state file of a test gets a database of its own, on one
 * private server per jest worker, started at the first bot and stopped when the worker exits.
 */
export const testStore: 'sqlite' | 'postgres' = process.env.DRIVE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

let server: Promise<PrivatePostgres> | undefined;
const databases = new Map<string, Promise<string>>();

const privateServer = (): Promise<PrivatePostgres> => {
  server ??= startPostgres({ createDatabases: true }).then((pg) => {
    process.once('exit', () => pg.stop());
    return pg;
  });
  return server;
};

async function createDatabase(index: number): Promise<string> {
  const pg = await privateServer();
  const { Client } = await import('pg');
  const admin = new Client({ connectionString: pg.url() });
  await admin.connect();
  const name = `bot_${process.pid}_${index}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return pg.url().replace(/\/[^/]*$/, `/${name}`);
}

/**
 * The environment the bot under test reads its database from: on SQLite none (the state file applies); on
 * PostgreSQL DRIVE_BOT_DATABASE_URL of the database kept for this state file, so a restarted bot finds its state.
 */
export async function databaseEnvFor(stateFile: string): Promise<NodeJS.ProcessEnv> {
  if (testStore === 'sqlite') return {};
  let url = databases.get(stateFile);
  if (!url) databases.set(stateFile, (url = createDatabase(databases.size + 1)));
  return { DRIVE_BOT_DATABASE_URL: await url };
}
