import { z } from 'zod/v4';
import { registerSecret } from '../redact';
import { SetDataTypesInput, SubCustomerInput } from '../schemas/inputs';
import { DataSubscriptionUser, Empty } from '../schemas/resources';
import type { EndpointContext, RequestOptions } from './context';

/** The clear password of E26/E30 is returned to the caller but masked in every error and log line. */
function rememberPassword(user: DataSubscriptionUser): DataSubscriptionUser {
	registerSecret(user.password);
	return user;
}

export function dataSubscriptionEndpoints(ctx: EndpointContext) {
	const create = ctx.endpointWithoutInput('E26', DataSubscriptionUser);
	const reset = ctx.endpoint('E30', SubCustomerInput, DataSubscriptionUser, (v) => ({
		params: { subcustomerid: v.subCustomerId },
	}));
	return {
		/** E26: create the organization's one data-subscription user (password in clear). Never retried blindly. */
		async createUser(options?: RequestOptions): Promise<DataSubscriptionUser> {
			return rememberPassword(await create(options));
		},
		/** E27: the data-subscription user(s), password masked. */
		getUsers: ctx.endpointWithoutInput('E27', z.array(DataSubscriptionUser)),
		/** E28: set the topic and the pushed data types (replaces the previous set); the body in the spec's PascalCase (A1). */
		setDataTypes: ctx.endpoint('E28', SetDataTypesInput, DataSubscriptionUser, (v) => ({
			params: { subcustomerid: v.subCustomerId },
			body: { TopicName: v.topicName, SubDataTypes: v.subDataTypes },
		})),
		/** E29: delete the user and its queue. */
		deleteUser: ctx.endpoint('E29', SubCustomerInput, Empty, (v) => ({
			params: { subcustomerid: v.subCustomerId },
		})),
		/** E30: a new password (in clear). Never retried blindly. */
		async resetPassword(
			input: SubCustomerInput,
			options?: RequestOptions,
		): Promise<DataSubscriptionUser> {
			return rememberPassword(await reset(input, options));
		},
	};
}
