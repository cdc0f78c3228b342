/**
@module
The A2A v1.0 wire types for the rest of the client: ProtoJSON schemas (`zod/mini`, imported nowhere else), the types inferred from them, the error table and the operation table. The error table (`error-codes.ts`), a peer's error shapes (`error-envelope.ts`), the schemas of every operation (`operation-schemas.ts`) and the values of the requests and stream events beside SendMessage's are imported from their own files, by the code that loads with those operations: a bundler that splits by file (esbuild) follows every re-export of a barrel, so a name re-exported here would be on the path of every call. This is an internal barrel; the package's public names are chosen in `src/index.ts` and, for `@surecall/client/protocol`, in `entry.ts`.
*/

export {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
} from './agent-card.js';
export type { ContractBounds } from './bounds.js';
export { contractBounds } from './bounds.js';
export type { DecodeFailure, DecodeResult } from './decode.js';
export {
  decode,
  decodeOrThrow,
  parseAgentCard,
  parseMessage,
  parseTask,
  safeParseAgentCard,
  safeParseMessage,
  safeParseTask,
} from './decode.js';
export type { A2aErrorEntry, A2aErrorName } from './error-codes.js';
export type { JsonObject, JsonValue } from './json-value.js';
export { isJsonObject } from './json-value.js';
export { Message, Part, Role } from './message.js';
export type {
  Capability,
  ClientMethod,
  HttpMethod,
  Operation,
  OperationName,
  OperationRequest,
  OperationResponse,
} from './operations.js';
// The operation table joins the routes, which only the HTTP+JSON binding reads (`routes.ts`): the client reads `methods.ts` and `routes.ts` by file.
export { canonical, jsonName } from './protojson.js';
export { AuthenticationInfo, TaskPushNotificationConfig } from './push.js';
// The other operations' schemas load with their first call (`operation-schemas.ts`): their values are imported by file, only their types pass through here.
export type {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  Empty,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SubscribeToTaskRequest,
} from './requests.js';
export type { ContractRule } from './scalars.js';
export { OAuthFlows, SecurityRequirement, SecurityScheme } from './security-scheme.js';
export { SendMessageConfiguration, SendMessageRequest, SendMessageResponse } from './send-message.js';
export type { StreamResponse, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from './stream.js';
export {
  Artifact,
  interruptedStates,
  isInterrupted,
  isTerminal,
  Task,
  TaskState,
  TaskStatus,
  terminalStates,
} from './task.js';
export { isAbsoluteUri, isAbsoluteUrl, isMediaType, utf8Length, withinBytes } from './text.js';
export { isTimestamp, Timestamp } from './timestamp.js';
