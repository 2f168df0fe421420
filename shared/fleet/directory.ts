// The fleet a credential sees, read through the existing endpoints (the API has no search): the
// organization tree (E2) once, then the assets of each end-user organization (E3). The n8n node's
// pickers and name resolution and the Slack bot read it here, so they agree on which organizations
// and assets a credential sees.
import { Limiter } from '../core/limiter';
import type { Asset, OrganizationNode } from '../schemas/resources';
import { readTree, type OrganizationTree } from './organizations';
import { withMembers } from './powertrain';

/** The two reads the directory needs; the core client has them, and so has the bot's platform. */
export interface FleetSource {
	organization: {
		getNodes(): Promise<OrganizationNode>;
		listAssets(input: { orgId: number }): Promise<Asset[]>;
	};
}

export interface FleetDirectoryOptions {
	/** At most this many asset lists read at once (the client's own limit applies without it). */
	concurrency?: number;
}

/** One reading of the fleet: each part is read when first asked for, then kept. */
export class FleetDirectory {
	private treeRead: Promise<OrganizationTree> | undefined;
	private assetsRead: Promise<Asset[]> | undefined;

	constructor(
		private readonly source: FleetSource,
		private readonly options: FleetDirectoryOptions = {},
	) {}

	/** The organizations, end-user organizations, asset groups and plants (one E2). */
	tree(): Promise<OrganizationTree> {
		this.treeRead ??= this.source.organization.getNodes().then(readTree);
		return this.treeRead;
	}

	/**
	 * Every asset of every end-user organization, each once, a PowerTrain followed by its drive
	 * and motor (one E3 per end-user organization).
	 */
	assets(): Promise<Asset[]> {
		this.assetsRead ??= this.readAssets();
		return this.assetsRead;
	}

	private async readAssets(): Promise<Asset[]> {
		const { endUsers } = await this.tree();
		const limiter = this.options.concurrency ? new Limiter(this.options.concurrency) : undefined;
		const list = (orgId: number) => this.source.organization.listAssets({ orgId });
		const lists = await Promise.all(
			endUsers.map((org) => (limiter ? limiter.run(() => list(org.id)) : list(org.id))),
		);
		return withMembers(lists.flat(), inPowerTrainPlace);
	}
}

/** A member the list gives without an organization or group sits where its PowerTrain does (F3). */
function inPowerTrainPlace(member: Asset, powerTrain: Asset): Asset {
	if (
		member.organizationId !== null &&
		member.organizationName !== null &&
		member.assetGroupId !== null &&
		member.assetGroupName !== null
	)
		return member;
	return {
		...member,
		organizationId: member.organizationId ?? powerTrain.organizationId,
		organizationName: member.organizationName ?? powerTrain.organizationName,
		assetGroupId: member.assetGroupId ?? powerTrain.assetGroupId,
		assetGroupName: member.assetGroupName ?? powerTrain.assetGroupName,
	};
}

const directories = new WeakMap<FleetSource, FleetDirectory>();

/**
 * The directory of one client, read at most once for it. A node builds one client per execution,
 * so every item of an execution (and every name it resolves) shares one reading.
 */
export function fleetOf(client: FleetSource): FleetDirectory {
	let directory = directories.get(client);
	if (!directory) {
		directory = new FleetDirectory(client);
		directories.set(client, directory);
	}
	return directory;
}
