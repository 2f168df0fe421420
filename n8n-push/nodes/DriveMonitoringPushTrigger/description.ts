import type { INodeProperties } from 'n8n-workflow';
import {
	filtersProperty,
	includeRawOption,
} from '../../../nodes/DriveMonitoringTrigger/description';

/** Messages handled at once unless the node says otherwise (assumption Q2). */
export const DEFAULT_PARALLEL_MESSAGES = 10;

/** How long an execution may take to report back before its message is released (docs/assumptions.md, Execution Timeout and batches). */
export const DEFAULT_EXECUTION_TIMEOUT_MINUTES = 10;

/** Events per Execution at most, and how long a batch waits to fill by default (docs/assumptions.md, Execution Timeout and batches). */
export const MAX_EVENTS_PER_EXECUTION = 1000;
export const DEFAULT_BATCH_WINDOW_SECONDS = 1;

export const pushTriggerProperties: INodeProperties[] = [
	{
		displayName: 'Data Types',
		name: 'dataTypes',
		type: 'multiOptions',
		options: [
			{
				name: 'Asset CBM',
				value: 'AssetCBM',
				description: 'Predictive-maintenance results, daily',
			},
			{
				name: 'Asset Event',
				value: 'AssetEvent',
				description: 'Faults, warnings and notifications, in real time',
			},
			{
				name: 'Asset Report',
				value: 'AssetReport',
				description: 'A user report, when it is generated',
			},
			{
				name: 'Asset State',
				value: 'AssetState',
				description: 'Online or offline state of each asset, hourly',
			},
		],
		default: ['AssetEvent'],
		description: 'Types to emit. The user must also be subscribed to them (Subscribe Data Types).',
	},
	filtersProperty,
	{
		displayName:
			"Each workflow connects as a client of its own. Over MQTT every active workflow on this credential gets every event. Over AMQP they share the user's queue: each event goes to one of them, so give each workflow its own data-subscription user.",
		name: 'sharingNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Acknowledge',
				name: 'acknowledge',
				type: 'options',
				options: [
					{
						name: 'Execution Finishes',
						value: 'executionFinishes',
						description: 'After the workflow execution finished, successful or not',
					},
					{
						name: 'Execution Finishes Successfully',
						value: 'executionFinishesSuccessfully',
						description:
							'After a successful execution; a failed one leaves the message to be delivered again',
					},
					{
						name: 'Immediately',
						value: 'immediately',
						description: 'As soon as the message is received',
					},
				],
				default: 'executionFinishes',
				description:
					'When the message is acknowledged to the broker; until then the broker keeps it',
			},
			{
				displayName: 'Batch Window (Seconds)',
				name: 'batchWindow',
				type: 'number',
				typeOptions: { minValue: 0.01, numberPrecision: 2 },
				default: DEFAULT_BATCH_WINDOW_SECONDS,
				description:
					'With Events per Execution above 1: how long to wait for a batch to fill before its execution starts with what came',
			},
			{
				displayName: 'Events per Execution',
				name: 'eventsPerExecution',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_EVENTS_PER_EXECUTION },
				default: 1,
				description:
					'Up to how many events one execution gets, as items in the order they came (max 1,000). The batch is acknowledged when its execution ends; a batch that is not acknowledged is released, its events delivered again. A batch is at most what the broker lets be unacknowledged at once (RabbitMQ MQTT: mqtt.prefetch, default 10).',
			},
			{
				displayName: 'Execution Timeout (Minutes)',
				name: 'executionTimeout',
				type: 'number',
				typeOptions: { minValue: 0.01, numberPrecision: 2 },
				default: DEFAULT_EXECUTION_TIMEOUT_MINUTES,
				description:
					'How long to wait for an execution to finish before its message is released to the broker (delivered again) and a warning names the execution. Keeps the trigger from stalling when an execution never reports back, e.g. a queue-mode worker killed mid-run. Set it above your longest execution.',
			},
			includeRawOption,
			{
				displayName: 'Parallel Messages',
				name: 'parallelMessages',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_PARALLEL_MESSAGES,
				description:
					'How many messages are handled at once, AMQP and MQTT alike (default 10): enough to keep n8n busy while executions wait, few enough that a burst does not pile up executions. Each is acknowledged when its execution ends; over MQTT the acknowledgements leave in the order the messages came.',
			},
		],
	},
];
