import type { SqlScope } from '../../state/scope';
import { CbmStore } from './cbm-store';
import { Outbox } from './outbox';
import { AlertStore } from './store';
import { Watermarks } from './watermarks';

/** The alerts' stores over one scope: the database, or one transaction (then every change commits together). */
export interface AlertState {
	scope: SqlScope;
	alerts: AlertStore;
	cbm: CbmStore;
	outbox: Outbox;
	watermarks: Watermarks;
}

export function alertState(scope: SqlScope): AlertState {
	return {
		scope,
		alerts: new AlertStore(scope),
		cbm: new CbmStore(scope),
		outbox: new Outbox(scope),
		watermarks: new Watermarks(scope),
	};
}
