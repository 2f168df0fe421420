import { randomBytes } from 'node:crypto';
import {
	EncryptionKeyError,
	KEY_VARIABLE,
	keyId,
	PREVIOUS_KEY_VARIABLE,
	TokenCipher,
	TokenDecryptError,
} from '../../../../bot/features/installations/token-cipher';
import { fakeSlackToken } from '../../helpers';

const token = fakeSlackToken('b');
const keyA = randomBytes(32);
const keyB = randomBytes(32);

/** Every way a secret could be written into a stored value or a message. */
function encodings(secret: string | Buffer): string[] {
	const bytes = typeof secret === 'string' ? Buffer.from(secret) : secret;
	return [
		...(typeof secret === 'string' ? [secret] : []),
		bytes.toString('base64'),
		bytes.toString('base64url'),
		bytes.toString('hex'),
	];
}

function expectFree(text: string, ...secrets: Array<string | Buffer>): void {
	for (const secret of secrets)
		for (const form of encodings(secret)) expect(text).not.toContain(form);
}

/** What the call throws (it must throw). */
function thrown(call: () => unknown): Error {
	try {
		call();
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected a throw');
}

/** The ciphertext with one byte of one of its base64url parts flipped. */
function flipped(encrypted: string, part: number): string {
	const fields = encrypted.split(':');
	const bytes = Buffer.from(fields[part], 'base64url');
	bytes[0] ^= 0x01;
	fields[part] = bytes.toString('base64url');
	return fields.join(':');
}

test('a token comes back from its ciphertext, which names the format and the key id and holds neither the token nor the key', () => {
	const cipher = new TokenCipher(keyA);
	const encrypted = cipher.encrypt(token, 'T0HARBOR');
	expect(encrypted).toMatch(
		/^enc:v1:[A-Za-z0-9_-]{11}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/,
	);
	expect(encrypted.split(':')[2]).toBe(cipher.keyId);
	expectFree(encrypted, token, keyA);
	expectFree(cipher.keyId, keyA);
	expect(cipher.decrypt(encrypted, 'T0HARBOR')).toBe(token);
	// A fresh IV each time: the same token never gives the same ciphertext.
	expect(cipher.encrypt(token, 'T0HARBOR')).not.toBe(encrypted);
});

test('a wrong key does not decrypt: the error names both variables and the key ids, never the token', () => {
	const encrypted = new TokenCipher(keyA).encrypt(token);
	const error = thrown(() => new TokenCipher(keyB).decrypt(encrypted));
	expect(error).toBeInstanceOf(TokenDecryptError);
	expect((error as TokenDecryptError).reason).toBe('unknown-key');
	expect(error.message).toContain(`key (id ${keyId(keyA)})`);
	expect(error.message).toContain(`${KEY_VARIABLE} (id ${keyId(keyB)})`);
	expect(error.message).toContain(`${PREVIOUS_KEY_VARIABLE} (not set)`);
	expectFree(error.message, token, keyA, keyB, encrypted);
});

test('after a rotation the previous key still decrypts, re-encryption moves a token to the current key, and the previous key can then go', () => {
	const before = new TokenCipher(keyA).encrypt(token, 'E0GRID');
	const rotated = new TokenCipher(keyB, keyA);
	expect(rotated.decrypt(before, 'E0GRID')).toBe(token);
	expect(rotated.isCurrent(before)).toBe(false);
	const after = rotated.reencrypt(before, 'E0GRID');
	expect(rotated.isCurrent(after)).toBe(true);
	expect(after.split(':')[2]).toBe(keyId(keyB));
	expect(rotated.reencrypt(after, 'E0GRID')).toBe(after);
	const newOnly = new TokenCipher(keyB);
	expect(newOnly.decrypt(after, 'E0GRID')).toBe(token);
	expect((thrown(() => newOnly.decrypt(before, 'E0GRID')) as TokenDecryptError).reason).toBe(
		'unknown-key',
	);
});

test.each([
	['the IV', 3],
	['the ciphertext', 4],
	['the authentication tag', 5],
])('a ciphertext with a byte of %s flipped does not decrypt', (_, part) => {
	const cipher = new TokenCipher(keyA);
	const error = thrown(() => cipher.decrypt(flipped(cipher.encrypt(token), part)));
	expect(error).toBeInstanceOf(TokenDecryptError);
	expect((error as TokenDecryptError).reason).toBe('integrity');
	expect(error.message).toContain('integrity check');
	expectFree(error.message, token, keyA);
});

test('a token is bound to its installation: under another context it does not decrypt', () => {
	const cipher = new TokenCipher(keyA);
	const encrypted = cipher.encrypt(token, 'T0HARBOR');
	expect((thrown(() => cipher.decrypt(encrypted, 'T0OTHER')) as TokenDecryptError).reason).toBe(
		'integrity',
	);
});

test('a value not written by the bot, or in a later format, is refused for what it is', () => {
	const cipher = new TokenCipher(keyA);
	const plain = thrown(() => cipher.decrypt(token));
	expect((plain as TokenDecryptError).reason).toBe('format');
	expectFree(plain.message, token);
	const later = cipher.encrypt(token).replace(':v1:', ':v2:');
	const version = thrown(() => cipher.decrypt(later));
	expect((version as TokenDecryptError).reason).toBe('version');
	expect(version.message).toContain('format v2');
});

describe('keys from the environment', () => {
	const base64 = (bytes: Buffer) => bytes.toString('base64');

	test('the current key, and the previous one for a rotation, in base64 (standard or URL-safe, spaces around ignored)', () => {
		const cipher = TokenCipher.fromEnv({
			[KEY_VARIABLE]: ` ${base64(keyB)}\n`,
			[PREVIOUS_KEY_VARIABLE]: keyA.toString('base64url'),
		});
		expect(cipher.keyId).toBe(keyId(keyB));
		expect(cipher.decrypt(new TokenCipher(keyA).encrypt(token))).toBe(token);
		// An empty previous key (`KEY=` in an env file) is no key.
		expect(
			TokenCipher.fromEnv({ [KEY_VARIABLE]: base64(keyA), [PREVIOUS_KEY_VARIABLE]: ' ' }).keyId,
		).toBe(keyId(keyA));
	});

	test.each([
		['missing', {}, KEY_VARIABLE, `${KEY_VARIABLE} is not set`],
		['empty', { [KEY_VARIABLE]: '  ' }, KEY_VARIABLE, `${KEY_VARIABLE} is empty`],
		[
			'not base64',
			{ [KEY_VARIABLE]: 'correct horse battery staple!' },
			KEY_VARIABLE,
			`${KEY_VARIABLE} is not base64`,
		],
		[
			'16 bytes',
			{ [KEY_VARIABLE]: randomBytes(16).toString('base64') },
			KEY_VARIABLE,
			'it decodes to 16 bytes; it must be exactly 32',
		],
		[
			'hex',
			{ [KEY_VARIABLE]: randomBytes(32).toString('hex') },
			KEY_VARIABLE,
			'written in hex; the bot takes base64',
		],
		[
			'a previous key that is not base64',
			{ [KEY_VARIABLE]: randomBytes(32).toString('base64'), [PREVIOUS_KEY_VARIABLE]: 'x$y' },
			PREVIOUS_KEY_VARIABLE,
			`${PREVIOUS_KEY_VARIABLE} is not base64`,
		],
		[
			'a previous key without a current one',
			{ [PREVIOUS_KEY_VARIABLE]: randomBytes(32).toString('base64') },
			KEY_VARIABLE,
			`${PREVIOUS_KEY_VARIABLE} is set but ${KEY_VARIABLE} is not`,
		],
		[
			'the same key twice',
			{ [KEY_VARIABLE]: base64(keyA), [PREVIOUS_KEY_VARIABLE]: base64(keyA) },
			PREVIOUS_KEY_VARIABLE,
			`${PREVIOUS_KEY_VARIABLE} is the same key as ${KEY_VARIABLE}`,
		],
	])(
		'%s: refused, naming the variable and what is wrong, never its value',
		(_, env, variable, says) => {
			const error = thrown(() => TokenCipher.fromEnv(env as Record<string, string>));
			expect(error).toBeInstanceOf(EncryptionKeyError);
			expect((error as EncryptionKeyError).variable).toBe(variable);
			expect(error.message).toContain(says);
			for (const value of Object.values(env as Record<string, string>))
				if (value.trim()) expect(error.message).not.toContain(value.trim());
		},
	);
});
