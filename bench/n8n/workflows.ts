// The workflows compared in real n8n: each figure's "ours" built with the Drive Monitoring nodes
// and "theirs" built as a user would with n8n's stock nodes (HTTP Request with a Header Auth
// generic credential, Code, MQTT Trigger, AMQP Trigger). Webhook-started workflows answer once
// their last node ran, so the bench can run them back to back; the timing comes from run data.
import { randomUUID } from 'node:crypto';

import { CREDENTIALS, TYPES } from './packages';

export interface BenchNode {
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	id: string;
}

export interface BenchWorkflow {
	id: string;
	name: string;
	nodes: BenchNode[];
	connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: 'main'; index: number }>> }
	>;
	settings: Record<string, unknown>;
	active: false;
}

export const CREDENTIAL_IDS = {
	api: { id: 'benchDmApi00001', name: 'Drive Monitoring (simulator)' },
	push: { id: 'benchDmPush0001', name: 'Drive Monitoring push (simulator)' },
	header: { id: 'benchHeader0001', name: 'Bearer token (simulator)' },
	mqtt: { id: 'benchMqtt000001', name: 'MQTT (simulator)' },
	amqp: { id: 'benchAmqp000001', name: 'AMQP (simulator)' },
};

/** A chain of nodes, each feeding the next. */
function chain(
	id: string,
	name: string,
	nodes: Array<Omit<BenchNode, 'position' | 'id'>>,
): BenchWorkflow {
	const placed = nodes.map((node, index) => ({
		...node,
		id: randomUUID(),
		position: [index * 240, 0] as [number, number],
	}));
	const connections: BenchWorkflow['connections'] = {};
	for (let i = 0; i + 1 < placed.length; i++)
		connections[placed[i].name] = {
			main: [[{ node: placed[i + 1].name, type: 'main', index: 0 }]],
		};
	return {
		id,
		name,
		nodes: placed,
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

function webhook(path: string): Omit<BenchNode, 'position' | 'id'> {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: 'noData',
			options: {},
		},
	};
}

function code(name: string, jsCode: string): Omit<BenchNode, 'position' | 'id'> {
	return { name, type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode } };
}

/** The HTTP Request node as a user sets it up for this API: Generic Credential > Header Auth. */
function httpGet(
	name: string,
	url: string,
	query?: Record<string, string>,
): Omit<BenchNode, 'position' | 'id'> {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			...(query
				? {
						sendQuery: true,
						queryParameters: {
							parameters: Object.entries(query).map(([key, value]) => ({ name: key, value })),
						},
					}
				: {}),
			options: {},
		},
		credentials: { httpHeaderAuth: CREDENTIAL_IDS.header },
	};
}

const MAKE_ASSET_ITEMS = 'return $json.body.assetIds.map((assetId) => ({ json: { assetId } }));';

export const ASSET_GET_NODE = { ours: 'Get Asset', theirs: 'HTTP Request' };

/** Figure 1: Webhook > one item per asset id > Asset > Get (ours) or GET E8 (theirs). */
export function assetGetWorkflows(apiBase: string): { ours: BenchWorkflow; theirs: BenchWorkflow } {
	return {
		ours: chain('benchGetOurs', 'Bench: Asset > Get (Drive Monitoring)', [
			webhook('bench-get-ours'),
			code('Make Items', MAKE_ASSET_ITEMS),
			{
				name: ASSET_GET_NODE.ours,
				type: TYPES.action,
				typeVersion: 1,
				parameters: {
					resource: 'asset',
					operation: 'get',
					asset: { __rl: true, mode: 'id', value: '={{ $json.assetId }}' },
				},
				credentials: { [CREDENTIALS.api]: CREDENTIAL_IDS.api },
			},
		]),
		theirs: chain('benchGetTheirs', 'Bench: Asset > Get (HTTP Request)', [
			webhook('bench-get-theirs'),
			code('Make Items', MAKE_ASSET_ITEMS),
			httpGet(ASSET_GET_NODE.theirs, `={{ '${apiBase}/assetmanagement/asset/' + $json.assetId }}`),
		]),
	};
}

export const EVENTS_NODES = {
	ours: 'Get Events',
	theirs: { windows: 'Make Windows', http: 'HTTP Request', merge: 'Merge Events' },
};

/**
 * Figure 2: a year of events of one asset. Ours: one Event > Get Many node that splits and merges.
 * Theirs: a Code node making the 7-day windows, the HTTP Request node (default batching) calling
 * E14 once per window, and a Code node merging the answers (each event once, in time order).
 */
