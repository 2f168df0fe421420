// The push companion (n8n-nodes-drive-monitoring-push) is an n8n community package for
// self-hosted n8n: n8n's template config without the n8n Cloud rules (it holds broker
// connections and depends on rhea and mqtt, which n8n Cloud forbids by nature).
import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';

export default [
	...configWithoutCloudSupport,
	{ files: ['package.json'], rules: { '@n8n/community-nodes/no-runtime-dependencies': 'off' } },
];
