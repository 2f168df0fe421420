// What the bot, the push companion and the tests import of the push receiver.
export { botClientId, triggerClientId, MQTT_CLIENT_ID_MAX } from './client-id';
export { Batcher } from './batcher';
export { checkPushLogin } from './check-login';
export { createPushReceiver } from './create-receiver';
export { ExecutionTimeoutError, ExecutionWaits } from './execution-waits';
export * from './envelope';
export * from './errors';
export { normalizeDelivery, recordDigest, type DeliveryHints } from './normalize';
export * from './types';
