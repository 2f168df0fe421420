/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a build script, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Writes the references in docs/reference/ from the real objects (no parsing of source text), so they cannot drift:
// `npm run docs:reference`. test/docs/reference.test.ts fails when a checked-in file differs from what this renders.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_INFO } from '../shared/errorCatalog';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderErrors(): string {
	const rows = Object.entries(CODE_INFO)
		.sort(([a], [b]) => Number(a) - Number(b))
		.map(([code, info]) => `| ${code} | ${info.kind} | ${cell(info.summary)} | ${cell(info.hint)} |`);
	return [
		'# Error codes',
		'',
		'Generated from shared/errorCatalog.ts by `npm run docs:reference`; do not edit by hand.',
		'',
		'| Code | Kind | Meaning | What to do |',
		'| --- | --- | --- | --- |',
		...rows,
		'',
	].join('\n');
}

export const REFERENCES: Record<string, () => string> = { 'errors.md': renderErrors };

if (require.main === module) {
	for (const [name, render] of Object.entries(REFERENCES))
		writeFileSync(join(__dirname, '..', 'docs', 'reference', name), render());
}
