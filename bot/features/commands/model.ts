import type { AssetRef, CbmAlert } from '../../kernel/alert';
import type { AssetLink } from '../connectivity/tracker';
import type { LatestValue } from '../charts/signals';
import type { TrendAnswer } from '../charts/trend';
import type { Silence } from '../oncall/store';
import type { Condition, PlatformEvent } from '../../platform/types';
import type { SourceStatus } from '../../kernel/source-status';

/** A CBM answer: the units, or why there are none. */
export type CbmSection =
	| { kind: 'units'; units: CbmAlert[] }
	| { kind: 'denied'; explanation: string }
	| { kind: 'none' };

export interface AssetStatus {
	kind: 'status';
	asset: AssetRef;
	assetType: string;
	model?: string;
	firmware?: string;
	latestData?: string;
	level?: string;
	conditions: Condition[] | { denied: string };
	openEvents: PlatformEvent[];
	/** Why the events could not be read (expired subscription, level), as a sentence. */
	eventsDenied?: string;
	cbm: CbmSection;
	/** Online/offline as the connectivity tracker knows it; absent when it is off or never saw the asset. */
	link?: AssetLink;
	/** Latest values of the main signals (E16/E17), or why there are none. */
	signals?: LatestValue[] | { denied: string };
	/** Silences covering the asset now. */
	silences?: Silence[];
}

/** What a command answers, before it is rendered to Block Kit or terminal text. */
export type CommandResult =
	| { kind: 'help'; command: string }
	| { kind: 'usage'; command: string; message: string }
	| { kind: 'refused'; message: string }
	| { kind: 'not_found'; query: string; suggestions: AssetRef[] }
	/** `total`: how many matched; `matches` are the first by name. */
	| { kind: 'ambiguous'; query: string; matches: AssetRef[]; total?: number }
	| AssetStatus
	| { kind: 'events'; asset: AssetRef; range: string; events: PlatformEvent[]; denied?: string }
	| { kind: 'cbm'; asset: AssetRef; cbm: CbmSection }
	| {
			kind: 'health';
			group?: string;
			assets: number;
			/** Assets whose Overall condition is known (the rest could not be read yet). */
			known: number;
			byStatus: Record<string, number>;
			openFaults: Array<{ asset: AssetRef; count: number }>;
			/** Assets offline or unknown, per group name. */
			offlineByGroup?: Record<string, { offline: number; unknown: number }>;
			/** How late each alert source is (B46). */
			sources?: SourceStatus[];
	  }
	| { kind: 'find'; query: string; matches: AssetRef[]; more: boolean }
	/** A chart was drawn (and uploaded where there is a channel). */
	| Extract<TrendAnswer, { kind: 'trend' }>
	/** A report was requested: the PDF follows in the thread of the message it posted. */
	| {
			kind: 'report_started';
			reportId: number;
			title: string;
			what: string;
			startDate: string;
			endDate: string;
			note?: string;
	  }
	| { kind: 'error'; message: string }
	/** A PowerTrain: the status of its drive and its motor (the API answers for those, not for it). */
	| { kind: 'powertrain'; asset: AssetRef; members: AssetStatus[]; silences: Silence[] }
	/** A sentence answering an on-call command (mute, unmute). */
	| { kind: 'notice'; message: string }
	| { kind: 'mutes'; silences: Silence[]; command: string };
