/* eslint-disable @n8n/community-nodes/require-node-api-error -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Slack tokens at rest: AES-256-GCM under a key from the environment, so that a copy of the
// bot's store (a SQLite file, a PostgreSQL dump) reveals no token without the key.
//
// An encrypted token reads `enc:v1:<key id>:<iv>:<ciphertext>:<tag>` (base64url parts): the format
// version, then the id of the key that encrypted it (a digest of the key, never the key), so that
// after a rotation the bot knows which of its two keys decrypts it. The header and an optional
// context (the installation's key) are authenticated with the token: a value altered, or moved
// to another installation's row, does not decrypt.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export const KEY_VARIABLE = 'DRIVE_BOT_ENCRYPTION_KEY';
export const PREVIOUS_KEY_VARIABLE = 'DRIVE_BOT_ENCRYPTION_KEY_PREVIOUS';

const PREFIX = 'enc';
const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAKE_A_KEY = 'Make one with `openssl rand -base64 32` and keep it in your secret store.';

/** A key in the environment that the bot cannot use: which variable, and what is wrong with it. */
export class EncryptionKeyError extends Error {
	constructor(
		readonly variable: string,
		message: string,
	) {
		super(message);
		this.name = 'EncryptionKeyError';
	}
}

export type DecryptFailure = 'format' | 'version' | 'unknown-key' | 'integrity';

/** A stored token that cannot be decrypted. Its message holds neither the token nor the stored value. */
export class TokenDecryptError extends Error {
	constructor(
		readonly reason: DecryptFailure,
		message: string,
		readonly keyId?: string,
	) {
		super(message);
		this.name = 'TokenDecryptError';
	}
}

/** A key's public name: the first 8 bytes of a domain-separated SHA-256 of it (it reveals nothing of a random key). */
export function keyId(key: Buffer): string {
	return createHash('sha256')
		.update('drive-monitoring-bot token key\0')
		.update(key)
		.digest()
		.subarray(0, 8)
		.toString('base64url');
}

function describeLength(text: string, bytes: number): string {
	if (/^[0-9a-f]{64}$/i.test(text))
		return 'it looks like 32 bytes written in hex; the bot takes base64';
	return `it decodes to ${bytes} bytes; it must be exactly ${KEY_BYTES} random bytes (44 characters of base64), not a password`;
}

/** A 32-byte key from an environment variable's value (base64, standard or URL-safe; spaces around ignored). */
export function parseKey(variable: string, value: string): Buffer {
	const text = value.trim();
	if (text === '') throw new EncryptionKeyError(variable, `${variable} is empty. ${MAKE_A_KEY}`);
	const standard = text.replace(/-/g, '+').replace(/_/g, '/');
	const bytes = Buffer.from(standard, 'base64');
	const canonical = bytes.toString('base64').replace(/=+$/, '');
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(standard) || canonical !== standard.replace(/=+$/, ''))
		throw new EncryptionKeyError(
			variable,
			`${variable} is not base64: ${KEY_BYTES} random bytes written in base64 are expected. ${MAKE_A_KEY}`,
		);
	if (bytes.length !== KEY_BYTES)
		throw new EncryptionKeyError(
			variable,
			`${variable} is not a ${KEY_BYTES}-byte key: ${describeLength(text, bytes.length)}. ${MAKE_A_KEY}`,
		);
	return bytes;
}

interface Key {
	id: string;
	key: Buffer;
	variable: string;
}

function header(id: string): string {
	return `${PREFIX}:${VERSION}:${id}`;
}

function associatedData(id: string, context: string): Buffer {
	return Buffer.from(`${header(id)}\0${context}`, 'utf8');
}

/**
 * Encrypts with the current key and decrypts with the current or the previous one. A rotation:
 * set the previous key to the old one and the current to a new one, re-encrypt what the store
 * holds (`reencrypt`), then remove the previous key.
 */
export class TokenCipher {
	private readonly current: Key;
	private readonly previous: Key | undefined;

	constructor(current: Buffer, previous?: Buffer) {
		this.current = { id: keyId(current), key: current, variable: KEY_VARIABLE };
		this.previous = previous
			? { id: keyId(previous), key: previous, variable: PREVIOUS_KEY_VARIABLE }
			: undefined;
		if (this.previous?.id === this.current.id)
			throw new EncryptionKeyError(
				PREVIOUS_KEY_VARIABLE,
				`${PREVIOUS_KEY_VARIABLE} is the same key as ${KEY_VARIABLE}. To rotate, set ${PREVIOUS_KEY_VARIABLE} to the old key and ${KEY_VARIABLE} to the new one; otherwise leave ${PREVIOUS_KEY_VARIABLE} unset.`,
			);
	}

