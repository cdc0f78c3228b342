/**
@module
The echo sends the `send-latency-*` rows time (bench/client.ts, bench/grpc.ts): a user message, and the
sampler that times `callsPerRun` of them one after the other.
*/
import { median, timeMs } from './harness.js';

/** How many sends one sampler run times. */
export const callsPerRun = 1000;

/** A user message of one text part, as both clients are handed it. */
export function userMessage(text: string) {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER' as const, parts: [{ text }] };
}

/**
A sampler: the median ms of one call over `callsPerRun` sequential sends, each checked to be the echo's direct
Message.

@example
```ts
const sample = sequentialSends(async () => 'message' in (await client.sendMessage({ message: userMessage('echo hi') })));
```
*/
export function sequentialSends(send: () => Promise<boolean>): () => Promise<number> {
  return async () => {
    const latencies: number[] = [];
    for (let call = 0; call < callsPerRun; call++) {
      let ok = false;
      latencies.push(
        await timeMs(async () => {
          ok = await send();
        }),
      );
      if (!ok) {
        throw new Error('bench: an echo send did not answer a direct Message');
      }
    }
    // The median, not the mean: on a shared machine a neighbour's burst stalls a few calls, not the typical
    // one.
    return median(latencies);
  };
}
