// What names are resolved against: the organizations, asset groups and assets the credentials can
// see, from the fleet directory (shared/fleet), read at most once per client. A node builds one
// client per execution: one reading serves every item.
import { fleetOf, type FleetSource } from '../fleet/directory';
import { ambiguityMessage, resolveName, unknownMessage, type Kind, type Named } from './match';

export type TargetKind = 'asset' | 'assetGroup' | 'organization';

const KIND: Record<TargetKind, { label: Kind; listHint: string }> = {
	asset: { label: 'Asset', listHint: 'list them with Asset > Get Many in Organization' },
	assetGroup: { label: 'Asset group', listHint: 'list them with Organization > Get Tree' },
	organization: { label: 'Organization', listHint: 'list them with Organization > Get Tree' },
};

/** Candidates of one kind, each with where it sits (shown beside it in an ambiguity). */
async function candidates(client: FleetSource, kind: TargetKind): Promise<Named[]> {
	const fleet = fleetOf(client);
	if (kind === 'asset')
		return (await fleet.assets()).map((asset) => ({
			id: asset.id,
			name: asset.name,
			serialNumber: asset.serialNumber,
			place: [
				asset.assetGroupName && `group ${asset.assetGroupName}`,
				asset.organizationName && `organization ${asset.organizationName}`,
			]
				.filter(Boolean)
				.join(', '),
		}));
	const tree = await fleet.tree();
	if (kind === 'organization')
		return tree.organizations.map((org) => ({
			id: org.id,
			name: org.name,
			place: `organization ${org.path}`,
		}));
	return tree.groups.map((group) => ({
		id: group.id,
		name: group.name,
		place: `organization ${group.organization.path}`,
	}));
}

/**
 * The id behind what a user or model typed: a positive whole number is taken as the id with no
 * request; anything else is a name (or serial) resolved against what the credentials can see.
 * Unless exactly one target matches, the answer is a refusal that says what to send instead.
 */
export async function resolveTarget(
	client: FleetSource,
	kind: TargetKind,
	typed: string,
): Promise<{ id: number } | { refusal: string }> {
	const text = typed.trim();
	if (/^[0-9]+$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text)))
		return { id: Number(text) };
	const result = resolveName(text, await candidates(client, kind));
	const { label, listHint } = KIND[kind];
	if (result.kind === 'one') return { id: result.target.id };
	if (result.kind === 'ambiguous')
		return { refusal: ambiguityMessage(label, text, result.candidates, result.total) };
	return { refusal: unknownMessage(label, text, listHint) };
}
