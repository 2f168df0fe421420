import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps';
import { registerAppHome } from './app-home';
import { registerAppMention } from './app-mention';

export function registerEvents(app: App, deps: ListenerDeps): void {
  registerAppMention(app, deps);
  registerAppHome(app, deps);
}
