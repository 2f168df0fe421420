/** The files behind temporary links: report PDFs and event-logger CSVs. */

/** A one-page PDF 1.4 document with the given lines of Helvetica text. */
export function renderPdf(title: string, lines: string[]): Buffer {
	const escape = (text: string): string =>
		text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
	const body = [
		`/F1 18 Tf (${escape(title)}) Tj`,
		'/F1 11 Tf',
		...lines.map((line) => `T* (${escape(line)}) Tj`),
	];
	const stream = `BT 50 790 Td 16 TL ${body.join('\n')} ET`;
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
		`<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
		`<< /Title (${escape(title)}) /Producer (Drive Monitoring simulator) >>`,
	];
	let out = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((object, i) => {
		offsets.push(Buffer.byteLength(out));
		out += `${i + 1} 0 obj\n${object}\nendobj\n`;
	});
	const xref = Buffer.byteLength(out);
	out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
	out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(out, 'latin1');
}

export function renderCsv(header: string[], rows: Array<Array<string | number>>): Buffer {
	const cell = (v: string | number): string =>
		typeof v === 'string' && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v);
	return Buffer.from(
		[header, ...rows].map((row) => row.map(cell).join(',')).join('\n') + '\n',
		'utf8',
	);
}
