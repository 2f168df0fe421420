import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { fleetOf } from '../../../shared/fleet';
import { createNodeClient } from '../transport';
import { assetLabel } from './labels';

/** Trend and signal codes of the chosen asset (E16), for Trend and Signal > Get Data. */
export async function getTrendSignalCodes(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const assetId = Number(this.getCurrentNodeParameter('asset', { extractValue: true }));
	if (!Number.isSafeInteger(assetId) || assetId < 1) {
		throw new NodeOperationError(this.getNode(), 'Choose an asset first', {
			description: 'The trend and signal codes are those of the selected asset.',
		});
	}
	const client = await createNodeClient.call(this);
	const config = await client.assetData.getTrendSignalConfig({ assetId });
	const option = (kind: string) => (p: (typeof config.trends)[number]) => ({
		name: `${p.label ?? p.name ?? p.code}${p.unit ? ` (${p.unit})` : ''} · ${kind}`,
		value: p.code,
		description: `${kind} ${p.code}${p.name ? `: ${p.name}` : ''}`,
	});
	return [...config.trends.map(option('Trend')), ...config.signals.map(option('Signal'))];
}

/** Every asset in view, for the fleet report's multi-select. */
export async function getAssets(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const client = await createNodeClient.call(this);
	return (await fleetOf(client).assets()).map((asset) => ({
		name: assetLabel(asset),
		value: asset.id,
	}));
}
