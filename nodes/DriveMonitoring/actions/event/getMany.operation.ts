import type { Event } from '../../../../shared/schemas';
import type { Operation } from '../types';
import {
	splitsLongRanges,
	getDateParameter,
	resolveIdParameter,
	locator,
	rangeOptions,
	timeRange,
	timeRangeDefaults,
} from '../common';
import { toItems } from '../output';
import { levelForHistoryCheck } from '../../helpers/history';

export const getMany: Operation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		action:
			'Get events of an asset: list the events (faults, warnings, notices) of one asset in a time range, newest first, the newest 20 and the total; use for "did it fault this week?"',
		description:
			'List the faults, warnings and notifications of an asset in a time range, one item per event; long ranges are split into 7-day queries',
	},
	readOnly: true,
	properties: [
		locator('asset'),
		...timeRange(timeRangeDefaults.last7Days, 'event time range'),
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: true,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			displayOptions: { show: { returnAll: [false] } },
			description: 'Max number of results to return',
		},
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Event Types',
					name: 'eventTypes',
					type: 'multiOptions',
					default: [],
					options: [
						{ name: 'Fault', value: 'Fault' },
						{ name: 'Notification', value: 'Notification' },
						{ name: 'Warning', value: 'Warning' },
					],
					description: 'Only events of these types (all types when empty)',
				},
				{
					displayName: 'Status',
					name: 'status',
					type: 'options',
					default: 'Open',
					options: [
						{ name: 'Open (Unhandled)', value: 'Open' },
						{ name: 'Closed (Handled)', value: 'Close' },
					],
					description: 'Only events with this status',
				},
			],
		},
		rangeOptions(7),
	],
	async execute(client, itemIndex) {
		const assetId = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const startTime = getDateParameter.call(this, 'startTime', 'Start Time', itemIndex);
		const endTime = getDateParameter.call(this, 'endTime', 'End Time', itemIndex);
		const filters = this.getNodeParameter('filters', itemIndex, {}) as {
			eventTypes?: string[];
			status?: string;
		};
		const query = { assetId, startTime, endTime };
		let events: Event[] = !splitsLongRanges.call(this, itemIndex)
			? await client.assetData.listEvents(query)
			: await client.ranges.events({
					...query,
					level: await levelForHistoryCheck.call(this, client, assetId, startTime, 'events'),
				});
		if (filters.eventTypes?.length)
			events = events.filter((e) => filters.eventTypes?.includes(e.eventType));
		if (filters.status) events = events.filter((e) => e.eventStatus === filters.status);
		if (!this.getNodeParameter('returnAll', itemIndex)) {
			events = events.slice(0, this.getNodeParameter('limit', itemIndex) as number);
		}
		return toItems(events);
	},
};
