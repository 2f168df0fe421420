import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps';
import { registerDetailsAction } from './details';
import { registerOnCallActions } from './oncall';

export function registerActions(app: App, deps: ListenerDeps): void {
  registerDetailsAction(app, deps);
  registerOnCallActions(app, deps);
}