export function eventsWorkflows(apiBase: string): { ours: BenchWorkflow; theirs: BenchWorkflow } {
	return {
		ours: chain('benchEventsOurs', 'Bench: a year of events (Drive Monitoring)', [
			webhook('bench-events-ours'),
			{
				name: EVENTS_NODES.ours,
				type: TYPES.action,
				typeVersion: 1,
				parameters: {
					resource: 'event',
					operation: 'getMany',
					asset: { __rl: true, mode: 'id', value: '={{ $json.body.assetId }}' },
					startTime: '={{ $json.body.start }}',
					endTime: '={{ $json.body.end }}',
					returnAll: true,
				},
				credentials: { [CREDENTIALS.api]: CREDENTIAL_IDS.api },
			},
		]),
		theirs: chain('benchEventsTheirs', 'Bench: a year of events (HTTP Request)', [
			webhook('bench-events-theirs'),
			code(
				EVENTS_NODES.theirs.windows,
				[
					'const { assetId, start, end } = $json.body;',
					'const week = 7 * 24 * 3600 * 1000;',
					'const windows = [];',
					'for (let from = Date.parse(start); from < Date.parse(end); from += week) {',
					'  const to = Math.min(from + week, Date.parse(end));',
					"  windows.push({ json: { assetId, startTime: new Date(from).toISOString().replace('.000Z', 'Z'), endTime: new Date(to).toISOString().replace('.000Z', 'Z') } });",
					'}',
					'return windows;',
				].join('\n'),
			),
			httpGet(
				EVENTS_NODES.theirs.http,
				`={{ '${apiBase}/assetdata/' + $json.assetId + '/event' }}`,
				{
					startTime: '={{ $json.startTime }}',
					endTime: '={{ $json.endTime }}',
				},
			),
			code(
				EVENTS_NODES.theirs.merge,
				[
					'const byId = new Map();',
					'for (const item of $input.all()) for (const event of item.json.payload ?? []) byId.set(event.Id ?? event.id, event);',
					'return [...byId.values()]',
					'  .sort((a, b) => Date.parse(a.EventDateTime ?? a.eventDateTime) - Date.parse(b.EventDateTime ?? b.eventDateTime))',
					'  .map((json) => ({ json }));',
				].join('\n'),
			),
		]),
	};
}

export const PUSH_DOWNSTREAM = 'Event ID';

/** The same node after every trigger: the event's id, whichever shape the trigger hands on. */
function eventIdNode(): Omit<BenchNode, 'position' | 'id'> {
	return {
		name: PUSH_DOWNSTREAM,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: [
					{
						id: randomUUID(),
						name: 'eventId',
						type: 'string',
						value: '={{ String(($json.data ?? $json[0]?.data)?.id ?? $json.id) }}',
					},
				],
			},
			options: {},
		},
	};
}

export type PushVariant =
	| 'ours-amqp-batch'
	| 'ours-amqp'
	| 'n8n-amqp'
	| 'ours-mqtt-batch'
	| 'ours-mqtt'
	| 'n8n-mqtt';

/** The variants in the order the bench runs them: per protocol, ours batched, ours one by one, n8n's. */
export const PUSH_VARIANTS: PushVariant[] = [
	'ours-amqp-batch',
	'ours-amqp',
	'n8n-amqp',
	'ours-mqtt-batch',
	'ours-mqtt',
	'n8n-mqtt',
];

/**
 * Figure 3: a trigger on the data-subscription user's queue, then the same Set node. Ours
 * acknowledges once the execution finished, one event per execution or `batchSize` (Events per
 * Execution); n8n's triggers acknowledge on receipt (their default, "Parallel Processing" on).
 */
export function pushWorkflows(
	topic: string,
	parallelMessages: number,
	batchSize: number,
): Record<PushVariant, BenchWorkflow> {
	const ours = (protocol: 'amqp' | 'mqtt', eventsPerExecution: number) =>
		chain(
			`benchPushOurs${protocol === 'amqp' ? 'Amqp' : 'Mqtt'}${eventsPerExecution > 1 ? `B${eventsPerExecution}` : ''}`,
			`Bench: push over ${protocol.toUpperCase()} (Drive Monitoring Trigger, ${eventsPerExecution} per execution)`,
			[
				{
					name: 'Drive Monitoring Trigger',
					type: TYPES.trigger,
					typeVersion: 1,
					parameters: {
						dataTypes: ['AssetEvent'],
						options: {
							acknowledge: 'executionFinishes',
							parallelMessages,
							...(eventsPerExecution > 1 ? { eventsPerExecution } : {}),
						},
					},
					credentials: {
						[CREDENTIALS.push]:
							protocol === 'amqp'
								? CREDENTIAL_IDS.push
								: { id: `${CREDENTIAL_IDS.push.id}m`, name: `${CREDENTIAL_IDS.push.name} MQTT` },
					},
				},
				eventIdNode(),
			],
		);
	return {
		'ours-amqp-batch': ours('amqp', batchSize),
		'ours-amqp': ours('amqp', 1),
		'ours-mqtt-batch': ours('mqtt', batchSize),
		'ours-mqtt': ours('mqtt', 1),
		'n8n-amqp': chain('benchPushN8nAmqp', 'Bench: push over AMQP (AMQP Trigger)', [
			{
				name: 'AMQP Trigger',
				type: 'n8n-nodes-base.amqpTrigger',
				typeVersion: 1,
				parameters: {
					sink: topic,
					options: { jsonConvertByteArrayToString: true, jsonParseBody: true, onlyBody: true },
				},
				credentials: { amqp: CREDENTIAL_IDS.amqp },
			},
			eventIdNode(),
		]),
		'n8n-mqtt': chain('benchPushN8nMqtt', 'Bench: push over MQTT (MQTT Trigger)', [
			{
				name: 'MQTT Trigger',
				type: 'n8n-nodes-base.mqttTrigger',
				typeVersion: 1,
				parameters: {
					topics: `dm/${topic}/#:1`,
					options: { jsonParseBody: true, onlyMessage: true },
				},
				credentials: { mqtt: CREDENTIAL_IDS.mqtt },
			},
			eventIdNode(),
		]),
	};
}
