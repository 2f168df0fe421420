import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import type { DriveMonitoringClient } from '../transport';

/** One operation of one resource: its entry in the Operation list, its fields, and what it does for one item. */
export interface Operation {
	option: INodePropertyOptions & { action: string; description: string };
	properties: INodeProperties[];
	/**
	 * True for operations that only read: their items run several at a time (results keep item
	 * order). Operations that change something run one item after the other, in item order.
	 */
	readOnly?: boolean;
	/**
	 * Labels of the node's fields for core input fields whose node field is named differently
	 * (Rename: the core's `name` is "New Name"), so that errors name what the user sees.
	 */
	fieldLabels?: Record<string, string>;
	/** Runs for one input item; the router adds pairedItem and handles errors. */
	execute(
		this: IExecuteFunctions,
		client: DriveMonitoringClient,
		itemIndex: number,
	): Promise<INodeExecutionData[]>;
}

export interface Resource {
	value: string;
	name: string;
	description: string;
	operations: Operation[];
}
