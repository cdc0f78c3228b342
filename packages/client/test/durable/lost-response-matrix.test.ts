/**
The lost-response matrix (docs/durable-send.md#what-the-tests-prove): every fault of the mock agent's fault
lab, armed on the durable send's one SendMessage, × the two HTTP bindings (gRPC:
`lost-response-matrix-grpc.test.ts`, the same table on the mock's gRPC mount) × each delivery mode with its
recovery × a peer that honours keys and one that does not. The mock's execution counter is the ground truth:
at most one execution per logical send, always; exactly one once reconciled wherever evidence exists; and the
ledger's final state says what the agent did.

The delivery × peer rows:
- at-most-once with the context-history scan, against an honouring and a foreign peer (keys play no part: the
  scan is the evidence);
- keyed with keyed replay, against an honouring peer; against a foreign one the agent refuses to be built (a
  foreign peer would run a re-sent keyed message again);
- message-id-deduplicated with the attested replay, against a peer that deduplicates messageIds (the mock
  behind a deduplicating front, the peer the attestation describes). Against a peer that does not, the
  attestation would be false; `durable.test.ts` shows the replay then runs twice, which is why the mode needs
  one.
*/
import { afterAll, beforeAll } from 'vitest';
import { bindings, server } from '../support/durable-peers.js';
import { describeMatrix } from '../support/lost-response-matrix.js';

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

for (const binding of bindings) {
  describeMatrix(binding);
}
