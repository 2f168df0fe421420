import type { SourceStatus } from '../alerts/sources/poll';
import type { AssetRef, CbmAlert } from '../alerts/model';
import type { Condition, PlatformEvent } from '../platform/types';

/** A CBM answer: the units, or why there are none. */
export type CbmSection = { kind: 'units'; units: CbmAlert[] } | { kind: 'denied'; explanation: string } | { kind: 'none' };

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
  cbm: CbmSection;
}

/** What a command answers, before it is rendered to Block Kit or terminal text. */
export type CommandResult =
  | { kind: 'help'; command: string }
  | { kind: 'usage'; command: string; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'not_found'; query: string; suggestions: AssetRef[] }
  | { kind: 'ambiguous'; query: string; matches: AssetRef[] }
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
      /** How late each alert source is (B46). */
      sources?: SourceStatus[];
    }
  | { kind: 'find'; query: string; matches: AssetRef[]; more: boolean }
  | { kind: 'error'; message: string };
