/**
@module
`@surecall/mocks`: a faithful reference A2A v1.0 agent and a lost-response fault lab, for your own tests as
much as ours. Mount it with MSW (`@surecall/mocks/node`, `@surecall/mocks/browser`), as a real loopback server
(`startMockAgent` from `@surecall/mocks/node`, or `npm run mock-agent`), or as a Playwright fixture
(`@surecall/mocks/playwright`).

@example
```ts
import { createAgent, createFaultLab, createMockHandle } from '@surecall/mocks';

const agent = createAgent({ mode: 'honouring' });
const faults = createFaultLab();
const handle = createMockHandle({ agent, faults });
faults.set({ operation: 'SendMessage', kind: 'drop-after' }); // the work happens, the answer is lost
```
*/
export type { AgentOptions, Executions, IdempotencyMode, MessageIds, MockAgent } from './agent/agent.js';
export { createAgent } from './agent/agent.js';
// The behaviours (`behaviours`, `maxBigKiB`, `maxSlowSeconds`, `slowTickMs`) stay internal: the agent card
// lists them as its skills, and a message's first word picks one.
export { agentCardPath, jsonRpcPath, restPath } from './agent/card.js';
// The key rules (`validateKey`, `keyOf`, `setKey`, the constants) are the client's: import them from
// `@surecall/client/idempotency` (`setKey` from `@surecall/client`), `idempotencyMetadataKey` among them. The
// extension's URI stays here too, since the tests that read the agent's card compare it.
export { idempotencyExtensionUri } from './agent/idempotency.js';
// The operations' names (`OperationName`, `operationNames`) are the client's: import them from
// `@surecall/client/protocol`. Push delivery's rules (`isLoopbackUrl`, `webhookTimeoutMs`) stay internal:
// `createAgent` says which webhooks are called. The agent's error table (`AgentError`, `agentErrors`,
// `jsonRpcError`, `restError`), its printer (`createSerializer`, `parseSerializerStyles`, `serializerStyles`)
// and its SSE framing (`encodeSseEvent`, `encodeSseStream`, `sseHeaders`) stay internal: a test sees them
// only as the agent's answers, and picks a printer with `AgentOptions.serializer`.
export type { SerializerStyle } from './agent/serializer.js';
export type {
  AlteredDataFault,
  AlteredHistoryFault,
  BadStatusDetailsFault,
  Binding,
  BlockingSubmittedFault,
  Call,
  CutStreamFault,
  DelayFault,
  DifferentTaskIdFault,
  DropAfterFault,
  DropBeforeFault,
  DuplicateKeysFault,
  FaultKind,
  FaultSpec,
  FaultSpecIssue,
  FaultSpecResult,
  FaultTarget,
  FrameTarget,
  Handle,
  Html413Fault,
  OversizedSseLineFault,
  PrematureEofFault,
  RedirectFault,
  ResultAndErrorFault,
  StatusAfterFault,
  TwoUnionMembersFault,
  WrongJsonRpcIdFault,
  WrongMediaTypeFault,
} from './faults/fault-types.js';
export type { ActiveFault, FaultId, FaultLab } from './faults/faults.js';
export { createFaultLab, parseFaultSpec, safeParseFaultSpec } from './faults/faults.js';
export type { MockHandleOptions, MockHandlersOptions } from './http/handlers.js';
export { createHandlers, createMockHandle } from './http/handlers.js';
