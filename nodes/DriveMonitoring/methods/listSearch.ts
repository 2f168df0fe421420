import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { displayName, fleetOf, type FleetPlace } from '../../../shared/fleet';
import { mentions } from '../../../shared/resolve/match';
import { createNodeClient } from '../transport';
import { assetLabel } from './labels';

/** The ID chosen in another locator of the node, when it is set and plain. */
function selectedId(this: ILoadOptionsFunctions, name: string): number | undefined {
	try {
		const value = Number(this.getCurrentNodeParameter(name, { extractValue: true }));
		return Number.isSafeInteger(value) && value > 0 ? value : undefined;
	} catch {
		// The other locator is not part of this operation or holds an expression: do not narrow the list.
		return undefined;
	}
}

export async function searchOrganizations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await createNodeClient.call(this);
	const { organizations } = await fleetOf(client).tree();
	return {
		results: organizations
			.filter((org) => mentions(filter, displayName(org), org.id))
			.map((org) => ({ name: `${displayName(org)} (${org.type ?? ''})`, value: String(org.id) })),
	};
}

export async function searchAssetGroups(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await createNodeClient.call(this);
	const orgId = selectedId.call(this, 'organization');
	const { groups } = await fleetOf(client).tree();
	return placesFound(
		groups.filter((g) => orgId === undefined || g.organization.id === orgId),
		filter,
	);
}

export async function searchPlants(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await createNodeClient.call(this);
	return placesFound((await fleetOf(client).tree()).plants, filter);
}

/** Asset groups or plants by their name, their organization's or their id, shown under their organization. */
function placesFound(places: FleetPlace[], filter: string | undefined): INodeListSearchResult {
	return {
		results: places
			.filter((p) => mentions(filter, displayName(p), displayName(p.organization), p.id))
			.map((p) => ({
				name: `${displayName(p.organization)} / ${displayName(p)}`,
				value: String(p.id),
			})),
	};
}

export async function searchAssets(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await createNodeClient.call(this);
	const assets = await fleetOf(client).assets();
	return {
		results: assets
			.filter((asset) => mentions(filter, asset.name, asset.serialNumber, asset.id))
			.map((asset) => ({ name: assetLabel(asset), value: String(asset.id) })),
	};
}

export async function searchReports(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const assetId = selectedId.call(this, 'asset');
	if (assetId === undefined) return { results: [] };
	const client = await createNodeClient.call(this);
	const reports = await client.assetData.listReports({ assetId });
	return {
		results: reports
			.filter((r) => mentions(filter, r.title, r.subTitle, r.id))
			.map((r) => ({
				name: `${r.title ?? r.id} (${r.status}, ${r.createdOn ?? 'no date'})`,
				value: String(r.id),
			})),
	};
}

export async function searchSubscribers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await createNodeClient.call(this);
	const users = await client.dataSubscription.getUsers();
	return {
		results: users
			.filter((u) => mentions(filter, u.userName, u.topic, u.id))
			.map((u) => ({
				name: `${u.userName ?? u.id}${u.topic ? ` (topic ${u.topic})` : ''}`,
				value: u.id,
			})),
	};
}
