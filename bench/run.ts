/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- a benchmark program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Runs every benchmark suite in bench/suites/ in one process, so that each figure is compared
// with a baseline measured in the same run, and writes the results to bench/results/.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import '../shared/runtime/node';
import type { BenchSuite, SuiteResult } from './suite';

async function main(): Promise<void> {
	const only = process.argv.slice(2);
	const suitesDir = path.join(__dirname, 'suites');
	const files = readdirSync(suitesDir)
		.filter((f) => f.endsWith('.js'))
		.sort();
	const results: SuiteResult[] = [];
	for (const file of files) {
		const suite = loadedSuite(await import(path.join(suitesDir, file)), file);
		if (only.length > 0 && !only.includes(suite.name)) continue;
		console.error(`bench: ${suite.name} ...`);
		const started = Date.now();
		const result = await suite.run();
		results.push({ ...result, seconds: (Date.now() - started) / 1000 });
		console.log(renderSuite(result));
	}
	const outDir = path.resolve(__dirname, '..', '..', 'bench', 'results');
	mkdirSync(outDir, { recursive: true });
	const stamp = new Date().toISOString();
	const header = `# Benchmark results\n\n${stamp}, Node ${process.version}, ${process.platform}/${process.arch}\n\n`;
	writeFileSync(path.join(outDir, 'latest.md'), header + results.map(renderSuite).join('\n'));
	writeFileSync(path.join(outDir, 'latest.json'), JSON.stringify({ stamp, results }, null, 2));
	console.error(`bench: written to ${path.join(outDir, 'latest.md')}`);
}

/**
 * The suite a file default-exports. Compiled to CommonJS, `import()` hands over the whole
 * `exports` object as `default`, so the suite is one level further down.
 */
function loadedSuite(loaded: { default?: unknown }, file: string): BenchSuite {
	const isSuite = (value: unknown): value is BenchSuite =>
		typeof (value as BenchSuite | undefined)?.run === 'function';
	const inner = (loaded.default as { default?: unknown } | undefined)?.default;
	if (isSuite(inner)) return inner;
	if (isSuite(loaded.default)) return loaded.default;
	throw new Error(`bench/suites/${file} does not default-export a BenchSuite`);
}

function renderSuite(result: SuiteResult): string {
	const rows = result.figures.map(
		(f) =>
			`| ${f.name} | ${f.value} | ${f.baseline ?? ''} | ${f.ratio ?? ''} | ${f.target ?? ''} | ${f.met === undefined ? '' : f.met ? 'yes' : 'NO'} |`,
	);
	return [
		`## ${result.name}`,
		'',
		result.description,
		'',
		'| figure | value | baseline (same run) | ratio | target | met |',
		'|---|---|---|---|---|---|',
		...rows,
		'',
	].join('\n');
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
