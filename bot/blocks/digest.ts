import type { AlertRecord } from '../alerts/model';
import { ALERT_LINE_MAX, alertLine } from './alert';
import { context, header, sectionsOf, type SlackMessage } from './kit';

/** Header, context and room to spare under the 50-block limit. */
const MAX_SECTIONS = 45;

/**
 * A storm digest: every alert it covers has a line (the dispatcher sizes batches so they fit),
 * so nothing is lost when alerts arrive faster than Slack lets the bot post them.
 */
export function digestMessage(alerts: readonly AlertRecord[], resolved: readonly AlertRecord[], timeZone: string): SlackMessage {
  const counts = new Map<string, number>();
  for (const alert of alerts) counts.set(alert.severity, (counts.get(alert.severity) ?? 0) + 1);
  const summary = [...counts].map(([severity, n]) => `${n} ${severity}`).join(', ');
  const parts = [alerts.length > 0 ? `${alerts.length} new alerts (${summary})` : '', resolved.length > 0 ? `${resolved.length} resolved` : '']
    .filter(Boolean)
    .join(', ');
  const lines = [...alerts.map((a) => alertLine(a, timeZone)), ...resolved.map((a) => alertLine(a, timeZone))];
  return {
    text: `Alert digest: ${parts}`,
    blocks: [
      header(`:rotating_light: Alert digest: ${parts}`),
      ...sectionsOf(lines, MAX_SECTIONS),
      context('Alerts are arriving faster than one message per second, so they are listed together. Closes are posted in this thread.'),
    ],
  };
}

/** How many digest lines are sure to fit: seven lines of at most ALERT_LINE_MAX per section. */
export const DIGEST_MAX_LINES = MAX_SECTIONS * Math.floor(3000 / (ALERT_LINE_MAX + 1));
