// Runs the real-n8n benchmark from its TypeScript sources, compiled on load by swc as jest does
// (the same options as jest.config.js). From source, because scripts/n8n finds the repository
// (to pack it) relative to its own folder, which a build under dist/ would move.
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
	const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
		filename,
		jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
		module: { type: 'commonjs' },
		sourceMaps: 'inline',
	});
	module._compile(code, filename);
};
