// A replica's leadership in its own process, so a test can kill -9 it or freeze it (SIGSTOP). Runs the TypeScript
// sources through @swc/core (the compiler jest uses here); reports one JSON line per event on stdout.
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
	const { code } = transformSync(readFileSync(filename, 'utf8'), {
		filename,
		jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
		module: { type: 'commonjs' },
	});
	module._compile(code, filename);
};
require('./replica.ts');
