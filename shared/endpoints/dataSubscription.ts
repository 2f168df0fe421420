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
  return {
    /** E26: create the organization's one data-subscription user (password in clear). Never retried blindly. */
    async createUser(options?: RequestOptions): Promise<DataSubscriptionUser> {
      return rememberPassword(await ctx.call('E26', DataSubscriptionUser, {}, options));
    },
    /** E27: the data-subscription user(s), password masked. */
    async getUsers(options?: RequestOptions): Promise<DataSubscriptionUser[]> {
      return ctx.call('E27', z.array(DataSubscriptionUser), {}, options);
    },
    /** E28: set the topic and the pushed data types (replaces the previous set). */
    async setDataTypes(input: SetDataTypesInput, options?: RequestOptions): Promise<DataSubscriptionUser> {
      const v = ctx.validate('E28', SetDataTypesInput, input);
      // E28's body in the spec's PascalCase names (assumption A1).
      return ctx.call('E28', DataSubscriptionUser, { params: { subcustomerid: v.subCustomerId }, body: { TopicName: v.topicName, SubDataTypes: v.subDataTypes } }, options);
    },
    /** E29: delete the user and its queue. */
    async deleteUser(input: SubCustomerInput, options?: RequestOptions): Promise<Empty> {
      const v = ctx.validate('E29', SubCustomerInput, input);
      return ctx.call('E29', Empty, { params: { subcustomerid: v.subCustomerId } }, options);
    },
    /** E30: a new password (in clear). Never retried blindly. */
    async resetPassword(input: SubCustomerInput, options?: RequestOptions): Promise<DataSubscriptionUser> {
      const v = ctx.validate('E30', SubCustomerInput, input);
      return rememberPassword(await ctx.call('E30', DataSubscriptionUser, { params: { subcustomerid: v.subCustomerId } }, options));
    },
  };
}
