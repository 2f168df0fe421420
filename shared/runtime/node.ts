// The host side of the core in a Node program (bot, simulator, benchmarks, tests): Node's timers
// and the undici transport. Importing this module installs both; n8n's pack never imports it.
import { setTimeout as delay } from 'node:timers/promises';
import { useTimers } from '../core/wait';
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
