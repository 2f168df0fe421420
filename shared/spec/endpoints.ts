/** E1 to E30: method and path template (relative to API_PREFIX) exactly as the spec prints them. */
export const ENDPOINTS = {
	E1: { method: 'GET', path: '/organization', name: 'Get own organization' },
	E2: { method: 'GET', path: '/organization/nodes', name: 'Get organization nodes' },
	E3: { method: 'GET', path: '/organization/{orgid}/assets', name: 'List assets of an EU' },
	E4: {
		method: 'GET',
		path: '/organization/{orgid}/assetgroup/{assetgroupid}/assets',
		name: 'List assets of an asset group',
	},
	E5: { method: 'POST', path: '/organization/assetgroup', name: 'Create asset group' },
	E6: { method: 'GET', path: '/organization/{orgid}/asset/statistics', name: 'Asset statistics' },
	E7: { method: 'POST', path: '/subscription/bind', name: 'Bind subscription to asset' },
	E8: { method: 'GET', path: '/assetmanagement/asset/{id}', name: 'Get asset detail' },
	E9: {
		method: 'GET',
		path: '/assetmanagement/subscription/{assetid}',
		name: 'List asset subscriptions',
	},
	E10: { method: 'POST', path: '/assetmanagement/asset', name: 'Create drive asset' },
	E11: { method: 'PUT', path: '/assetmanagement/asset', name: 'Rename asset' },
	E12: { method: 'PUT', path: '/assetmanagement/asset/move', name: 'Move asset to another group' },
	E13: { method: 'DELETE', path: '/assetmanagement/asset/{id}', name: 'Delete asset' },
	E14: { method: 'GET', path: '/assetdata/{assetid}/event', name: 'List events' },
	E15: {
		method: 'GET',
		path: '/assetdata/{assetid}/event/{eventid}/eventlogger/file',
		name: 'Get event logger file',
	},
	E16: {
		method: 'GET',
		path: '/assetdata/{assetid}/trendsignal/config',
		name: 'Get trend and signal configuration',
	},
	E17: {
		method: 'POST',
		path: '/assetdata/asset/trendsignal/data',
		name: 'Query trend and signal time series',
	},
	E18: {
		method: 'GET',
		path: '/assetdata/{assetid}/condition',
		name: 'Get latest health conditions',
	},
	E19: { method: 'GET', path: '/assetdata/{assetid}/cbm', name: 'Get CBM analysis' },
	E20: {
		method: 'PUT',
		path: '/assetdata/asset/cbm/unit',
		name: 'Update component commissioning date',
	},
	E21: { method: 'POST', path: '/assetdata/asset/report', name: 'Create user report' },
	E22: { method: 'GET', path: '/assetdata/{assetid}/report', name: 'List reports of an asset' },
	E23: {
		method: 'GET',
		path: '/assetdata/{assetid}/report/download/{reportid}',
		name: 'Download report',
	},
	E24: {
		method: 'GET',
		path: '/assetdata/{assetid}/parameterbackup/list',
		name: 'List parameter backups',
	},
	E25: {
		method: 'GET',
		path: '/assetdata/{assetid}/parameterbackup/{parametersetid}',
		name: 'Get parameter backup content',
	},
	E26: { method: 'POST', path: '/subassetdata/subcustomer', name: 'Create data-subscription user' },
	E27: { method: 'GET', path: '/subassetdata/subcustomer', name: 'Get data-subscription user' },
	E28: {
		method: 'POST',
		path: '/subassetdata/subcustomer/{subcustomerid}/sub',
		name: 'Subscribe or update data types',
	},
	E29: {
		method: 'DELETE',
		path: '/subassetdata/subcustomer/{subcustomerid}',
		name: 'Delete data-subscription user',
	},
	E30: {
		method: 'POST',
		path: '/subassetdata/subcustomer/{subcustomerid}/reset',
		name: 'Reset password',
	},
} as const;

export type EndpointId = keyof typeof ENDPOINTS;
export type HttpMethod = (typeof ENDPOINTS)[EndpointId]['method'];
