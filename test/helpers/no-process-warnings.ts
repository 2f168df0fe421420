// A process warning (MaxListenersExceededWarning, a deprecation, an unhandled rejection turned
// warning) during the core's and the node's tests is a bug: it shows up in n8n's and the bot's
// logs. The warnings of one test file are collected and fail that file's last hook.
const ENFORCED = [/[\\/]test[\\/]shared[\\/]/, /[\\/]test[\\/]nodes[\\/]/];

const warnings: string[] = [];
const onWarning = (warning: Error): void => {
  warnings.push(`${warning.name}: ${warning.message}`);
};

const testPath = expect.getState().testPath ?? '';
if (ENFORCED.some((pattern) => pattern.test(testPath))) {
  beforeAll(() => {
    process.on('warning', onWarning);
  });
  afterAll(() => {
    process.off('warning', onWarning);
    const seen = warnings.splice(0);
    if (seen.length > 0) throw new Error(`process warnings during ${testPath}:\n${seen.join('\n')}`);
  });
}
