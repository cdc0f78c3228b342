/**
@module
Push notifications (A2A spec §4.3.3): a task's push configs, and the webhook POST of each of its status
changes to every one of them, loopback hosts only.
*/

import { randomId } from './ids.js';
import type { Lifecycle } from './lifecycle.js';
import type { Serializer } from './serializer.js';
import type { TaskStore } from './store.js';
import type { TaskRecord } from './task-record.js';
import type { PushConfigInput } from './validate.js';
import type { TaskPushNotificationConfig } from './wire.js';

/** How long one webhook POST may take before it is abandoned. */
export const webhookTimeoutMs = 5000;

/**
True when a webhook URL's host is a literal loopback address, 127.0.0.0/8 or [::1], after WHATWG URL parsing
(so `127.1` and `0x7f000001` count). Names such as `localhost` do not: resolving them is outside the agent's
control. The mock POSTs to no other host, so a test can never make it call the outside world.

@example
```ts
isLoopbackUrl('http://127.0.0.1:9000/hook'); // true
isLoopbackUrl('http://[::1]/hook'); // true
isLoopbackUrl('http://localhost/hook'); // false
```
*/
export function isLoopbackUrl(url: string): boolean {
  if (!URL.canParse(url)) {
    return false;
  }
  const { hostname } = new URL(url);
  return hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Push configs and webhook delivery over one agent's tasks. */
export type Push = {
  /** Store a client's push config on the task, with a fresh id unless it names one. */
  addPushConfig(record: TaskRecord, input: PushConfigInput): TaskPushNotificationConfig & { id: string };
  /** POST the task as it now stands to one config's webhook, after that config's earlier deliveries. */
  deliver(record: TaskRecord, config: TaskPushNotificationConfig): void;
};

/** What push delivery needs from the agent. */
export type PushOptions = {
  readonly store: TaskStore;
  readonly lifecycle: Lifecycle;
  /** Prints each webhook body in the agent's style. @default as it is */
  readonly print?: Serializer;
};

/**
Creates push delivery for one agent: from now on, every status change of a task is delivered to its push
configs.

@example
```ts
const push = createPush({ store, lifecycle });
push.deliver(record, push.addPushConfig(record, { id: undefined, url: 'http://127.0.0.1:9000/hook', token: undefined, authentication: undefined }));
```
*/
export function createPush(options: PushOptions): Push {
  const { store, lifecycle, print = (_type, value) => value } = options;
  const { after, onClose } = lifecycle;

  const chains = new Map<string, Promise<void>>();

  async function post(config: TaskPushNotificationConfig, body: string): Promise<void> {
    if (lifecycle.closed) {
      return;
    }
    const { authentication, token } = config;
    const headers = {
      'content-type': 'application/a2a+json',
      // A2A spec §4.3.3: `Authorization: <scheme> <credentials>`.
      ...(authentication === undefined
        ? {}
        : { authorization: `${authentication.scheme} ${authentication.credentials ?? ''}`.trim() }),
      // v1.0 says nothing about how the token travels; this is the header of v0.3 and of the official JS SDK.
      ...(token === undefined ? {} : { 'x-a2a-notification-token': token }),
    };
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    const cancelTimeout = after(webhookTimeoutMs, abort);
    onClose.add(abort);
    try {
      // Looked up at call time, never captured, so MSW and test spies see every delivery; a redirect is never
      // followed off loopback.
      const response = await globalThis.fetch(config.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: controller.signal,
      });
      await response.body?.cancel();
    } catch {
      // Delivery is at-most-once and best effort: a webhook that fails misses this event, and the task goes
      // on.
    } finally {
      cancelTimeout();
      onClose.delete(abort);
    }
  }

  function deliver(record: TaskRecord, config: TaskPushNotificationConfig): void {
    if (!isLoopbackUrl(config.url)) {
      return;
    }
    // The webhook body is one StreamResponse in its HTTP+JSON form (A2A spec §4.3.3): the whole task as it
    // now stands.
    const body = JSON.stringify(
      print('StreamResponse', { task: store.view(record, { artifacts: 'when-present' }) }),
    );
    const chainKey = JSON.stringify([record.tenant, record.task.id, config.id]);
    // One config's POSTs go out one after another, so the webhook sees the states in order.
    const chain = (chains.get(chainKey) ?? Promise.resolve()).then(() => post(config, body));
    chains.set(chainKey, chain);
    void chain.then(() => {
      if (chains.get(chainKey) === chain) {
        chains.delete(chainKey);
      }
    });
  }

  store.subscribeAll((event, record) => {
    if ('statusUpdate' in event) {
      for (const config of record.pushConfigs.values()) {
        deliver(record, config);
      }
    }
  });

  function addPushConfig(
    record: TaskRecord,
    input: PushConfigInput,
  ): TaskPushNotificationConfig & { id: string } {
    const config = {
      id: input.id ?? randomId(),
      taskId: record.task.id,
      url: input.url,
      ...(input.token === undefined ? {} : { token: input.token }),
      ...(input.authentication === undefined ? {} : { authentication: input.authentication }),
    };
    store.putPushConfig(record, config);
    return config;
  }

  return { addPushConfig, deliver };
}
