// A consumer process for the kill -9 tests: the BUILT receiver (dist/, as CI builds before it
// tests), one line per handled message on stdout. Plain JavaScript so node runs it as it is.
'use strict';
const { createPushReceiver } = require('../../dist/shared/push');

const receiver = createPushReceiver({
	url: process.env.DM_URL,
	userName: process.env.DM_USER,
	password: process.env.DM_PASSWORD,
	topic: process.env.DM_TOPIC,
	prefetch: 10,
});
receiver
	.start(async (message) => {
		// 10 ms a message, 10 at once: a burst of 2,000 lasts about 2 s, so the kill lands mid-burst
		// even when the test process is scheduled late (at 2 ms, 10 at once, it could all be done first).
		await new Promise((resolve) => setTimeout(resolve, 10));
		process.stdout.write(`handled ${message.record.id}\n`);
	})
	.then(() => process.stdout.write('ready\n'))
	.catch((error) => {
		process.stderr.write(`${error.message}\n`);
		process.exit(2);
	});
