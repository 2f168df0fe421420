// The host side of the core inside n8n: n8n-workflow's `sleep` (the timer n8n Cloud's rules
// allow). No default transport: every call from a node brings n8n's own HTTP helpers.
import { sleep } from 'n8n-workflow';
import { useTimers } from '../timers/wait';

useTimers({ sleep: (ms, signal) => sleep(ms, signal) });
