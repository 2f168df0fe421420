/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App } from '@slack/bolt';
import { homeView } from '../../blocks/home';
import { errorText } from '../../log';
import type { ListenerDeps } from '../deps';

/** The Home tab, published fresh each time it is opened (views.publish). */
export function registerAppHome(app: App, { home, config, logger }: ListenerDeps): void {
	if (!home) return;
	app.event('app_home_opened', async ({ event, client }) => {
		if (event.tab !== 'home') return;
		try {
			await client.views.publish({
				user_id: event.user,
				view: homeView(await home.glance(), config.timeZone, config.command),
			});
		} catch (error) {
			logger.error(`slack: Home tab of ${event.user} not published (${errorText(error)})`);
		}
	});
}
