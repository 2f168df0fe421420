/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- Node-only core code: the bot and the self-hosted push companion load it, the n8n Cloud pack does not, and n8n Cloud's rules govern the pack */
// The host side of the core in a Node program (bot, simulator, benchmarks, tests): Node's timers
// and the undici transport. Importing this module installs both; n8n's pack never imports it.
import { setTimeout as delay } from 'node:timers/promises';
import { useTimers } from '../timers/wait';
import { setDefaultTransport } from '../transport/default';
import { createUndiciTransport } from '../transport/undici';

useTimers({
	sleep: (ms, signal, background) => delay(ms, undefined, { signal, ref: !background }),
	schedule: (ms, fire) => {
		const timer = setTimeout(fire, ms).unref();
		return () => clearTimeout(timer);
	},
});
setDefaultTransport((options) => createUndiciTransport(options));

export { createUndiciTransport, type UndiciTransportOptions } from '../transport/undici';
