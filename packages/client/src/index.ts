/**
@module
surecall: an A2A v1.0 client that records every send before it leaves, checks every answer strictly, and
resolves every ambiguous outcome by evidence, never by a blind re-send.

This entry holds what an application needs to call an agent. The rest has its own entry:
`@surecall/client/ledger` (the durable stores; export conditions pick IndexedDB in browsers and the journal
file in Node), `@surecall/client/protocol` (parsers, the error table, the operation table) and
`@surecall/client/idempotency` (the agent's half of the key extension). Anything else is internal;
`test/exports.test.ts` lists every entry's names, so a new one is a reviewed change.
*/

/* Client */

export type { FetchFunction } from './bindings/binding.js';
export type { CallOptions } from './client/call.js';
export type { A2aClient, SendMessageResult } from './client/client.js';
export { createClient } from './client/client.js';
export type {
  ClientOptions,
  HeaderContext,
  HeadersOption,
  Interceptor,
  InterceptorAnswer,
  ProtocolVersion,
} from './client/options.js';
export type { OperationParams } from './client/outbound.js';
export type { InterfacePin } from './client/pin.js';
export type {
  ProtocolBinding,
  SecurityOptions,
  TokenAttempt,
  TokenContext,
  TokenProvider,
} from './client/security.js';
export type { ClientMethod, OperationName } from './protocol/operations.js';

/* Messages and parts */

export type { MessageOptions, PartOptions } from './client/builders.js';
export { dataPart, fileUrlPart, textPart, userMessage } from './client/builders.js';

/* Discovery */

export { cardDigest } from './discovery/digest.js';
export type {
  CardTrust,
  DiscoverOptions,
  FetchAgentCardOptions,
  FetchedAgentCard,
} from './discovery/discovery.js';
export { discover, fetchAgentCard } from './discovery/discovery.js';
export type {
  CardSignatureAlgorithm,
  CardSignatureCheck,
  CardSignatureFailure,
  CardSignatureKeyRequest,
  CardSignatureKeyResolver,
} from './discovery/signature.js';
export { verifyCardSignature } from './discovery/signature.js';

/* Remote skills as typed functions (Standard Schema validators) */

// Listed ahead of the durable sends they run on: a bundler lays modules out in the order it meets them, and
// the root entry's bundle is 0.09 kB smaller gzipped with the skill's own modules met first
// (CONTRIBUTING.md#packages-and-size).

export type {
  CompletionOptions,
  RemoteSkill,
  RemoteSkillOptions,
  SkillCallOptions,
  SkillCompletion,
  SkillIssue,
  SkillMedia,
  SkillOutcome,
  SkillTask,
} from './durable/remote-skill.js';
export { remoteSkill, skillMetadataKey } from './durable/remote-skill.js';

/* Bounds */

export type { Limits, LimitsOptions } from './core/limits.js';
export { defaultLimits } from './core/limits.js';

/* Inspector events */

export type {
  ClientErrorEvent,
  ClientEvent,
  ClientEventBase,
  ClientEventListener,
  ClientEvents,
  ClientRequestEvent,
  ClientResponseEvent,
  ClientRetryEvent,
  DiscoveryEvent,
  StreamBreakEvent,
  StreamBreakReason,
  StreamEndEvent,
  StreamEventKind,
  StreamFrameEvent,
  StreamResumeEvent,
} from './client/events.js';

/* Idempotency keys and retries; the agent's half is in '@surecall/client/idempotency' */

export type { ResumeOptions } from './client/resumption.js';
export type { Delegation, DelegationOptions, DelegationOutcome } from './durable/delegation.js';
export { startDelegation } from './durable/delegation.js';
export type { KeyError, KeyedMessage, KeyResult } from './idempotency/key.js';
export { honoursIdempotency, keyOf, newIdempotencyKey, setKey } from './idempotency/key.js';
export type { RetryPolicyOptions } from './idempotency/retry.js';

/* Durable sends; the ledger stores and the record types are in '@surecall/client/ledger' */

export type {
  DeduplicationAttestation,
  DurableAgent,
  DurableAgentOptions,
  DurableEvent,
  DurableEventListener,
  DurableEvents,
  DurableMessage,
  DurableOutcome,
  DurableProbeEvent,
  DurableSendOptions,
  DurableStatus,
  DurableTransitionEvent,
  ProbeKind,
  ProbeResult,
  ProbeRule,
  ReconcileOptions,
  RecordScope,
  RecoveryStrategy,
} from './durable/agent.js';
export { durableAgent } from './durable/agent.js';
export type {
  DurableDuplicatedEvent,
  DurableProbePageEvent,
  DurableProbeStartEvent,
} from './durable/events.js';

/* Task states */

export { isInterrupted, isTerminal } from './protocol/task.js';

/* Errors */

export type { CanonicalJsonReason } from './core/canonical-json.js';
export { CanonicalJsonError } from './core/canonical-json.js';
export type {
  AuthorizationReason,
  ClientError,
  DiscoveryDetail,
  DiscoveryFix,
  DiscoveryReason,
  EndpointRule,
  ErrorKind,
  HttpProtocolReason,
  InvalidResponseReason,
  LedgerReason,
  OptionsReason,
  RemoteText,
  RequestReason,
  TransportReason,
  Violation,
} from './core/errors.js';
export {
  AuthorizationError,
  CapabilityError,
  DiscoveryError,
  ExchangeError,
  HttpProtocolError,
  InvalidResponseError,
  isClientError,
  LedgerError,
  OptionsError,
  RemoteError,
  RequestError,
  TransportError,
} from './core/errors.js';

/* The wire types a client's calls take and return; the parsers are in '@surecall/client/protocol' */

export type {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
} from './protocol/agent-card.js';
export type { JsonObject, JsonValue } from './protocol/json-value.js';
export type { Message, Part, Role } from './protocol/message.js';
export type { AuthenticationInfo, TaskPushNotificationConfig } from './protocol/push.js';
export type {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SubscribeToTaskRequest,
} from './protocol/requests.js';
export type { OAuthFlows, SecurityRequirement, SecurityScheme } from './protocol/security-scheme.js';
export type {
  SendMessageConfiguration,
  SendMessageRequest,
  SendMessageResponse,
} from './protocol/send-message.js';
export type { StreamResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from './protocol/stream.js';
export type { Artifact, Task, TaskState, TaskStatus } from './protocol/task.js';
export type { Timestamp } from './protocol/timestamp.js';
