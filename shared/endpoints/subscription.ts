import { BindSubscriptionInput } from '../schemas/inputs';
import { Empty } from '../schemas/resources';
import type { EndpointContext } from './context';

export function subscriptionEndpoints(ctx: EndpointContext) {
	return {
		/** E7: bind a subscription code to an asset (a NETA21 asset takes Premium codes only). Never retried blindly. */
		bind: ctx.endpoint('E7', BindSubscriptionInput, Empty, (v) => ({
			body: { assetId: v.assetId, subscriptionCode: v.subscriptionCode },
		})),
	};
}
