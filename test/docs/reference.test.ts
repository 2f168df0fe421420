/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_INFO } from '../../shared/errorCatalog';
import { DriveMonitoring } from '../../nodes/DriveMonitoring/DriveMonitoring.node';
import { OUTPUTS, REFERENCES, TRIGGER_OUTPUTS } from '../../scripts/docs-reference';
import { DriveMonitoringTrigger } from '../../nodes/DriveMonitoringTrigger/DriveMonitoringTrigger.node';

describe('generated references in docs/reference/', () => {
	it.each(Object.entries(REFERENCES))(
		'%s is current (regenerate with npm run docs:reference)',
		(name, render) => {
			expect(readFileSync(join(__dirname, '..', '..', 'docs', 'reference', name), 'utf8')).toBe(
				render(),
			);
		},
	);

	it('lists every error code of the catalog', () => {
		const text = REFERENCES['errors.md']();
		for (const code of Object.keys(CODE_INFO)) expect(text).toContain(`| ${code} |`);
	});

	it('gives every bot configuration key and environment variable a meaning', () => {
		const rows = REFERENCES['bot-configuration.md']()
			.split('\n')
			.filter((line) => line.startsWith('| `'));
		expect(rows.length).toBeGreaterThan(40);
		for (const row of rows) expect(row).not.toMatch(/\|\s*\|$/);
	});

	it('lists every operation of the action node with its action text', () => {
		const text = REFERENCES['n8n-nodes.md']();
		const operations = new DriveMonitoring().description.properties.filter(
			(p) => p.name === 'operation',
		);
		expect(operations.length).toBeGreaterThan(5);
		for (const prop of operations)
			for (const option of prop.options ?? [])
				if ('action' in option)
					expect(text).toContain(
						`${option.action} (\`resource=${prop.displayOptions?.show?.resource?.[0]}\`, \`operation=${option.value}\`)`,
					);
	});

	it('gives every operation of the action node its output fields, and no output to an operation that is gone', () => {
		const keys = new DriveMonitoring().description.properties
			.filter((p) => p.name === 'operation')
			.flatMap((prop) =>
				(prop.options ?? []).map(
					(option) =>
						`${prop.displayOptions?.show?.resource?.[0]}.${'value' in option ? String(option.value) : ''}`,
				),
			);
		expect(Object.keys(OUTPUTS).sort()).toEqual([...new Set(keys)].sort());
		const text = REFERENCES['n8n-nodes.md']();
		const watch =
			new DriveMonitoringTrigger().description.properties.find((p) => p.name === 'watch')
				?.options ?? [];
		expect(Object.keys(TRIGGER_OUTPUTS).sort()).toEqual(
			watch.map((o) => ('value' in o ? String(o.value) : '')).sort(),
		);
		expect(text.match(/^Output: /gm)).toHaveLength(keys.length + watch.length);
		expect(text).toContain('| `latestDataReceived` |');
	});
});
