import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { createNodeClient } from '../transport';
import { allAssets, assetLabel, groupsOf, matches, organizationsOf, plantsOf } from './fleet';

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
	const orgs = organizationsOf(await client.organization.getNodes());
	return {
		results: orgs
			.filter((org) => matches(filter, org.name, org.id))
			.map((org) => ({ name: `${org.name} (${org.type})`, value: String(org.id) })),
	};
}

export async function searchAssetGroups(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await createNodeClient.call(this);
	const orgId = selectedId.call(this, 'organization');
	const groups = groupsOf(await client.organization.getNodes());
	return {
		results: groups
			.filter(
				(g) =>
					(orgId === undefined || g.org.id === orgId) && matches(filter, g.name, g.org.name, g.id),
			)
			.map((g) => ({ name: `${g.org.name} / ${g.name}`, value: String(g.id) })),
	};
}

export async function searchPlants(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await createNodeClient.call(this);
	const plants = plantsOf(await client.organization.getNodes());
	return {
		results: plants
			.filter((p) => matches(filter, p.name, p.org.name, p.id))
			.map((p) => ({ name: `${p.org.name} / ${p.name}`, value: String(p.id) })),
	};
}

export async function searchAssets(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await createNodeClient.call(this);
	const assets = await allAssets(client);
	return {
		results: assets
			.filter((asset) => matches(filter, asset.name, asset.serialNumber, asset.id))
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
			.filter((r) => matches(filter, r.title, r.subTitle, r.id))
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
			.filter((u) => matches(filter, u.userName, u.topic, u.id))
			.map((u) => ({
				name: `${u.userName ?? u.id}${u.topic ? ` (topic ${u.topic})` : ''}`,
				value: u.id,
			})),
	};
}
