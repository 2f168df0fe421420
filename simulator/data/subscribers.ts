import { randomBytes, randomUUID } from 'node:crypto';
import { SUB_DATA_TYPES } from '../../shared/spec';
import type { SimulatorBus } from '../bus';
import type { PushHost, SubscriberRecord } from '../push/host';
import { isoUtc } from '../time';

export const MASKED_PASSWORD = '********';

interface StoredSubscriber extends SubscriberRecord {
	createdOn: number;
}

const TYPE_NAMES = Object.fromEntries(
	Object.entries(SUB_DATA_TYPES).map(([name, n]) => [n, name]),
) as Record<number, string>;

/** Data-subscription users (E26 to E30), one per organization; the push channel reads them. */
export class SubscriberStore implements PushHost {
	private readonly byId = new Map<string, StoredSubscriber>();

	constructor(
		readonly bus: SimulatorBus,
		private readonly clockNow: () => number,
		/** Whether organization `viewerOrgId` can see the data of organization `orgId` (the spec's listing rule). */
		private readonly canSee: (viewerOrgId: number, orgId: number) => boolean = (viewer, org) =>
			viewer === org,
	) {}

	/**
	 * Assumption P6: a user receives the records of every asset its organization can list (EU: its
	 * own; CP: those of the EUs that authorized it; VENDOR: all). A report result goes only to the
	 * organization that asked for it: it is that organization's request, not asset data.
	 */
	receives(user: SubscriberRecord, orgId: number, dataType: string): boolean {
		if (user.orgId === orgId) return true;
		return dataType !== 'AssetReport' && this.canSee(user.orgId, orgId);
	}

	/** Simulated time, for the time of pushed records. */
	now(): Date {
		return new Date(this.clockNow());
	}

	create(orgId: number, now: number): StoredSubscriber {
		const userName = `dm-${orgId}-${randomBytes(3).toString('hex')}`;
		const user: StoredSubscriber = {
			id: randomUUID(),
			orgId,
			userName,
			password: newPassword(),
			topic: userName,
			subDataTypes: [],
			createdOn: now,
		};
		this.byId.set(user.id, user);
		this.bus.emit('subscriber.changed', { orgId, userName, change: 'created' });
		return user;
	}

	ofOrg(orgId: number): StoredSubscriber | undefined {
		return [...this.byId.values()].find((u) => u.orgId === orgId);
	}

	get(id: string): StoredSubscriber | undefined {
		return this.byId.get(id.toLowerCase());
	}

	setTypes(user: StoredSubscriber, topic: string, types: number[]): void {
		user.topic = topic;
		user.subDataTypes = types;
		this.bus.emit('subscriber.changed', {
			orgId: user.orgId,
			userName: user.userName,
			change: 'types',
		});
	}

	resetPassword(user: StoredSubscriber): void {
		user.password = newPassword();
		this.bus.emit('subscriber.changed', {
			orgId: user.orgId,
			userName: user.userName,
			change: 'reset',
		});
	}

	delete(user: StoredSubscriber): void {
		this.byId.delete(user.id);
		this.bus.emit('subscriber.changed', {
			orgId: user.orgId,
			userName: user.userName,
			change: 'deleted',
		});
	}

	findSubscriber(userName: string): SubscriberRecord | undefined {
		const user = [...this.byId.values()].find((u) => u.userName === userName);
		return user && copy(user);
	}

	listSubscribers(): SubscriberRecord[] {
		return [...this.byId.values()].map(copy);
	}
}

function copy(user: StoredSubscriber): SubscriberRecord {
	return {
		id: user.id,
		orgId: user.orgId,
		userName: user.userName,
		password: user.password,
		topic: user.topic,
		subDataTypes: [...user.subDataTypes],
	};
}

function newPassword(): string {
	return randomBytes(15).toString('base64url');
}

/** The user as E26/E27/E30 answer it; the password is clear only where the spec says (A8). */
export function subscriberPayload(
	user: StoredSubscriber,
	clearPassword: boolean,
): Record<string, unknown> {
	return {
		id: user.id,
		userName: user.userName,
		password: clearPassword ? user.password : MASKED_PASSWORD,
		topic: user.topic,
		subDataTypes: user.subDataTypes.map((n) => TYPE_NAMES[n]),
		createdOn: isoUtc(user.createdOn),
	};
}

export function typeNames(types: number[]): string[] {
	return types.map((n) => TYPE_NAMES[n]);
}
