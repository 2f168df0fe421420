import type { ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

/**
 * The data-subscription user (E26; password from E26 or E30) and the broker it receives pushed
 * data from. The URL scheme picks the protocol: amqp/amqps (AMQP 1.0, SASL PLAIN) or mqtt/mqtts.
 */
export class DriveMonitoringPushApi implements ICredentialType {
	name = 'driveMonitoringPushApi';

	displayName = 'Drive Monitoring Push API';

	icon: Icon = {
		light: 'file:../nodes/DriveMonitoringPushTrigger/driveMonitoringPushTrigger.svg',
		dark: 'file:../nodes/DriveMonitoringPushTrigger/driveMonitoringPushTrigger.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-drive-monitoring/n8n-nodes-drive-monitoring#pushed-data';

	properties: INodeProperties[] = [
		{
			displayName: 'Broker URL',
			name: 'brokerUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'amqps://push.example.com:5671',
			description:
				'Address of the push broker. The scheme picks the protocol: amqp:// or amqps:// (AMQP 1.0), mqtt:// or mqtts:// (MQTT 3.1.1).',
		},
		{
			displayName: 'User Name',
			name: 'userName',
			type: 'string',
			default: '',
			required: true,
			description: 'UserName of the data-subscription user (Create Data-Subscription User)',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Shown once by Create Data-Subscription User and Reset Password; a reset makes the old one fail at once',
		},
		{
			displayName: 'Topic',
			name: 'topic',
			type: 'string',
			default: '',
			required: true,
			description: 'Topic of the data-subscription user (Subscribe Data Types)',
		},
		{
			displayName: 'Address Template',
			name: 'addressTemplate',
			type: 'string',
			default: '',
			placeholder: '/amq/queue/{topic}',
			description:
				'Where to receive from; {topic} and {userName} are replaced. Empty: chosen from the broker (AMQP: "/amq/queue/{topic}" on RabbitMQ 3, "/queues/{topic}" on RabbitMQ 4, "{topic}" elsewhere; MQTT: "dm/{topic}/#").',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect even if the broker certificate cannot be validated (amqps, mqtts)',
		},
	];
}
