import { GATEWAY_TYPES, LIMITS } from '../../shared/spec';
import type { AssetRec, GatewayName } from '../fleet/model';
import { ApiError } from '../http/envelope';
import { pathInt } from '../http/fields';
import { isoUtc } from '../time';
import {
	requireAsset,
	requireDriveOrMotor,
	requireGroup,
	requirePlant,
	type Handler,
} from './context';

const bindSubscription: Handler = (ctx) => {
	const assetId = ctx.body.int('assetId');
	const codeText = ctx.body.string('subscriptionCode');
	const asset = requireAsset(ctx, assetId);
	requireDriveOrMotor(asset);
	const now = ctx.platform.now();
	const code = ctx.platform.data.codes.get(codeText);
	if (!code) throw new ApiError(105201, `code '${codeText}'`);
	if (code.usedByAssetId !== null)
		throw new ApiError(105204, `code '${codeText}' is bound to asset ${code.usedByAssetId}`);
	if (code.expiresAt <= now)
		throw new ApiError(105202, `code '${codeText}' expired on ${isoUtc(code.expiresAt)}`);
	if (code.assetType !== asset.assetType)
		throw new ApiError(
			105203,
			`code '${codeText}' is for a ${code.assetType}, asset ${assetId} is a ${asset.assetType}`,
		);
	if (asset.gatewayType === 'NETA21' && code.level !== 'Premium') {
		throw new ApiError(
			105205,
			`asset ${assetId} is connected through a NETA21 gateway and accepts only Premium codes; code '${codeText}' is ${code.level}`,
		);
	}
	// A code bound while another subscription runs is queued (Nonactivated) until that one ends.
	const startAt = Math.max(
		now,
		...asset.subscriptions.filter((s) => s.endAt > now).map((s) => s.endAt),
	);
	const end = new Date(startAt);
	end.setUTCMonth(end.getUTCMonth() + code.period);
	asset.subscriptions.push({
		id: ctx.platform.data.ids.subscription++,
		code: code.code,
		type: code.type,
		level: code.level,
		period: code.period,
		startAt,
		endAt: end.getTime(),
	});
	code.usedByAssetId = asset.id;
	return {};
};

const getAsset: Handler = (ctx) => {
	const asset = requireAsset(ctx, pathInt(ctx.params, 'id'));
	requireDriveOrMotor(asset);
	return ctx.platform.assetDetail(asset);
};

const listSubscriptions: Handler = (ctx) => {
	const asset = requireAsset(ctx, pathInt(ctx.params, 'assetid'));
	requireDriveOrMotor(asset);
	return ctx.platform.subscriptionPayload(asset);
};

const createDrive: Handler = (ctx) => {
	const { body, platform } = ctx;
	const name = body.string('Name', { max: LIMITS.assetNameMax });
	const groupId = body.int('AssetGroupId');
	const plantId = body.int('PlantId');
	const serialNumber = body.string('SerialNumber', { max: LIMITS.serialNumberMax });
	const gatewayNumber = body.int('GatewayType');
	const gateway =
		(Object.keys(GATEWAY_TYPES) as GatewayName[]).find((g) => GATEWAY_TYPES[g] === gatewayNumber) ??
		body.fail('GatewayType', 'must be 1 (NETA21) or 2 (IOT Panel)');
	const reference = body.object('AssetReference');
	let gatewaySerialNumber: string;
	let simIccid = '';
	let driveModel: string | undefined;
	if (gateway === 'IOTPanel') {
		const block = reference.object('IOTPanel');
		driveModel = block.has('DriveModel') ? block.string('DriveModel') : undefined;
		block.string('DeviceNodeId', {
			pattern: /^\d{2}$/,
			patternRule: 'must be a two-digit numeral such as "01"',
		});
		simIccid = block.string('SIMICCID', {
			pattern: /^\d{19,20}$/,
			patternRule: 'must be the 19 or 20 digits of a SIM ICCID',
		});
		gatewaySerialNumber = `IOT${serialNumber.slice(-8)}`;
	} else {
		const block = reference.object('NETA21');
		gatewaySerialNumber = block.string('GatewaySN', { max: LIMITS.serialNumberMax });
		block.string('DeviceNodeId', {
			pattern: /^\d{1,3}$/,
			patternRule: 'must be a numeral such as "1"',
		});
	}
	const group = requireGroup(ctx, groupId);
	const plant = requirePlant(ctx, plantId, group.orgId);
	if (
		platform.store.assets().some((a) => a.serialNumber.toLowerCase() === serialNumber.toLowerCase())
	) {
		throw new ApiError(102203, `an asset with serial number '${serialNumber}' exists`);
	}
	const entry = platform.data.registry.get(serialNumber);
	if (!entry)
		throw new ApiError(102204, `serial number '${serialNumber}' is not in the device registry`);
	const org = platform.store.org(group.orgId);
	const now = platform.now();
	const asset: AssetRec = {
		id: platform.data.ids.asset++,
		orgId: group.orgId,
		groupId: group.id,
		plantId: plant.id,
		name,
		serialNumber,
		assetType: 'Drive',
		modelType: driveModel ?? entry.modelType,
		firmwareVersion: entry.firmwareVersion,
		gatewayType: gateway,
		gatewaySerialNumber,
		simIccid,
		createdOn: now,
		createdUserId: org?.adminUserId ?? null,
		createdUserPhone: org?.adminUserPhone ?? null,
		expertService: { serviceStatus: 3, serviceType: 0, contractStart: -1, contractEnd: -1 },
		subscriptions: [],
		memberIds: null,
		powerTrainId: null,
		longitude: plant.longitude.toFixed(6),
		latitude: plant.latitude.toFixed(6),
	};
	platform.data.assets.set(asset.id, asset);
	const detail = platform.assetDetail(asset);
	const keys = [
		'id',
		'serialNumber',
		'name',
		'assetType',
		'organization',
		'assetGroup',
		'plant',
		'modelType',
		'firmwareVersion',
		'gatewayType',
		'gatewaySerialNumber',
		'simiccid',
		'latestDataReceived',
		'createdOn',
	];
	return Object.fromEntries(keys.map((k) => [k, detail[k]]));
};

const renameAsset: Handler = (ctx) => {
	const id = ctx.body.int('id');
	const name = ctx.body.string('name', { max: LIMITS.assetNameMax });
	const asset = requireAsset(ctx, id);
	requireDriveOrMotor(asset);
	asset.name = name;
	return {};
};

const moveAsset: Handler = (ctx) => {
	const assetId = ctx.body.int('assetId');
	const groupId = ctx.body.int('assetGroupId');
	const asset = requireAsset(ctx, assetId);
	requireDriveOrMotor(asset);
	asset.groupId = requireGroup(ctx, groupId, asset.orgId).id;
	return {};
};

const deleteAsset: Handler = (ctx) => {
	const asset = requireAsset(ctx, pathInt(ctx.params, 'id'));
	requireDriveOrMotor(asset);
	if (asset.powerTrainId !== null) {
		throw new ApiError(
			100403,
			`asset ${asset.id} is part of PowerTrain ${asset.powerTrainId} and cannot be deleted on its own`,
		);
	}
	ctx.platform.data.assets.delete(asset.id);
	return {};
};

export const assetHandlers = {
	E7: bindSubscription,
	E8: getAsset,
	E9: listSubscriptions,
	E10: createDrive,
	E11: renameAsset,
	E12: moveAsset,
	E13: deleteAsset,
} satisfies Record<string, Handler>;
