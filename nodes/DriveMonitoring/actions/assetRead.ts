import type { INodePropertyOptions } from 'n8n-workflow';
import type { DriveMonitoringClient } from '../transport';
import { resolveIdParameter, locator } from './common';
import { toItems } from './output';
import type { Operation } from './types';

/** A read of one asset with no other field: pick the asset, fetch, one item per record. */
export function assetRead(
	option: INodePropertyOptions & { action: string; description: string },
	fetch: (client: DriveMonitoringClient, assetId: number) => Promise<unknown>,
): Operation {
	return {
		option,
		readOnly: true,
		properties: [locator('asset')],
		async execute(client, itemIndex) {
			return toItems(
				await fetch(client, await resolveIdParameter.call(this, client, 'asset', itemIndex)),
			);
		},
	};
}
