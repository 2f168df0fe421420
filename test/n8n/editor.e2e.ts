/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// One `n8n start` with the pack installed as a community package. In it:
// - the Drive Monitoring Trigger in poll mode, in an active workflow, hands on new events;
// - the editor, driven in Chromium as a user would: set up the owner, create the Drive
//   Monitoring credential and see its test pass, add the node from the node panel, pick an asset
//   from the resource locator's list, execute the node and read its output. Every step leaves a
//   screenshot in artifacts/n8n/screenshots/.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { chromium, selectors, type BrowserContext, type Page } from 'playwright-core';

import { startSimulator, type Simulator } from '../../simulator';
import { n8nCommand, startN8nServer, type N8nServer } from '../../scripts/n8n/instance';
import {
	ARTIFACTS,
	WORKFLOWS_DIR,
	driveMonitoringCredentialData,
	expectPackLoaded,
	fill,
	fixtures,
	importCredential,
	importWorkflows,
	readState,
	readWorkflows,
} from './harness';

const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const SCREENSHOTS = path.join(ARTIFACTS, 'screenshots');
// n8n asks for 8 or more characters with a number and a capital letter.
const OWNER = {
	email: 'owner@plant.example',
	firstName: 'Plant',
	lastName: 'Owner',
	password: `Owner-7${crypto.randomBytes(8).toString('hex')}`,
};

const state = readState();
let simulator: Simulator;
let values: Record<string, string>;
let server: N8nServer;
let receiver: http.Server;
/** What the active workflow's HTTP Request node posted: the trigger's items. */
const received: Array<Record<string, unknown>> = [];
let profile: string;
let context: BrowserContext;
let page: Page;
let shots = 0;

async function screenshot(name: string): Promise<void> {
	shots += 1;
	await page.screenshot({
		path: path.join(SCREENSHOTS, `${String(shots).padStart(2, '0')}-${name}.png`),
	});
}

/** Runs one step of the walk; on failure keeps a screenshot of what the page showed. */
async function step(name: string, body: () => Promise<void>): Promise<void> {
	try {
		await body();
	} catch (error) {
		await screenshot(`FAILED-${name}`).catch(() => undefined);
		// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- a test step, not node code: the failure goes to jest as it is
		throw error;
	}
}

