import type { INodeExecutionData } from 'n8n-workflow';
import type { DataSubscriptionUser } from '../../../../shared/schemas';

/** E26 and E30 are the only answers with the password in clear: say so next to it. */
export function withPasswordNotice(user: DataSubscriptionUser): INodeExecutionData[] {
	return [
		{
			json: {
				...user,
				passwordNotice:
					'This is the only time the platform shows this password: store it now (e.g. in a Drive Monitoring Push credential). Use Reset Password to get a new one.',
			},
		},
	];
}
