// The fleet a credential sees: its organizations, end-user organizations, asset groups, plants and
// assets, and what a PowerTrain holds. One reading and one set of rules for the node, the trigger
// and the bot.
export { FleetDirectory, fleetOf, type FleetDirectoryOptions, type FleetSource } from './directory';
export {
	displayName,
	isEndUser,
	readTree,
	type FleetOrganization,
	type FleetPlace,
	type OrganizationTree,
} from './organizations';
export {
	drivesAndMotors,
	isPowerTrain,
	membersOf,
	powerTrainsByMember,
	withMembers,
	type ListedAsset,
} from './powertrain';
