// The words and models the seed draws from.
export const EU_NAMES = [
	'Harbor Water Utility',
	'Northfield Paper Mill',
	'Cedar Foods',
	'Granite Cement Works',
	'Bluewave Chemicals',
	'Summit Mining',
	'Riverside HVAC',
	'Oakridge Steel',
	'Lakeside Brewery',
	'Pinecrest Textiles',
];
export const INDUSTRIES = [
	'Water',
	'Pulp and paper',
	'Food and beverage',
	'Cement',
	'Chemicals',
	'Mining',
	'HVAC',
	'Metals',
];
export const CITIES = [
	['Zhejiang', 'Hangzhou', 'Xihu'],
	['Jiangsu', 'Suzhou', 'Gusu'],
	['Guangdong', 'Shenzhen', 'Nanshan'],
	['Shanghai', 'Shanghai', 'Pudong'],
	['Beijing', 'Beijing', 'Haidian'],
] as const;
export const GROUP_WORDS = [
	['Pumps', 'Pump'],
	['Conveyors', 'Conveyor'],
	['Fans', 'Fan'],
	['Compressors', 'Compressor'],
	['Mixers', 'Mixer'],
] as const;
export const CONTACTS = [
	'Li Wei',
	'Anna Berg',
	'Chen Jing',
	'Marco Rossi',
	'Sara Lind',
	'Wang Fang',
	'Tom Okafor',
	'Mia Novak',
];
export const DRIVE_MODELS: Record<string, string[]> = {
	ACS880: ['ACS880-01-045A-3', 'ACS880-01-105A-3', 'ACS880-07-0400A-3'],
	ACS580: ['ACS580-01-033A-4', 'ACS580-01-088A-4'],
	ACS380: ['ACS380-040S-12A6-4', 'ACS380-042S-07A3-4'],
	ACS180: ['ACS180-04N-09A4-4'],
};
export const MOTOR_MODELS = ['M3BP-315SMC-4', 'M3AA-132MB-4', 'M3BP-280SMB-2'];
