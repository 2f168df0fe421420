import { createPushReceiver } from './index';
import type { PushMessage, PushReceiverOptions } from './types';

/**
 * Listens until one message passes `wanted` (acknowledged) or `timeoutMs` passes, then closes:
 * the editor's "listen for test event". Undefined when nothing came in time.
 */
export async function receiveOne(options: PushReceiverOptions, wanted: (message: PushMessage) => boolean, timeoutMs: number): Promise<PushMessage | undefined> {
  const receiver = createPushReceiver(options);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<PushMessage | undefined>((resolve, reject) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
      receiver.on('end', (end) => (end.error ? reject(end.error) : resolve(undefined)));
      receiver.start((message) => {
        if (wanted(message)) resolve(message);
      }).catch(reject);
    });
  } finally {
    clearTimeout(timer);
    await receiver.close();
  }
}

/** Logs in and subscribes, then leaves: the credential's Test button. Consumes nothing. */
export async function checkPushLogin(options: PushReceiverOptions): Promise<void> {
  const receiver = createPushReceiver({ ...options, clientId: `dm-${options.userName}-check`, persistentSession: false, prefetch: 1 });
  try {
    await receiver.start(() => Promise.reject(new Error('login check only: the message stays with the broker')));
  } finally {
    await receiver.close();
  }
}
