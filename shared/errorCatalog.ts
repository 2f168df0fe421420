// What each platform code means to the person who reads it: which kind of failure it is (the
// grouping Stripe's and Octokit's SDKs use), a summary in plain words, and a hint saying what
// to do next. Human text here never names endpoint numbers: callers keep `endpoint` as a field.
import type { EndpointId } from './spec';
import { UNAUTHORIZED_CODE } from './spec';

/** The kinds of failure, each one error class (shared/errors). */
export type ErrorKind =
	| 'notFound'
	| 'forbidden'
	| 'subscription'
	| 'conflict'
	| 'invalidInput'
	| 'rateLimited'
	| 'authentication'
	| 'unavailable'
	| 'unexpectedAnswer';

export interface CodeInfo {
	kind: ErrorKind;
	/** What went wrong, as a sentence without a final period. */
	summary: string;
	/** What to do next (one or two sentences). */
	hint: string;
}

/** Per-endpoint wording where a code means something more precise for one call. */
type Override = Partial<Record<EndpointId, Partial<CodeInfo>>>;

const SAME_ORG =
	'Use the credentials of the organization that owns it, or pick one of this organization';

/** Every failure code: the spec's 23 plus 100401, our code for an HTTP 401 (assumption A4). */
export const CODE_INFO: Record<number, CodeInfo & { byEndpoint?: Override }> = {
	100400: {
		kind: 'invalidInput',
		summary: 'The platform refused a value of the request',
		hint: "Check each value against its limit and format (names up to 20 or 30 characters, ids as numbers, dates in range); the platform's own words are in the details.",
	},
	100403: {
		kind: 'forbidden',
		summary: 'This organization is not allowed to do this',
		hint: 'Check that the credentials belong to the organization the operation is for, and that its API access covers the operation.',
		byEndpoint: {
			E26: {
				kind: 'conflict',
				summary: 'This organization already has its data-subscription user',
				hint: 'An organization has one data-subscription user: read it (Get User), or delete it before creating a new one.',
			},
		},
	},
	101201: {
		kind: 'notFound',
		summary: 'The organization does not exist',
		hint: 'Check the organization ID: read the organization tree to see the organizations these credentials can reach.',
	},
	101202: {
		kind: 'notFound',
		summary: 'The served customer organization does not exist for this service provider',
		hint: 'Check the organization ID: only end-user organizations that authorized this service provider can be read; the organization tree lists them.',
	},
	101401: {
		kind: 'forbidden',
		summary: 'These credentials may not act on that organization',
		hint: 'Use the credentials of that organization, or of a service provider it authorized.',
	},
	102201: {
		kind: 'notFound',
		summary: 'The asset does not exist',
		hint: 'Check the asset ID, or pick the asset from the list of assets: it may have been deleted.',
	},
	102202: {
		kind: 'invalidInput',
		summary: 'This asset type is not supported here',
		hint: 'Asset functions work on drives and motors, not on PowerTrains: use the drive or the motor of the PowerTrain instead.',
	},
	102203: {
		kind: 'conflict',
		summary: 'An asset with this serial number already exists',
		hint: 'Find the existing asset in the asset list (by its serial number) instead of creating it again.',
	},
	102204: {
		kind: 'notFound',
		summary: 'The device registry does not know this serial number',
		hint: 'Check the Serial Number as printed on the drive, and the gateway details; a drive must be registered by the manufacturer before it can be added.',
	},
	102205: {
		kind: 'subscription',
		summary: "The asset's subscription has expired",
		hint: 'Bind a new subscription code to the asset (Bind Subscription Code), then try again.',
	},
	102401: {
		kind: 'forbidden',
		summary: 'This asset belongs to another organization',
		hint: `${SAME_ORG}.`,
	},
	102403: {
		kind: 'subscription',
		summary: "The asset's subscription level does not allow this",
		hint: 'Bind a subscription code of a higher level to the asset.',
	},
	103201: {
		kind: 'notFound',
		summary: 'The asset group does not exist',
		hint: 'Check the asset group ID: the organization tree lists the groups.',
	},
	103401: {
		kind: 'forbidden',
		summary: 'This asset group belongs to another organization',
		hint: `${SAME_ORG}: the organization tree lists its groups.`,
	},
	104201: {
		kind: 'notFound',
		summary: 'The plant does not exist',
		hint: 'Check the plant ID: the organization tree lists the plants.',
	},
	104401: {
		kind: 'forbidden',
		summary: 'This plant belongs to another organization',
		hint: `${SAME_ORG}: the organization tree lists its plants.`,
	},
	105201: {
		kind: 'notFound',
		summary: 'This subscription code does not exist',
		hint: 'Check the subscription code for typos, exactly as it was delivered.',
	},
	105202: {
		kind: 'subscription',
		summary: 'This subscription code has expired',
		hint: 'An expired code cannot be bound: ask your supplier for a new code.',
	},
	105203: {
		kind: 'subscription',
		summary: 'This subscription code is for another asset type',
		hint: "Bind it to an asset of the type it was issued for (drive or motor), or ask for a code for this asset's type.",
	},
	105204: {
		kind: 'conflict',
		summary: 'This subscription code was already bound',
		hint: 'Each code binds once: ask for a new code.',
	},
	105205: {
		kind: 'subscription',
		summary: "This subscription code's level does not fit this asset",
		hint: 'An asset on a NETA21 gateway takes Premium codes only: bind a Premium code.',
	},
	106201: {
		kind: 'notFound',
		summary: 'The data-subscription user does not exist',
		hint: 'It may have been deleted: read the current user (Get User) for its ID, or create one.',
	},
	107201: {
		kind: 'notFound',
		summary: 'The report does not exist',
		hint: "The platform keeps reports for 7 days: list the asset's reports for current IDs, or create the report again.",
	},
	[UNAUTHORIZED_CODE]: {
		kind: 'authentication',
		summary: 'The platform refused the access token',
		hint: 'It was refused even after a new token: check that API access is enabled for the organization (the platform operator switches it on) and that the credentials belong to it.',
	},
};

/** The summary and hint of a code as answered by an endpoint (undefined for a code outside the table). */
export function codeInfo(code: number, endpoint?: EndpointId): CodeInfo | undefined {
	const entry = CODE_INFO[code];
	if (!entry) return undefined;
	const override = endpoint ? entry.byEndpoint?.[endpoint] : undefined;
	return { kind: entry.kind, summary: entry.summary, hint: entry.hint, ...override };
}

/**
 * How to check whether a create whose answer was lost went through, before repeating it
 * (E5, E7, E10, E21, E26, E30 are not repeated automatically).
 */
export const CHECK_BEFORE_REPEATING: Partial<Record<EndpointId, string>> = {
	E5: 'read the organization tree and look for the asset group before creating it again',
	E7: "list the asset's subscriptions and look for the code before binding it again",
	E10: 'list the assets of the organization and look for the serial number before creating the drive again',
	E21: "list the asset's reports and look for one created just now before creating it again",
	E26: 'read the data-subscription user (Get User) before creating it again',
	E30: 'the password may have changed: reset it again to get a password you can read',
};
