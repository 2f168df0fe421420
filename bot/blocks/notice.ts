import type { Notice } from '../kernel/notice';
import { alertMessage, reminderReply, resolvedReply } from './alert';
import { cbmDigestMessage, cbmMessage, cbmRecoveredReply } from './cbm';
import { connectivityBackReply, connectivityMessage } from './connectivity';
import { catchUpMessage, sourceLagMessage } from './catch-up';
import { digestMessage } from './digest';
import { silenceSummaryMessage } from './silence';
import type { SlackMessage } from '../kernel/message';

export function noticeMessage(notice: Notice, timeZone: string): SlackMessage {
	switch (notice.kind) {
		case 'alert':
			return alertMessage(notice.alert, timeZone, notice.related);
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
		case 'connectivity':
			return connectivityMessage(notice.outage, timeZone);
		case 'connectivity_back':
			return connectivityBackReply(notice.outage, notice.returned, timeZone);
		case 'reminder':
			return reminderReply(notice.alert, notice.level, notice.mentions, timeZone);
		case 'silence_summary':
			return silenceSummaryMessage(notice.summary, timeZone);
		case 'catch_up':
			return catchUpMessage(notice.summary, timeZone);
		case 'source_lag':
			return sourceLagMessage(notice.text);
	}
}
