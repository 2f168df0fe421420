import type { Resource } from '../types';
import { createUser } from './createUser.operation';
import { deleteUser } from './deleteUser.operation';
import { getUser } from './getUser.operation';
import { resetPassword } from './resetPassword.operation';
import { setDataTypes } from './setDataTypes.operation';

export const dataSubscription: Resource = {
	value: 'dataSubscription',
	name: 'Data Subscription',
	description: 'The data-subscription user through which asset data is pushed',
	operations: [createUser, deleteUser, getUser, resetPassword, setDataTypes],
};
