/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_INFO } from '../../shared/errorCatalog';
import { REFERENCES } from '../../scripts/docs-reference';

describe('generated references in docs/reference/', () => {
	it.each(Object.entries(REFERENCES))('%s is current (regenerate with npm run docs:reference)', (name, render) => {
		expect(readFileSync(join(__dirname, '..', '..', 'docs', 'reference', name), 'utf8')).toBe(render());
	});

	it('lists every error code of the catalog', () => {
		const text = REFERENCES['errors.md']();
		for (const code of Object.keys(CODE_INFO)) expect(text).toContain(`| ${code} |`);
	});
});
