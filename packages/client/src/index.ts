/**
@module
surecall: an A2A v1.0 client that records every send before it leaves, checks every answer strictly, and resolves every ambiguous outcome by evidence, never by a blind re-send.
*/

export type { CallOptions } from './call.js';
export type { A2aClient, SendMessageResult } from './client.js';
export { createClient } from './client.js';
export type { CanonicalJsonReason } from './core/canonical-json.js';
export { CanonicalJsonError, canonicalJson } from './core/canonical-json.js';
// The ledger's model; its stores are reached through '@surecall/client/ledger' (export conditions pick IndexedDB or the file).
export type {
  AuthorizationReason,
  ClientError,
  DiscoveryDetail,
  DiscoveryReason,
  EndpointRule,
  ErrorKind,
  HttpProtocolReason,
  InvalidResponseReason,
  LedgerReason,
  OptionsReason,
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
export type { Limits, LimitsOptions } from './core/limits.js';
export { defaultLimits, limitCeilings, resolveLimits } from './core/limits.js';
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
export { cardSignaturePayload, verifyCardSignature } from './discovery/signature.js';
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
  RecoveryStrategy,
} from './durable/agent.js';
export { attemptMessagePrefix, durableAgent, sendMessagePrefix } from './durable/agent.js';
export type { DurableProbePageEvent, DurableProbeStartEvent } from './durable/events.js';
export { defaultDurableAgentOptions, recoveryCeilings } from './durable/options.js';
export type { ProbeFailure, SendFailure } from './durable/outcome.js';
export { classifyProbeFailure, classifySendFailure, statusOf } from './durable/outcome.js';
export { recoveryContextId, recoveryContextPrefix } from './durable/recovery.js';
export type {
  ClientErrorEvent,
  ClientEvent,
  ClientEventBase,
  ClientEventListener,
  ClientEvents,
  ClientRequestEvent,
  ClientResponseEvent,
  ClientRetryEvent,
  StreamEndEvent,
  StreamEventKind,
  StreamFrameEvent,
} from './events.js';
export type { Delegation, DelegationOptions, DelegationOutcome } from './idempotency/delegation.js';
export { startDelegation } from './idempotency/delegation.js';
export type { KeyError, KeyedMessage, KeyResult } from './idempotency/key.js';
export {
  declaresExtension,
  honoursIdempotency,
  idempotencyExtensionUri,
  idempotencyMetadataKey,
  keyErrorText,
  keyOf,
  maxKeyLength,
  minKeyLength,
  newIdempotencyKey,
  setKey,
  validateKey,
} from './idempotency/key.js';
export type { RetryPolicy, RetryPolicyOptions } from './idempotency/retry.js';
// runWithRetry and its notices stay internal: the client runs the loop.
export {
  carriesIdempotencyKey,
  defaultRetryPolicy,
  isDefiniteRejection,
  isFinalError,
  isRetryableError,
  notAppliedCodes,
  resolveRetryPolicy,
  retryDelayMs,
  shouldRetry,
} from './idempotency/retry.js';
export type {
  AgentIdentity,
  Attempt,
  DeliveryMode,
  ErrorSummary,
  FailureEffect,
  HistoryVerification,
  Ledger,
  LedgerChange,
  LedgerFilter,
  LedgerOptions,
  LedgerRecord,
  LedgerRevision,
  LedgerState,
  LedgerStatus,
  LedgerTransition,
  ResultSummary,
  SendIntent,
  UnknownReason,
} from './ledger/ledger.js';
export {
  applyTransition,
  attemptMessage,
  errorSummary,
  revisionDigest,
  verifyHistory,
} from './ledger/ledger.js';
export type { ClientOptions, InterfacePin } from './options.js';
export { defaultClientOptions } from './options.js';
export type { OperationParams } from './outbound.js';
export type {
  A2aErrorEntry,
  A2aErrorName,
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
  Artifact,
  AuthenticationInfo,
  CancelTaskRequest,
  ClientMethod,
  DecodeFailure,
  DecodeResult,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  JsonObject,
  JsonValue,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  OAuthFlows,
  OperationName,
  Part,
  Role,
  SecurityRequirement,
  SecurityScheme,
  SendMessageConfiguration,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
  Timestamp,
} from './protocol/index.js';
// The zod schemas stay internal (house-style rule 7): callers get the inferred types and the parser pairs.
export {
  a2aErrors,
  compareTimestamps,
  contractBounds,
  errorByCode,
  errorByReason,
  errorDomain,
  errorInfoType,
  interruptedStates,
  isInterrupted,
  isTerminal,
  operationNames,
  parseAgentCard,
  parseMessage,
  parseTask,
  safeParseAgentCard,
  safeParseMessage,
  safeParseTask,
  terminalStates,
} from './protocol/index.js';
export type {
  ProtocolBinding,
  SecurityOptions,
  TokenAttempt,
  TokenContext,
  TokenProvider,
} from './security.js';
