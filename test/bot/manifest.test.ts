/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { parseConfig } from '../../bot/config/load';

const botDir = path.resolve(__dirname, '..', '..', 'bot');

function sources(dir: string): string {
	return readdirSync(dir)
		.map((f) => path.join(dir, f))
		.map((f) =>
			statSync(f).isDirectory() ? sources(f) : f.endsWith('.ts') ? readFileSync(f, 'utf8') : '',
		)
		.join('\n');
}

test('the manifest asks for exactly the scopes the code uses, and declares the default command and events', () => {
	const manifest = parse(readFileSync(path.join(botDir, 'manifest.yml'), 'utf8'));
	const code = sources(botDir);
	// What the code calls or listens to, and the scope each needs.
	const needs: Array<[boolean, string]> = [
		[/chat\.(postMessage|update)\(|\bsay\(/.test(code), 'chat:write'],
		[/app\.command\(/.test(code), 'commands'],
		[/app\.event\('app_mention'/.test(code), 'app_mentions:read'],
		// Routes name channels the bot was never invited to.
		[/chat\.postMessage\(/.test(code), 'chat:write.public'],
		// Reports and charts are uploaded with files.uploadV2.
		[/files\.uploadV2\(/.test(code), 'files:write'],
		// A post whose answer was lost is looked for in history (public and private channels).
		[/conversations\.(history|replies)\(/.test(code), 'channels:history'],
		[/conversations\.(history|replies)\(/.test(code), 'groups:history'],
		// History needs ids; a #name route is looked up.
		[/conversations\.list\(/.test(code), 'channels:read'],
		[/conversations\.list\(/.test(code), 'groups:read'],
		// Reminders mention user groups named by handle.
		[/usergroups\.list\(/.test(code), 'usergroups:read'],
		// The Request report step links to the PDF it posted.
		[/files\.info\(/.test(code), 'files:read'],
	];
	const used = needs
		.filter(([yes]) => yes)
		.map(([, scope]) => scope)
		.sort();
	expect(manifest.oauth_config.scopes.bot.sort()).toEqual(used);
	expect(/client\.(users|reactions|channels)\./.test(code)).toBe(false);
	expect(/client\.files\.(?!uploadV2\(|info\()/.test(code)).toBe(false);
	// The methods, however often each is called: the scopes follow from them.
	expect([...new Set(code.match(/client\.conversations\.\w+/g))].sort()).toEqual([
		'client.conversations.history',
		'client.conversations.list',
		'client.conversations.replies',
	]);
	expect(manifest.features.slash_commands.map((c: { command: string }) => c.command)).toEqual([
		parseConfig({}).command,
	]);
	expect(manifest.settings.event_subscriptions.bot_events).toEqual([
		'app_mention',
		'app_home_opened',
		'function_executed',
	]);
	// The Home tab is published on app_home_opened (views.publish needs no scope of its own).
	expect(
		/app\.event\('app_home_opened'/.test(code) && manifest.features.app_home.home_tab_enabled,
	).toBe(true);
	expect(manifest.settings.socket_mode_enabled).toBe(true);
});

test('every step the manifest declares has its listener, and custom steps are set up as Slack requires', () => {
	const manifest = parse(readFileSync(path.join(botDir, 'manifest.yml'), 'utf8'));
	const code = sources(botDir);
	const declared = Object.keys(manifest.functions).sort();
	const handled = [...code.matchAll(/export const [A-Z_]+ = '([a-z_]+)';/g)]
		.map((m) => m[1])
		.filter((id) => id in manifest.functions);
	expect(handled.sort()).toEqual(declared);
	// Bolt steps need the org-ready opt-in and the remote runtime; function_executed needs no scope.
	expect(manifest.settings.org_deploy_enabled).toBe(true);
	expect(manifest.settings.function_runtime).toBe('remote');
	for (const [id, fn] of Object.entries(manifest.functions) as Array<
		[string, { title: string; input_parameters: object; output_parameters: object }]
	>) {
		expect(fn.title.length).toBeGreaterThan(0);
		expect(Object.keys(fn.input_parameters).length).toBeGreaterThan(0);
		expect(Object.keys(fn.output_parameters).length).toBeGreaterThan(0);
		expect(id).toMatch(/^[a-z_]{1,100}$/);
	}
});
