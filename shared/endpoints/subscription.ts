import { BindSubscriptionInput } from '../schemas/inputs';
import { Empty } from '../schemas/resources';
import type { EndpointContext, RequestOptions } from './context';

export function subscriptionEndpoints(ctx: EndpointContext) {
  return {
    /** E7: bind a subscription code to an asset (a NETA21 asset takes Premium codes only). Never retried blindly. */
    async bind(input: BindSubscriptionInput, options?: RequestOptions): Promise<Empty> {
      const v = ctx.validate('E7', BindSubscriptionInput, input);
      return ctx.call('E7', Empty, { body: { assetId: v.assetId, subscriptionCode: v.subscriptionCode } }, options);
    },
  };
}
