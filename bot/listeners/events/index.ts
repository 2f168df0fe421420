/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps';
import { registerAppHome } from './app-home';
import { registerAppMention } from './app-mention';

export function registerEvents(app: App, deps: ListenerDeps): void {
	registerAppMention(app, deps);
	registerAppHome(app, deps);
}
