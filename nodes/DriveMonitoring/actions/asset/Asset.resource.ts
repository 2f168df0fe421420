import type { Resource } from '../types';
import { bindSubscriptionCode } from './bindSubscriptionCode.operation';
import { createDrive } from './createDrive.operation';
import { deleteAsset } from './delete.operation';
import { get } from './get.operation';
import { getManyInGroup } from './getManyInGroup.operation';
import { getManyInOrganization } from './getManyInOrganization.operation';
import { getSubscriptions } from './getSubscriptions.operation';
import { move } from './move.operation';
import { rename } from './rename.operation';

export const asset: Resource = {
	value: 'asset',
	name: 'Asset',
	description: 'Drives, motors and powertrains',
	operations: [
		bindSubscriptionCode,
		createDrive,
		deleteAsset,
		get,
		getManyInGroup,
		getManyInOrganization,
		getSubscriptions,
		move,
		rename,
	],
};
