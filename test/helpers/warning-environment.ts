/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The node test environment, plus the process warnings of the real worker process: a test's own
// `process` is a sandbox copy whose listeners never hear them. They are handed to the sandbox as
// `__processWarnings` and checked by test/helpers/no-process-warnings.ts.
import { TestEnvironment } from 'jest-environment-node';

export default class WarningEnvironment extends TestEnvironment {
	private readonly warnings: string[] = [];
	private readonly onWarning = (warning: Error): void => {
		this.warnings.push(`${warning.name}: ${warning.message}`);
	};

	override async setup(): Promise<void> {
		await super.setup();
		this.global.__processWarnings = this.warnings;
		process.on('warning', this.onWarning);
	}

	override async teardown(): Promise<void> {
		process.off('warning', this.onWarning);
		await super.teardown();
	}
}
