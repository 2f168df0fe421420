import { redact, redactValue } from '../redact';

/** Any console-like logger; every method optional. The core only ever passes redacted text. */
export interface Logger {
	debug?(message: string, meta?: Record<string, unknown>): void;
	info?(message: string, meta?: Record<string, unknown>): void;
	warn?(message: string, meta?: Record<string, unknown>): void;
	error?(message: string, meta?: Record<string, unknown>): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type SafeLogger = Required<Logger> & { enabled: Record<LogLevel, boolean> };

/** Wrap a logger so that every message and meta value is redacted before it leaves the core. */
export function safeLogger(logger: Logger | undefined): SafeLogger {
	const emit = (level: LogLevel) => (message: string, meta?: Record<string, unknown>) => {
		const fn = logger?.[level];
		if (!fn) return;
		try {
			fn.call(
				logger,
				redact(message),
				meta === undefined ? undefined : (redactValue(meta) as Record<string, unknown>),
			);
		} catch {
			// A failing logger must not fail the request.
		}
	};
	const enabled = {
		debug: !!logger?.debug,
		info: !!logger?.info,
		warn: !!logger?.warn,
		error: !!logger?.error,
	};
	return {
		debug: emit('debug'),
		info: emit('info'),
		warn: emit('warn'),
		error: emit('error'),
		enabled,
	};
}
