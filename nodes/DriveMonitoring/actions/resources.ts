// The node's resources in the order the Resource list shows them, and the description built from
// them: the Resource field, one Operation field per resource, then each operation's own fields
// shown only for that resource and operation.
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { asset } from './asset/Asset.resource';
import { assetGroup } from './assetGroup/AssetGroup.resource';
import { cbm } from './cbm/Cbm.resource';
import { dataSubscription } from './dataSubscription/DataSubscription.resource';
import { event } from './event/Event.resource';
import { health } from './health/Health.resource';
import { organization } from './organization/Organization.resource';
import { parameterBackup } from './parameterBackup/ParameterBackup.resource';
import { report } from './report/Report.resource';
import { trendSignal } from './trendSignal/TrendSignal.resource';
import { parallelRequestsOption } from './common';
import { toolAnswerOptions } from './compact';
import type { Operation, Resource } from './types';

export const resources: Resource[] = [
	asset,
	assetGroup,
	cbm,
	dataSubscription,
	event,
	health,
	organization,
	parameterBackup,
	report,
	trendSignal,
];

export function findOperation(resource: string, operation: string): Operation | undefined {
	return resources
		.find((r) => r.value === resource)
		?.operations.find((o) => o.option.value === operation);
}

export function nodeProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			default: 'asset',
			options: resources.map(({ name, value, description }) => ({ name, value, description })),
		},
		...resources.flatMap((resource) => {
			const defaultOperation = resource.operations[0].option.value;
			return [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					noDataExpression: true,
					displayOptions: { show: { resource: [resource.value] } },
					default: defaultOperation,
					options: resource.operations.map((operation) => operation.option),
				} satisfies INodeProperties,
				...resource.operations.flatMap((operation) =>
					updateDisplayOptions(
						{ show: { resource: [resource.value], operation: [operation.option.value as string] } },
						propertiesOf(operation),
					),
				),
			];
		}),
	];
}

/**
 * An operation's fields; a read operation also gets Parallel Requests in its Options collection
 * (added to the one it has, or a new one), so every read operation offers the same setting.
 */
function propertiesOf(operation: Operation): INodeProperties[] {
	if (!operation.readOnly) return operation.properties;
	const existing = operation.properties.find(
		(p) => p.name === 'options' && p.type === 'collection',
	);
	if (!existing) {
		return [
			...operation.properties,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [parallelRequestsOption, ...toolAnswerOptions].sort(byDisplayName),
			},
		];
	}
	return operation.properties.map((p) =>
		p === existing
			? {
					...p,
					options: [...(p.options ?? []), parallelRequestsOption, ...toolAnswerOptions].sort(
						byDisplayName,
					),
				}
			: p,
	);
}

const byDisplayName = (
	a: { displayName?: string; name: string },
	b: { displayName?: string; name: string },
) => (a.displayName ?? a.name).localeCompare(b.displayName ?? b.name);