	/** The keys from the environment; a missing or unusable key is an EncryptionKeyError naming its variable. */
	static fromEnv(env: Record<string, string | undefined>): TokenCipher {
		const current = env[KEY_VARIABLE];
		const previous = env[PREVIOUS_KEY_VARIABLE]?.trim() ? env[PREVIOUS_KEY_VARIABLE] : undefined;
		if (current === undefined)
			throw new EncryptionKeyError(
				KEY_VARIABLE,
				previous === undefined
					? `${KEY_VARIABLE} is not set: the bot keeps each workspace's Slack token encrypted and does not start without the key. ${MAKE_A_KEY}`
					: `${PREVIOUS_KEY_VARIABLE} is set but ${KEY_VARIABLE} is not: set ${KEY_VARIABLE} to the key to encrypt with from now on.`,
			);
		return new TokenCipher(
			parseKey(KEY_VARIABLE, current),
			previous === undefined ? undefined : parseKey(PREVIOUS_KEY_VARIABLE, previous),
		);
	}

	/** The id of the key new tokens are encrypted with (safe to log). */
	get keyId(): string {
		return this.current.id;
	}

	/** Encrypts a token; `context` (the installation's key) must be given again to decrypt it. */
	encrypt(token: string, context = ''): string {
		const iv = randomBytes(IV_BYTES);
		const cipher = createCipheriv('aes-256-gcm', this.current.key, iv, {
			authTagLength: TAG_BYTES,
		});
		cipher.setAAD(associatedData(this.current.id, context));
		const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
		const encode = (bytes: Buffer) => bytes.toString('base64url');
		return `${header(this.current.id)}:${encode(iv)}:${encode(data)}:${encode(cipher.getAuthTag())}`;
	}

	decrypt(encrypted: string, context = ''): string {
		const { key, iv, data, tag } = this.parts(encrypted);
		try {
			const decipher = createDecipheriv('aes-256-gcm', key.key, iv, { authTagLength: TAG_BYTES });
			decipher.setAAD(associatedData(key.id, context));
			decipher.setAuthTag(tag);
			return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
		} catch {
			throw new TokenDecryptError(
				'integrity',
				`A stored Slack token failed its integrity check (key id ${key.id}): the stored value was altered or belongs to another installation. Install the app in that workspace again.`,
				key.id,
			);
		}
	}

	/** Is this encrypted with the current key (nothing to do for it after a rotation)? */
	isCurrent(encrypted: string): boolean {
		return this.parts(encrypted).key === this.current;
	}

	/** The same token encrypted with the current key (unchanged when it already is). */
	reencrypt(encrypted: string, context = ''): string {
		return this.isCurrent(encrypted)
			? encrypted
			: this.encrypt(this.decrypt(encrypted, context), context);
	}

	private parts(encrypted: string): { key: Key; iv: Buffer; data: Buffer; tag: Buffer } {
		const fields = encrypted.split(':');
		if (fields.length !== 6 || fields[0] !== PREFIX)
			throw new TokenDecryptError(
				'format',
				`A stored Slack token is not in the bot's encrypted form (${PREFIX}:${VERSION}:…): it was written by something else or damaged. Install the app in that workspace again.`,
			);
		const [, version, id, iv, data, tag] = fields;
		if (version !== VERSION)
			throw new TokenDecryptError(
				'version',
				`A stored Slack token is in format ${version}, which this version of the bot does not read (it reads ${VERSION}): run the version of the bot that wrote it, or a newer one.`,
			);
		const key = [this.current, this.previous].find((k) => k?.id === id);
		if (!key)
			throw new TokenDecryptError(
				'unknown-key',
				`A stored Slack token was encrypted with a key (id ${id}) that is neither ${KEY_VARIABLE} (id ${this.current.id}) nor ${PREVIOUS_KEY_VARIABLE} (${this.previous ? `id ${this.previous.id}` : 'not set'}). Set ${PREVIOUS_KEY_VARIABLE} to the key it was encrypted with, or install the app in that workspace again.`,
				id,
			);
		return {
			key,
			iv: Buffer.from(iv, 'base64url'),
			data: Buffer.from(data, 'base64url'),
			tag: Buffer.from(tag, 'base64url'),
		};
	}
}
