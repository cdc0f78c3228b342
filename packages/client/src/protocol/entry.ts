/**
@module
`@surecall/client/protocol`: the A2A v1.0 protocol as data, for code that reads or writes the wire without a
client (a test agent, a proxy, a log viewer): the strict parsers, the error table, the task states, the
contract bounds, the table of the 11 operations and the gRPC service's messages with the proto's compiled
descriptors, with their types. The zod schemas behind the parsers stay
internal (CONTRIBUTING.md#library-boundaries).
*/

/* Parsers: each pair throws, or returns `{ ok, value }` / `{ ok, error }` */

export type { DecodeFailure, DecodeResult } from './decode.js';
export {
  parseAgentCard,
  parseMessage,
  parseTask,
  safeParseAgentCard,
  safeParseMessage,
  safeParseTask,
} from './decode.js';

/* Errors: the A2A error table and the ErrorInfo detail that carries a reason */

export type { A2aErrorEntry, A2aErrorName } from './error-codes.js';
export { a2aErrors, errorDomain, errorInfoType } from './error-codes.js';
export { errorByCode, errorByReason } from './error-envelope.js';

/* Operations: the one table of the 11 operations, keyed by client method */

export type {
  Capability,
  ClientMethod,
  HttpMethod,
  Operation,
  OperationName,
  OperationRequest,
  OperationResponse,
} from './operations.js';
export { operationNames, operations } from './operations.js';

/* gRPC: the proto as descriptor data and the service's messages (A2A spec §10), for a gRPC peer of its own */

export { a2aProtoDescriptor, errorDetailsProtoDescriptor, statusProtoDescriptor } from './grpc-descriptor.js';
export type { GrpcMessages } from './grpc-service.js';
export { grpcMessages, grpcServiceName } from './grpc-service.js';

/* Tasks, time and bounds */

export type { ContractBounds } from './bounds.js';
export { contractBounds } from './bounds.js';
export { interruptedStates, terminalStates } from './task.js';
export { compareTimestamps } from './timestamp-order.js';

/* The wire types, inferred from the schemas */

export type {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
} from './agent-card.js';
export type { JsonObject, JsonValue } from './json-value.js';
export type { Message, Part, Role } from './message.js';
export type { AuthenticationInfo, TaskPushNotificationConfig } from './push.js';
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
} from './requests.js';
export type { OAuthFlows, SecurityRequirement, SecurityScheme } from './security-scheme.js';
export type { SendMessageConfiguration, SendMessageRequest, SendMessageResponse } from './send-message.js';
export type { StreamResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from './stream.js';
export type { Artifact, Task, TaskState, TaskStatus } from './task.js';
export type { Timestamp } from './timestamp.js';
