// A push consumer in its own process, so a test can freeze it (SIGSTOP) with its socket open. It takes messages
// and never acknowledges them (a consumer frozen mid-work); one JSON line per event on stdout.
const env = process.env;
const report = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

if (env.BROKER_PROTOCOL === 'mqtt') {
	const mqtt = require('mqtt');
	const client = mqtt.connect(env.BROKER_URL, {
		username: env.BROKER_USER,
		password: env.BROKER_PASSWORD,
		clientId: env.BROKER_CLIENT_ID,
		clean: false,
		protocolVersion: 4,
		reconnectPeriod: 0,
		keepalive: Number(env.BROKER_KEEPALIVE_S),
	});
	client.handleMessage = (packet) =>
		report({ event: 'message', id: JSON.parse(packet.payload.toString()).messageId });
	client.on('connect', () => {
		client.subscribe(env.BROKER_ADDRESS, { qos: 1 }, (error, granted) =>
			report({
				event: 'ready',
				localPort: client.stream.localPort,
				granted,
				error: error && error.message,
			}),
		);
	});
	client.on('error', (error) => report({ event: 'error', message: error.message }));
} else {
	const container = require('rhea').create_container({ id: 'frozen-consumer' });
	const connection = container.connect({
		host: env.BROKER_HOST,
		port: Number(env.BROKER_PORT),
		username: env.BROKER_USER,
		password: env.BROKER_PASSWORD,
		reconnect: false,
	});
	connection.open_receiver({
		source: { address: env.BROKER_ADDRESS },
		autoaccept: false,
		credit_window: 10,
	});
	container.on('receiver_open', (context) =>
		report({ event: 'ready', localPort: context.connection.socket.localPort }),
	);
	container.on('message', (context) =>
		report({ event: 'message', id: context.message.message_id }),
	);
	container.on('error', (error) => report({ event: 'error', message: String(error) }));
	container.on('disconnected', () => undefined);
}
