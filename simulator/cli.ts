#!/usr/bin/env node
/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the platform simulator, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import '../shared/runtime/engines';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { SimulatorControl } from './control';
import type { FaultRule } from './faults';
import { startSimulator, type SimulatorOptions } from './index';

const USAGE = `Usage: drive-monitoring-simulator [options]   (from a checkout: npm run simulator -- [options])
  --port N             HTTP port (default 0: a free port)
  --host H             listen address (default 127.0.0.1)
  --seed S             fleet seed (default 1)
  --assets N           fleet size (default 60, up to any size; 10000 starts in seconds)
  --event-rate R       demo events per simulated minute (default 0: off)
  --time-scale X       simulated time runs X times faster (default 1)
  --token-lifetime S   token lifetime in seconds (default 3599)
  --report-delay MS    simulated ms a report stays Creating (default 20000)
  --no-push            do not start the push channel
  --offline WHO        start with an asset (its id) or a gateway (its serial number) offline;
                       repeatable
  --fault SPEC         inject a fault; repeatable. SPEC is key=value pairs joined by commas:
                       latency=MS 5xx=RATE status=503 429=RATE retry-after=S reset=RATE
                       malformed=RATE kind=html|truncated|extra-fields token-lifetime=S
                       path=SUBSTRING (repeatable) times=N
                       e.g. --fault 5xx=0.1 --fault 429=1,retry-after=2,times=3,path=/assetdata
The first line on stdout is the start-up JSON. Stops on SIGINT or SIGTERM.
Control lines on stdin: offline WHO, online WHO (an asset id or a gateway serial number),
tick-hourly (push the hourly AssetState now), finish-report ID [Created|Failed].`;

/** `123` names an asset, anything else a gateway serial number. */
function target(who: string): string | number {
	return /^\d+$/.test(who) ? Number(who) : who;
}

/** One stdin control line; returns what to print (stderr). A bad line is answered, never fatal. */
export function runControlLine(control: SimulatorControl, line: string): string {
	const [verb = '', who = '', extra] = line.trim().split(/\s+/);
	try {
		switch (verb.toLowerCase()) {
			case '':
				return '';
			case 'offline':
			case 'online': {
				if (!who) return `${verb} needs an asset id or a gateway serial number`;
				const ids = control.setGatewayOnline(target(who), verb.toLowerCase() === 'online');
				return `${verb}: asset${ids.length > 1 ? 's' : ''} ${ids.join(', ')} (the hourly AssetState says so from the next push; tick-hourly pushes now)`;
			}
			case 'tick-hourly':
				control.tickHourly();
				return 'hourly AssetState pushed';
			case 'finish-report': {
				const status = extra === 'Failed' ? 'Failed' : 'Created';
				control.finishReport(Number(who), status);
				return `report ${who} ${status}`;
			}
			default:
				return `unknown control line "${line.trim()}": use offline WHO, online WHO, tick-hourly or finish-report ID [Created|Failed]`;
		}
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
}

/** Parses one --fault SPEC into a rule; throws naming the bad key or value. */
export function parseFault(spec: string): FaultRule {
	const rule: FaultRule = {};
	for (const pair of spec
		.split(',')
		.map((p) => p.trim())
		.filter(Boolean)) {
		const [key, value = ''] = pair.split('=', 2);
		const num = (): number => {
			const n = Number(value);
			if (value === '' || !Number.isFinite(n))
				throw new Error(`--fault ${key}: '${value}' is not a number`);
			return n;
		};
		switch (key) {
			case 'latency':
				rule.latencyMs = num();
				break;
			case '5xx':
				rule.errorRate = num();
				break;
			case 'status':
				rule.errorStatus = num();
				break;
			case '429':
				rule.rateLimitRate = num();
				break;
			case 'retry-after':
				rule.retryAfterSec = num();
				break;
			case 'reset':
				rule.resetRate = num();
				break;
			case 'malformed':
				rule.malformedRate = num();
				break;
			case 'kind':
				if (value !== 'html' && value !== 'truncated' && value !== 'extra-fields')
					throw new Error(`--fault kind: '${value}' is not html, truncated or extra-fields`);
				rule.malformedKind = value;
				break;
			case 'token-lifetime':
				rule.tokenLifetimeSec = num();
				break;
			case 'path':
				(rule.paths ??= []).push(value);
				break;
			case 'times':
				rule.times = num();
				break;
			default:
				throw new Error(`--fault: unknown key '${key}' in '${spec}'`);
		}
	}
	return rule;
}

export type CliOptions = SimulatorOptions & { offline?: string[] };

export function parseCli(argv: string[]): CliOptions | 'help' {
	const { values } = parseArgs({
		args: argv,
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			seed: { type: 'string' },
			assets: { type: 'string' },
			'event-rate': { type: 'string' },
			'time-scale': { type: 'string' },
			'token-lifetime': { type: 'string' },
			'report-delay': { type: 'string' },
			'no-push': { type: 'boolean' },
			offline: { type: 'string', multiple: true },
			fault: { type: 'string', multiple: true },
			help: { type: 'boolean', short: 'h' },
		},
		strict: true,
	});
	if (values.help) return 'help';
	const number = (
		name: string,
		text: string | undefined,
		min: number,
		exclusive = false,
	): number | undefined => {
		if (text === undefined) return undefined;
		const n = Number(text);
		if (text.trim() === '' || !Number.isFinite(n) || n < min || (exclusive && n === min)) {
			throw new Error(`--${name}: '${text}' must be a number ${exclusive ? '>' : '>='} ${min}`);
		}
		return n;
	};
	return {
		port: number('port', values.port, 0),
		host: values.host,
		seed:
			values.seed === undefined
				? undefined
				: /^\d+$/.test(values.seed)
					? Number(values.seed)
					: values.seed,
		assets: number('assets', values.assets, 1),
		eventRatePerMinute: number('event-rate', values['event-rate'], 0),
		timeScale: number('time-scale', values['time-scale'], 0, true),
		tokenLifetimeSec: number('token-lifetime', values['token-lifetime'], 1),
		reportGenerationMs: number('report-delay', values['report-delay'], 0),
		push: values['no-push'] ? false : undefined,
		faults: (values.fault ?? []).map(parseFault),
		offline: values.offline,
	};
}

async function main(): Promise<void> {
	let options: CliOptions | 'help';
	try {
		options = parseCli(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
		process.exitCode = 2;
		return;
	}
	if (options === 'help') {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	const { offline = [], ...simulatorOptions } = options;
	const simulator = await startSimulator(simulatorOptions);
	for (const who of offline)
		process.stderr.write(`${runControlLine(simulator.control, `offline ${who}`)}\n`);
	process.stdout.write(`${JSON.stringify(simulator.info)}\n`);
	createInterface({ input: process.stdin, terminal: false }).on('line', (line) => {
		const answer = runControlLine(simulator.control, line);
		if (answer) process.stderr.write(`${answer}\n`);
	});
	process.stderr.write(
		`Drive Monitoring simulator: API ${simulator.info.baseUrl}/devcenter/extapi/v1, token ${simulator.info.authUrl}/${simulator.info.tenantId}/oauth2/v2.0/token, ${simulator.info.assetCount} assets. Ctrl+C stops it.\n`,
	);
	const stop = (): void => {
		void simulator.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	// The server keeps the process alive; the poll timer is unref'd.
	setInterval(() => undefined, 1 << 30);
}

if (require.main === module) void main();
