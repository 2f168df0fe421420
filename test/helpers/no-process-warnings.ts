/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// A process warning (MaxListenersExceededWarning, a deprecation, an unhandled rejection turned
// warning) during the core's and the node's tests is a bug: it shows up in n8n's and the bot's
// logs. test/helpers/warning-environment.ts collects the worker's warnings; this hook fails the
// test file that caused any.
const ENFORCED = [/[\\/]test[\\/]shared[\\/]/, /[\\/]test[\\/]nodes[\\/]/];

const testPath = expect.getState().testPath ?? '';
const warnings = (globalThis as { __processWarnings?: string[] }).__processWarnings;
if (warnings && ENFORCED.some((pattern) => pattern.test(testPath))) {
	afterAll(async () => {
		// Warnings are emitted on the next tick: let the last ones arrive.
		await new Promise((resolve) => setImmediate(resolve));
		const seen = warnings.splice(0);
		if (seen.length > 0)
			throw new Error(`process warnings during ${testPath}:\n${seen.join('\n')}`);
	});
}
