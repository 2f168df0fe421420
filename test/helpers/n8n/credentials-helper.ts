// Our stand-in for n8n's CredentialsHelper (packages/cli/src/credentials-helper.ts), with the
// behaviour that matters to a credential type kept as n8n has it: defaults applied on decrypt,
// preAuthentication called when the expirable hidden field is empty or the token expired
// (its result persisted into the stored credential), generic `authenticate` expressions
// resolved against $credentials, function `authenticate` called as is.
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly store = new Map<string, StoredCredential>();

	/** How often each credential's preAuthentication ran (token fetches), by credential id. */
	readonly preAuthenticationCalls = new Map<string, number>();

	constructor(private readonly types: Map<string, ICredentialType>) {
		super();
	}

	add(credential: StoredCredential): void {
		this.store.set(credential.id, { ...credential, data: { ...credential.data } });
	}

	stored(id: string): StoredCredential | undefined {
		return this.store.get(id);
	}

	private type(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new Error(`Unknown credential type "${name}"`);
		return type;
	}

	getParentTypes(name: string): string[] {
		return this.type(name).extends ?? [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.type(type).properties;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		const stored = this.find(nodeCredentials, type);
		return {
			id: stored.id,
			name: stored.name,
			type: stored.type,
			getData: () => ({ ...stored.data }),
			getDataToSave: () => ({ id: stored.id, name: stored.name, type: stored.type, data: '' }),
			setData: (data: ICredentialDataDecryptedObject) => {
				stored.data = { ...data };
			},
		} as unknown as ICredentials;
	}

	async getDecrypted(
		_additionalData: unknown,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.find(nodeCredentials, type);
		const data: ICredentialDataDecryptedObject = {};
		for (const property of this.type(type).properties) {
			data[property.name] =
				stored.data[property.name] ?? (property.default as ICredentialDataDecryptedObject[string]);
		}
		return { ...data, ...stored.data };
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		this.find(nodeCredentials, type).data = { ...data };
	}

	async updateCredentialsOauthTokenData() {}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		// As n8n: the credential test (a noOp node with the "temp" parameter) always fetches afresh.
		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !isTestingCredentials)
			return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		const nodeCredentials = node.credentials?.[typeName];
		// A credential being tested before it is saved has nothing to persist into.
		if (nodeCredentials?.id && this.store.has(nodeCredentials.id)) {
			const stored = this.find(nodeCredentials, typeName);
			stored.data = { ...stored.data, ...(output as ICredentialDataDecryptedObject) };
			this.preAuthenticationCalls.set(
				stored.id,
				(this.preAuthenticationCalls.get(stored.id) ?? 0) + 1,
			);
		}
		return Object.assign(credentials, output) as ICredentialDataDecryptedObject;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	) {
		const type = this.type(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incoming: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incoming as IHttpRequestOptions;
		const { authenticate } = this.type(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate?.type !== 'generic') return requestOptions;
		if (!workflow || !node)
			throw new Error('generic authentication needs the workflow and the node');
		const resolve = (value: string) =>
			String(
				workflow.expression.getSimpleParameterValue(
					node,
					value,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				) ?? '',
			);
		for (const [target, entries] of Object.entries(authenticate.properties)) {
			const bag = ((requestOptions as unknown as Record<string, Record<string, string>>)[target] ??=
				{});
			for (const [key, value] of Object.entries(entries as Record<string, string>))
				bag[resolve(key)] = resolve(value);
		}
		return requestOptions;
	}

	private find(nodeCredentials: INodeCredentialsDetails, type: string): StoredCredential {
		const stored = nodeCredentials.id ? this.store.get(nodeCredentials.id) : undefined;
		if (!stored || stored.type !== type) {
			throw new Error(
				`No stored credential "${nodeCredentials.id ?? nodeCredentials.name}" of type ${type}`,
			);
		}
		return stored;
	}
}
