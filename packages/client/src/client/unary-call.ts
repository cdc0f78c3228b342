/**
@module
The unary half of the call runner (ARCHITECTURE.md#layers-of-the-client, layer "client"): one call of an
operation that answers once, through the outbound contract and the retry policy (`call-context.ts`), its
answer checked (docs/protocol-checks.md#unary-answers) before the `response` event and the caller see it.
*/
import type { UnaryMethod } from '../bindings/binding.js';
import { carriesIdempotencyKey } from '../idempotency/retry.js';
import type { OperationRequest, OperationResponse } from '../protocol/operations.js';
import {
  attempts,
  begin,
  type CallKit,
  type CallOptions,
  elapsed,
  fail,
  prepare,
  report,
  start,
} from './call-context.js';

/**
The semantic check of one unary answer (docs/protocol-checks.md#unary-answers), given the request actually
sent. `replay` is true for the answer to a retry of a keyed send, which may be the first attempt's task in
whatever state it has reached (docs/idempotency.md#replays).
*/
export type UnaryCheck<N extends UnaryMethod> = (
  request: OperationRequest<N>,
  value: OperationResponse<N>,
  httpStatus: number,
  replay: boolean,
) => void | Promise<void>;

/** A unary answer as the caller receives it: when `replay` was true, the answer gains `replayed: true`. */
export type UnaryAnswer<N extends UnaryMethod> = OperationResponse<N> & { readonly replayed?: true };

/**
Runs one unary call of `operation` and returns its checked answer; throws what `fail` returns.

@example
```ts
const task = await unary(kit, 'getTask', { id: 't-1' }, undefined, (request, task) => checkTask(task, { id: request.id }));
```
*/
export async function unary<N extends UnaryMethod>(
  kit: CallKit,
  operation: N,
  params: unknown,
  options: CallOptions | undefined,
  check: UnaryCheck<N>,
): Promise<UnaryAnswer<N>> {
  const call = begin(kit, operation);
  try {
    const prepared = await prepare(kit, call, params, options);
    const keyed = carriesIdempotencyKey(operation, prepared.request, kit.resolved.honoursIdempotency);
    return await attempts(kit, call, keyed, options, async (number) => {
      call.attempt = number;
      const { value, httpStatus } = await start(kit, call, prepared, options, (sent, context) =>
        kit.binding.unary(operation, sent as OperationRequest<N>, context),
      );
      // docs/idempotency.md#replays: a keyed retry is answered with the key's task as it stands now, settled
      // or not.
      const replay = keyed && number > 1;
      // The page and push-config checks load with their operation's schemas, before the request left
      // (`client.ts`); the others run at once.
      const checking = check(prepared.request as OperationRequest<N>, value, httpStatus, replay);
      if (checking !== undefined) {
        await checking;
      }
      report(kit, call, () => ({
        type: 'response',
        stream: false,
        httpStatus,
        durationMs: elapsed(call),
      }));
      // Only a send can be keyed, and its answer is always an object.
      return (replay ? { ...value, replayed: true } : value) as UnaryAnswer<N>;
    });
  } catch (error) {
    throw fail(kit, call, error);
  }
}
