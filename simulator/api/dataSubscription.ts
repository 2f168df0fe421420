import { SUB_DATA_TYPES } from '../../shared/spec';
import { subscriberPayload, typeNames } from '../data/subscribers';
import { ApiError } from '../http/envelope';
import { describe, toInteger } from '../http/fields';
import { isoUtc } from '../time';
import type { ApiContext, Handler } from './context';

const KNOWN_TYPES = new Set<number>(Object.values(SUB_DATA_TYPES));

/** The caller's own user: 106201 when unknown, 100403 when it belongs to another organization. */
function requireSubscriber(ctx: ApiContext) {
	const id = ctx.params.subcustomerid;
	const user = ctx.platform.subscribers.get(id);
	if (!user) throw new ApiError(106201, `subcustomerid '${id}'`);
	if (user.orgId !== ctx.caller.id)
		throw new ApiError(100403, `data-subscription user '${id}' belongs to another organization`);
	return user;
}

const createUser: Handler = (ctx) => {
	const existing = ctx.platform.subscribers.ofOrg(ctx.caller.id);
	if (existing)
		throw new ApiError(
			100403,
			`organization ${ctx.caller.id} already has its one data-subscription user '${existing.userName}'; delete it (E29) first`,
		);
	return subscriberPayload(
		ctx.platform.subscribers.create(ctx.caller.id, ctx.platform.now()),
		true,
	);
};

const getUsers: Handler = (ctx) => {
	const user = ctx.platform.subscribers.ofOrg(ctx.caller.id);
	return user ? [subscriberPayload(user, false)] : [];
};

const setDataTypes: Handler = (ctx) => {
	const user = requireSubscriber(ctx);
	const topic = ctx.body.string('TopicName', {
		max: 100,
		pattern: /^[A-Za-z0-9._\-/]+$/,
		patternRule: 'may hold letters, digits and . _ - / only',
	});
	const raw = ctx.body.list('SubDataTypes');
	const numbers = raw.map((v) => {
		return (
			toInteger(v) ??
			ctx.body.fail('SubDataTypes', `must hold integers 1 to 4, found ${describe(v)}`, raw)
		);
	});
	// The spec: unknown type numbers are ignored and the call still succeeds.
	const types = [...new Set(numbers.filter((n) => KNOWN_TYPES.has(n)))].sort();
	ctx.platform.subscribers.setTypes(user, topic, types);
	return {
		id: user.id,
		userName: user.userName,
		subDataTypes: typeNames(types),
		topic: user.topic,
		createdOn: isoUtc(user.createdOn),
	};
};

const deleteUser: Handler = (ctx) => {
	ctx.platform.subscribers.delete(requireSubscriber(ctx));
	return {};
};

const resetPassword: Handler = (ctx) => {
	const user = requireSubscriber(ctx);
	ctx.platform.subscribers.resetPassword(user);
	return subscriberPayload(user, true);
};

export const dataSubscriptionHandlers = {
	E26: createUser,
	E27: getUsers,
	E28: setDataTypes,
	E29: deleteUser,
	E30: resetPassword,
} satisfies Record<string, Handler>;
