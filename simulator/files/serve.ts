import { textReply, type Reply } from '../http/envelope';
import type { Platform } from '../platform';
import { unit } from '../random';
import { DAY, SECOND, isoUtc, utc8Date } from '../time';
import { renderCsv, renderPdf } from './documents';

const REPORT_FILE = /^\/files\/report\/(\d+)\/(report-\d+\.pdf)$/;
const LOGGER_FILE = /^\/files\/eventlogger\/(\d+)\/(\d+)\/(event-\d+-logger\.csv)$/;

/** A7: a temporary link is checked (403 when expired or tampered), then its file is rendered. */
export function serveFile(platform: Platform, url: URL): Reply {
	const check = platform.links.check(url.pathname, url.searchParams);
	if (!check.ok) return textReply(403, check.reason);
	const report = REPORT_FILE.exec(url.pathname);
	if (report) return reportFile(platform, Number(report[1]), report[2]);
	const logger = LOGGER_FILE.exec(url.pathname);
	if (logger) return loggerFile(platform, Number(logger[1]), Number(logger[2]), logger[3]);
	return textReply(404, 'No such file.');
}

function attachment(contentType: string, fileName: string, body: Buffer): Reply {
	return {
		status: 200,
		headers: {
			'Content-Type': contentType,
			'Content-Disposition': `attachment; filename="${fileName}"`,
		},
		body,
	};
}

function reportFile(platform: Platform, reportId: number, fileName: string): Reply {
	const report = platform.data.reports.get(reportId);
	if (!report || report.status !== 'Created')
		return textReply(404, `Report ${reportId} is not available.`);
	const org = platform.store.org(report.orgId);
	const lines = [
		report.subTitle,
		`Report ${report.id} (${report.reportType}) for ${org?.name ?? 'organization ' + report.orgId}`,
		`Period: ${utc8Date(report.start)} to ${utc8Date(report.end)} (UTC+8)`,
		`Generated: ${isoUtc(report.readyAt)} by ${report.createdUser}`,
		'',
		'Assets:',
	];
	for (const id of report.assetIds) {
		const asset = platform.store.asset(id);
		if (!asset) {
			lines.push(`  ${id}: deleted`);
			continue;
		}
		const events = platform.events.list(asset, report.start, report.end);
		const faults = events.filter((e) => e.eventType === 'Fault').length;
		lines.push(
			`  ${asset.id} ${asset.name} - ${asset.assetType} ${asset.modelType}, serial ${asset.serialNumber}`,
		);
		lines.push(
			`     events in period: ${events.length} (faults ${faults}, warnings ${events.filter((e) => e.eventType === 'Warning').length})`,
		);
		lines.push(
			`     availability: ${Math.round(1000 - (faults * 1000) / Math.max(1, (report.end - report.start) / DAY) / 24) / 10} %`,
		);
	}
	return attachment('application/pdf', fileName, renderPdf(report.title, lines));
}

function loggerFile(platform: Platform, assetId: number, eventId: number, fileName: string): Reply {
	const asset = platform.store.asset(assetId);
	const event = asset && platform.events.find(asset, eventId);
	if (!asset || !event || !event.hasLogger)
		return textReply(404, `No logger file for event ${eventId}.`);
	// The drive's data logger: 1 s samples from 60 s before the event to 10 s after it.
	const rows: Array<Array<string | number>> = [];
	for (let t = event.time - 60 * SECOND; t <= event.time + 10 * SECOND; t += SECOND) {
		const u = (k: number): number => unit(platform.seed, eventId, t, k);
		const after = t >= event.time;
		rows.push([
			isoUtc(t),
			after ? 0 : Math.round(1450 + u(1) * 20),
			Math.round((after ? 0 : 38 + u(2) * 4 + (event.time - t < 5000 ? 40 : 0)) * 10) / 10,
			Math.round(540 + u(3) * 40),
			Math.round((45 + u(4) * 3) * 10) / 10,
		]);
	}
	const csv = renderCsv(
		['time', 'motor_speed_rpm', 'motor_current_a', 'dc_voltage_v', 'inverter_temperature_c'],
		rows,
	);
	return attachment(
		'text/csv; charset=utf-8',
		fileName,
		Buffer.concat([
			Buffer.from(
				`# event ${event.id} ${event.eventCode} ${event.content} on asset ${asset.id} ${asset.name} at ${isoUtc(event.time)}\n`,
			),
			csv,
		]),
	);
}