/** A local endpoint for the active workflow to post the trigger's items to. */
async function startReceiver(): Promise<string> {
	receiver = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
			response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/events`;
}

/** The poll-trigger workflow, imported and published before n8n starts, so n8n activates it. */
async function setUpActiveWorkflow(): Promise<void> {
	// Named apart from "Drive Monitoring account", the name the editor gives the one made there.
	const credential = { id: 'dmE2ePollCredent', name: 'Simulator (poll trigger)' };
	const data = driveMonitoringCredentialData(simulator.info);
	await importCredential(state.instance, { ...credential, type: 'driveMonitoringApi', data });
	const orgId = simulator.info.credentials.find((c) => c.apiKey === data.apiKey)!.orgId;
	values = { ...fixtures(simulator, orgId), receiverUrl: await startReceiver() };
	const active = readWorkflows(path.join(WORKFLOWS_DIR, 'active')).map((workflow) =>
		fill(workflow, values),
	);
	await importWorkflows(state.instance, active, { driveMonitoringApi: credential });
	for (const workflow of active)
		await n8nCommand(state.instance, ['publish:workflow', `--id=${workflow.id}`]);
}

async function until(what: string, condition: () => boolean, timeoutMs = 150_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * Watches the active trigger while the editor is driven (n8n polls at most once a minute): its
 * first poll takes a baseline, so an event is raised after it, and another after the poll that
 * brought the first, whose look-back window overlaps the previous one.
 */
async function watchTrigger(): Promise<{ raised: number[]; ids: number[] }> {
	const assetId = Number(values.premiumDriveId);
	const polls = () =>
		simulator.requests.api('E14').filter((r) => r.path.includes(`/${assetId}/`)).length;
	const ids = () => received.map((item) => Number(item.id));
	await until('the first poll', () => polls() >= 1);
	const first = Number(
		simulator.control.raiseEvent(assetId, {
			eventType: 'Fault',
			eventCode: '2310',
			content: 'Overcurrent (2310)',
		}).id,
	);
	await until(`event ${first} to be handed on`, () => ids().includes(first));
	const second = Number(
		simulator.control.raiseEvent(assetId, {
			eventType: 'Warning',
			eventCode: 'A2B1',
			content: 'Overtemperature',
		}).id,
	);
	await until(`event ${second} to be handed on`, () => ids().includes(second));
	const pollsSoFar = polls();
	await until('one more poll', () => polls() > pollsSoFar);
	await new Promise((resolve) => setTimeout(resolve, 2_000));
	fs.writeFileSync(
		path.join(ARTIFACTS, 'trigger-received.json'),
		JSON.stringify(received, null, 2),
	);
	return { raised: [first, second], ids: ids() };
}
let triggerWatch: Promise<{ raised: number[]; ids: number[] }>;

beforeAll(async () => {
	fs.mkdirSync(SCREENSHOTS, { recursive: true });
	simulator = await startSimulator({ push: false });
	await setUpActiveWorkflow();
	server = await startN8nServer(state.instance, path.join(ARTIFACTS, 'n8n-start.log'));
	triggerWatch = watchTrigger();
	// Failures are reported by the trigger's test; keep them from being unhandled meanwhile.
	triggerWatch.catch(() => undefined);
	profile = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-chromium-'));
	selectors.setTestIdAttribute('data-test-id');
	context = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		headless: true,
		args: CHROMIUM_FLAGS,
		viewport: { width: 1440, height: 900 },
	});
	context.setDefaultTimeout(30_000);
	page = context.pages()[0] ?? (await context.newPage());
});

afterAll(async () => {
	await context?.close();
	await server?.stop();
	await simulator?.close();
	await new Promise((resolve) => receiver?.close(resolve));
	if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

describe('the Drive Monitoring node in the n8n editor', () => {
	it('loaded the pack when n8n started', () => {
		expectPackLoaded(fs.readFileSync(path.join(ARTIFACTS, 'n8n-start.log'), 'utf8'));
	});

	it('sets up the owner account', () =>
		step('owner-setup', async () => {
			await page.goto(`${server.url}/setup`);
			await page.getByTestId('email').locator('input').fill(OWNER.email);
			await page.getByTestId('firstName').locator('input').fill(OWNER.firstName);
			await page.getByTestId('lastName').locator('input').fill(OWNER.lastName);
			await page.getByTestId('password').locator('input').fill(OWNER.password);
			await screenshot('owner-setup');
			await page.getByTestId('form-submit-button').click();
			await page.waitForURL((url) => !url.pathname.startsWith('/setup'));
			// n8n 2.x offers its AI assistant once after sign-up.
			const later = page.getByRole('button', { name: 'Set up later in Settings' });
			if (await later.isVisible({ timeout: 5_000 }).catch(() => false)) await later.click();
		}));

	it('creates the Drive Monitoring credential and its connection test succeeds', () =>
		step('credential', async () => {
			await page.goto(`${server.url}/home/credentials/create`);
			await page
				.getByTestId('new-credential-type-select')
				.locator('input')
				.fill('Drive Monitoring');
			const option = page
				.getByTestId('new-credential-type-select-option')
				.filter({ hasText: 'Drive Monitoring API' });
			await option.waitFor();
			await screenshot('credential-type-picker');
			await option.click();
			await page.getByTestId('new-credential-type-button').click();
			const data = driveMonitoringCredentialData(simulator.info);
			for (const [field, value] of Object.entries(data)) {
				await page.getByTestId(`parameter-input-${field}`).locator('input').fill(value);
			}
			await screenshot('credential-filled');
			await page.getByTestId('credential-save-button').click();
			await page.getByTestId('credentials-config-container-test-success').waitFor();
			await screenshot('credential-tested');
		}));

	it('adds the node from the node panel, picks an asset from the list and executes it', () =>
		step('node', async () => {
			await page.goto(`${server.url}/workflow/new`);
			await page.getByTestId('canvas-add-button').click();
			await page.getByTestId('node-creator-search-bar').fill('Manual');
			await page
				.getByTestId('node-creator')
				.getByTestId('item-iterator-item')
				.filter({ hasText: 'Trigger manually' })
				.first()
				.click();
			await page.getByTestId('node-creator-plus-button').click();
			await page.getByTestId('node-creator-search-bar').fill('Drive Monitoring');
			const nodeItem = page
				.getByTestId('node-creator')
				.getByTestId('item-iterator-item')
				.filter({ hasText: 'Drive Monitoring' })
				.first();
			await nodeItem.waitFor();
			await screenshot('node-panel');
			await nodeItem.click();
			const action = page
				.getByTestId('node-creator')
				.getByTestId('item-iterator-item')
				.filter({ hasText: 'Get an asset' })
				.first();
			await action.waitFor();
			await page.waitForTimeout(500); // the panel slides in
			await screenshot('node-actions');
			await action.click();

			await page.getByTestId('ndv').waitFor();
			await page.getByTestId('rlc-input').first().click();
			const firstAsset = page.getByTestId('rlc-item').first();
			await firstAsset.waitFor();
			await screenshot('asset-list');
			// The list shows "<name> · <serial number> (<type>)"; the output carries the name.
			const label = (await firstAsset.innerText()).trim();
			const assetName = label.split(' · ')[0];
			expect(assetName).not.toBe('');
			await firstAsset.click();

			await page.getByTestId('node-execute-button').click();
			const output = page.getByTestId('output-panel');
			await output.getByText('1 item').waitFor();
			await output.getByTestId('ndv-data-container').getByText(assetName).first().waitFor();
			await page.waitForTimeout(1_000); // the run button and the toast settle
			await screenshot('node-output');
		}));
});

describe('the Drive Monitoring Trigger in an active workflow', () => {
	it('polls and hands on each new event once, and nothing from before its first poll', async () => {
		const { raised, ids } = await triggerWatch;
		expect(ids).toEqual(raised);
	});
});
