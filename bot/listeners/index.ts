/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App } from '@slack/bolt';
import { registerActions } from './actions';
import { registerCommands } from './commands';
import type { ListenerDeps } from './deps';
import { registerEvents } from './events';
import { registerFunctions } from './functions';
import { registerOnce } from './once';

export type { ListenerDeps } from './deps';

/** Every listener group, behind the one check that a payload acts once (once.ts). */
export function registerListeners(app: App, deps: ListenerDeps): void {
	registerOnce(app, deps);
	registerCommands(app, deps);
	registerActions(app, deps);
	registerEvents(app, deps);
	registerFunctions(app, deps);
}
