import type { Operation } from '../types';
import {
	binaryPropertyOption,
	getIdParameter,
	resolveIdParameter,
	linkOnlyOption,
	locator,
} from '../common';
import { toItems } from '../output';
import { downloadAsItem, linkExpiresAt } from '../../helpers/files';

export const download: Operation = {
	option: {
		name: 'Download',
		value: 'download',
		action:
			'Download a report: download a generated report (by report ID) as a file: answers with its name, size and type; use after Get Reports when a person wants the document',
		description:
			'Download a generated report as a PDF file (binary data), or get its temporary link',
	},
	readOnly: true,
	properties: [
		locator('asset'),
		locator('report', { typeOptions: { loadOptionsDependsOn: ['asset.value'] } }),
		linkOnlyOption,
		{ ...binaryPropertyOption(), displayOptions: { show: { linkOnly: [false] } } },
	],
	async execute(client, itemIndex) {
		const assetId = await resolveIdParameter.call(this, client, 'asset', itemIndex);
		const reportId = getIdParameter.call(this, 'report', itemIndex);
		const link = await client.assetData.getReportDownload({ assetId, reportId });
		if (this.getNodeParameter('linkOnly', itemIndex) || !link.fileTemplink) {
			return toItems({
				assetId,
				...link,
				...(link.fileTemplink ? { fileTemplinkExpiresAt: linkExpiresAt() } : {}),
			});
		}
		const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
		return [
			await downloadAsItem.call(this, client, link.fileTemplink, binaryPropertyName, {
				assetId,
				...link,
			}),
		];
	},
};
