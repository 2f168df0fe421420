import type { AlertRecord } from '../alerts/model';
import { assetLine, formatTime, severityEmoji, truncate, workStatusLabel } from '../render/format';
import { actions, button, context, esc, fields, header, section, type SlackMessage } from './kit';

export const DETAILS_ACTION = 'asset_details';

/** One fault or warning: open, or resolved once the platform closes it. */
export function alertMessage(alert: AlertRecord, timeZone: string): SlackMessage {
  const resolved = alert.status === 'Close';
  const title = `${resolved ? '✅ Resolved: ' : ''}${alert.severity} ${alert.code} on ${alert.asset.name}`;
  const blocks = [
    header(title),
    section(`${resolved ? '~' : ''}${severityEmoji(alert.severity)} *${esc(alert.content || alert.code)}*${resolved ? '~' : ''}`),
    fields([
      ['Asset', esc(assetLine(alert.asset))],
      ['Group / plant', esc(`${alert.asset.group || '-'} / ${alert.asset.plant || '-'}`)],
      ['Event time', formatTime(alert.eventTime, timeZone)],
      ['Device', workStatusLabel(alert.deviceWorkStatus)],
      ['Event code', esc(alert.code)],
      ['Logger file', alert.hasLogger ? 'yes' : 'no'],
      ['Organization', esc(alert.asset.organization || '-')],
    ]),
    actions(button('Details', DETAILS_ACTION, String(alert.asset.id))),
    context(resolvedLine(alert, timeZone) ?? `:rotating_light: Open · event ${esc(alert.eventId)}`),
  ];
  return { text: `${title} (${alert.asset.serialNumber}): ${alert.content}`, blocks };
}

function resolvedLine(alert: AlertRecord, timeZone: string): string | undefined {
  if (alert.status !== 'Close') return undefined;
  return `:white_check_mark: Resolved ${formatTime(alert.closeAt, timeZone)}${alert.closeReason ? `: ${esc(alert.closeReason)}` : ''} · event ${esc(alert.eventId)}`;
}

/** The thread reply that tells followers of an alert it was handled. */
export function resolvedReply(alert: AlertRecord, timeZone: string): SlackMessage {
  const line = `:white_check_mark: ${alert.severity} ${alert.code} on ${assetLine(alert.asset)} resolved ${formatTime(alert.closeAt, timeZone)}${
    alert.closeReason ? `: ${alert.closeReason}` : ''
  }`;
  return { text: line, blocks: [section(esc(line))] };
}

/** The line an alert takes in a digest. */
export function alertLine(alert: AlertRecord, timeZone: string): string {
  const state = alert.status === 'Close' ? ' :white_check_mark: resolved' : '';
  // The id comes first after the code so that truncation never cuts what identifies the event.
  const where = `${assetLine(alert.asset)} · ${alert.asset.group || '-'}`;
  return truncate(
    `${severityEmoji(alert.severity)} *${esc(alert.code)}* event ${esc(alert.eventId)}${state} · ${esc(where)} · ${formatTime(alert.eventTime, timeZone)} · ${esc(alert.content)}`,
    ALERT_LINE_MAX,
  );
}

/** Seven lines fit in one section. */
export const ALERT_LINE_MAX = 420;
