/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps';
import { registerDetailsAction } from './details';
import { registerOnCallActions } from './oncall';

export function registerActions(app: App, deps: ListenerDeps): void {
	registerDetailsAction(app, deps);
	registerOnCallActions(app, deps);
}
