import { schemas } from '../../shared';

describe('schemas accept both casings and the aliases, and emit camelCase', () => {
	test('asset list item: PascalCase with SubAssets, camelCase with subDevices', () => {
		const pascal = schemas.Asset.parse({
			Id: 7,
			Name: 'Pump train',
			SerialNumber: 'PT1',
			OrganizationId: 11,
			OrganizationName: 'Harbor',
			AssetGroupId: 1001,
			AssetGroupName: 'Pumps',
			AssetType: 'PowerTrain',
			SubAssets: [{ Id: 8, Name: 'Pump drive', AssetType: 'Drive', SubAssets: null }],
		});
		const camel = schemas.Asset.parse({
			id: 7,
			name: 'Pump train',
			serialNumber: 'PT1',
			organizationId: 11,
			organizationName: 'Harbor',
			assetGroupId: 1001,
			assetGroupName: 'Pumps',
			assetType: 'PowerTrain',
			subDevices: [{ id: 8, name: 'Pump drive', assetType: 'Drive', subDevices: null }],
		});
		expect(pascal).toEqual(camel);
		expect(camel.subAssets?.[0]).toMatchObject({ id: 8, assetType: 'Drive', subAssets: null });
		expect(camel).not.toHaveProperty('subDevices');
	});

	test('organization tree: SubOrgs and serverOrgs are the same list', () => {
		const tree = { OrgId: 3, OrgName: 'Voltline', OrgType: 'CP', AssetGroups: [], Plants: [] };
		const a = schemas.OrganizationNode.parse({
			...tree,
			SubOrgs: [
				{ orgId: 11, orgName: 'Harbor', AssetGroups: [{ Id: 1, Name: 'Pumps' }], Plants: [] },
			],
		});
		const b = schemas.OrganizationNode.parse({
			...tree,
			serverOrgs: [
				{ orgId: 11, orgName: 'Harbor', assetGroups: [{ id: 1, name: 'Pumps' }], plants: [] },
			],
		});
		expect(a).toEqual(b);
		expect(b.subOrgs[0].assetGroups[0]).toEqual({ id: 1, name: 'Pumps' });
	});

	test('asset detail: AssetGroup and AssetGroupName are the group name; -1 contract times are null', () => {
		const a = schemas.AssetDetail.parse({
			Id: 1,
			AssetType: 'Drive',
			AssetGroup: 'Pumps',
			SIMICCID: '8986',
			ExpertService: {
				ServiceStatus: 1,
				ServiceContractStartTime: -1,
				ServiceContractExpiredTime: '1732147200000',
			},
		});
		const b = schemas.AssetDetail.parse({
			id: 1,
			assetType: 'Drive',
			assetGroupName: 'Pumps',
			simiccid: '8986',
			expertService: {
				serviceStatus: 1,
				serviceContractStartTime: -1,
				serviceContractExpiredTime: 1732147200000,
			},
		});
		expect(a).toEqual(b);
		expect(a.assetGroup).toBe('Pumps');
		expect(a.expertService).toMatchObject({
			serviceContractStartTime: null,
			serviceContractExpiredTime: 1732147200000,
		});
		expect(a.createdUserId).toBeNull();
	});

	test('unknown fields are kept, in their own spelling', () => {
		const event = schemas.Event.parse({
			Id: 5,
			EventType: 'Fault',
			EventDateTime: '2024-11-21T00:00:00Z',
			EventStatus: 'Open',
			Severity: 'High',
		});
		expect(event).toMatchObject({
			id: 5,
			eventType: 'Fault',
			Severity: 'High',
			isHasEventLogger: false,
		});
	});

	test('series: "-" points become null, numeral timestamps become numbers', () => {
		const data = schemas.TrendSignalData.parse({
			ParamDatas: [
				{
					Config: { Code: 'P1', Name: 'Speed' },
					Avg: [1.5, '-', '2'],
					Max: [],
					Min: [],
					Value: [],
					Timestamp: ['1732147200000', '1732147500000', '1732147800000'],
				},
			],
		});
		expect(data.paramDatas[0]).toMatchObject({
			avg: [1.5, null, 2],
			timestamp: [1732147200000, 1732147500000, 1732147800000],
		});
		expect(data.paramDatas[0].config.code).toBe('P1');
	});

	test('enum numbers map to the spec names; new enum values pass through', () => {
		expect(
			schemas.DataSubscriptionUser.parse({ Id: 'u', SubDataTypes: [1, 'AssetCBM', 9] })
				.subDataTypes,
		).toEqual(['AssetEvent', 'AssetCBM', '9']);
		expect(
			schemas.CommissioningDate.parse({
				assetId: 1,
				deviceUnitType: 2,
				commissioningdate: '2024-01-01T00:00:00Z',
			}),
		).toMatchObject({
			deviceUnitType: 'IGBT',
			commissioningDate: '2024-01-01T00:00:00Z',
		});
		expect(schemas.Condition.parse({ Type: 'Vibration', Status: 'Good' }).type).toBe('Vibration');
	});

	test('CBM: empty predicted dates are null (already past)', () => {
		const cbm = schemas.CbmResult.parse({
			DeviceUnitType: 'Fan',
			DeviceUnitStatus: 'Red',
			PredictedNoPlanDate: '',
			PredictedStartPlanDate: '2025-01-02',
			DeviceDayKPIs: [{ Date: '2024-11-21', KPI: 1 }],
		});
		expect(cbm).toMatchObject({
			predictedNoPlanDate: null,
			predictedStartPlanDate: '2025-01-02',
			deviceDayKPIs: [{ date: '2024-11-21', kpi: 1 }],
		});
	});

	test('a payload that does not fit names the field path', () => {
		const result = schemas.Event.safeParse({
			id: 'not-a-number',
			eventType: 'Fault',
			eventStatus: 'Open',
		});
		expect(result.success).toBe(false);
		expect(result.error?.issues[0]).toMatchObject({ path: ['id'], message: 'expected an integer' });
	});
});

test('all-lowercase keys are read too (assetgroupid), the input object is left as it was', () => {
	const input = { id: 1, name: 'a', serialnumber: 'S1', assetgroupid: 5, assettype: 'Drive' };
	const asset = schemas.Asset.parse(input);
	expect(asset).toMatchObject({ serialNumber: 'S1', assetGroupId: 5, assetType: 'Drive' });
	expect(input).toEqual({
		id: 1,
		name: 'a',
		serialnumber: 'S1',
		assetgroupid: 5,
		assettype: 'Drive',
	});
});
