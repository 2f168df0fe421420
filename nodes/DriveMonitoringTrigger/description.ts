import type { INodeProperties } from 'n8n-workflow';

/** Filters on what a trigger emits; the push trigger of n8n-nodes-drive-monitoring-push has the same. */
export const filtersProperty: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Asset IDs',
			name: 'assetIds',
			type: 'string',
			default: '',
			placeholder: '1001, 1002',
			description: 'Emit only data of these assets (comma-separated IDs)',
		},
		{
			displayName: 'CBM Status',
			name: 'cbmStatuses',
			type: 'multiOptions',
			options: [
				{ name: 'Gray', value: 'Gray' },
				{ name: 'Good', value: 'Good' },
				{ name: 'Red', value: 'Red' },
				{ name: 'Yellow', value: 'Yellow' },
			],
			default: [],
			description: 'Emit CBM data only when a unit has one of these statuses',
		},
		{
			displayName: 'Event Type',
			name: 'eventTypes',
			type: 'multiOptions',
			options: [
				{ name: 'Fault', value: 'Fault' },
				{ name: 'Notification', value: 'Notification' },
				{ name: 'Warning', value: 'Warning' },
			],
			default: [],
			description: 'Emit only events of these types',
		},
	],
};

/** Whether to add the data as received under "raw" (both triggers). */
export const includeRawOption: INodeProperties = {
	displayName: 'Include Raw Message',
	name: 'includeRaw',
	type: 'boolean',
	default: false,
	description: 'Whether to add the message as received or as the API answered under "raw"',
};

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Watch',
		name: 'watch',
		type: 'multiOptions',
		options: [
			{
				name: 'CBM Changes',
				value: 'cbm',
				description: 'A CBM unit changed status (Standard and Premium assets)',
			},
			{
				name: 'Condition Changes',
				value: 'conditions',
				description: 'A health condition changed status',
			},
			{
				name: 'New Events',
				value: 'events',
				description: 'Events that appeared since the last poll',
			},
			{
				name: 'Report Status',
				value: 'reports',
				description: 'A report became Created or Failed (Basic and up)',
			},
		],
		default: ['events'],
	},
	{
		displayName: 'Assets',
		name: 'scope',
		type: 'options',
		options: [
			{ name: 'Listed Assets', value: 'assets' },
			{ name: 'All Assets of an Organization', value: 'organization' },
			{ name: 'All Assets of an Asset Group', value: 'assetGroup' },
		],
		default: 'assets',
	},
	{
		displayName: 'Asset IDs',
		name: 'assetIds',
		type: 'string',
		displayOptions: { show: { scope: ['assets'] } },
		default: '',
		required: true,
		placeholder: '1001, 1002',
		description: 'IDs of drives and motors to watch, separated by commas',
	},
	{
		displayName: 'Organization ID',
		name: 'orgId',
		type: 'number',
		displayOptions: { show: { scope: ['organization', 'assetGroup'] } },
		default: 0,
		required: true,
		description: 'ID of the end-user (EU) organization',
	},
	{
		displayName: 'Asset Group ID',
		name: 'assetGroupId',
		type: 'number',
		displayOptions: { show: { scope: ['assetGroup'] } },
		default: 0,
		required: true,
	},
	filtersProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			includeRawOption,
			{
				displayName: 'Late Event Margin (Minutes)',
				name: 'lateMarginMinutes',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 10,
				description:
					'Each poll looks this far behind the previous one, for events the platform records late',
			},
		],
	},
];
