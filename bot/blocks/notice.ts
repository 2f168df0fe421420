import type { Notice } from '../alerts/sink';
import { alertMessage, resolvedReply } from './alert';
import { cbmDigestMessage, cbmMessage, cbmRecoveredReply } from './cbm';
import { catchUpMessage, sourceLagMessage } from './catch-up';
import { digestMessage } from './digest';
import type { SlackMessage } from './kit';

export function noticeMessage(notice: Notice, timeZone: string): SlackMessage {
  switch (notice.kind) {
    case 'alert':
      return alertMessage(notice.alert, timeZone);
    case 'resolved_reply':
      return resolvedReply(notice.alert, timeZone);
    case 'digest':
      return digestMessage(notice.alerts, notice.resolved, timeZone);
    case 'cbm':
      return cbmMessage(notice.cbm);
    case 'cbm_good':
      return cbmRecoveredReply(notice.cbm);
    case 'cbm_digest':
      return cbmDigestMessage(notice.units, notice.day);
    case 'catch_up':
      return catchUpMessage(notice.summary, timeZone);
    case 'source_lag':
      return sourceLagMessage(notice.text);
  }
}
