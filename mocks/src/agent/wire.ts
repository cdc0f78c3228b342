/**
The A2A wire types this agent writes. They are the client's decoded types (one definition of the protocol for
the whole repository), relaxed in the few places where the client reads a missing field as its default:
ProtoJSON leaves out empty lists and `false` flags (A2A spec §5.5; docs/protocol-checks.md#protojson), and so
does this agent.
*/
import type {
  AgentCapabilities,
  AgentCard,
  ListTasksResponse,
  Message,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from '@surecall/client/protocol';

export type {
  AgentSkill,
  AuthenticationInfo,
  ListTaskPushNotificationConfigsResponse,
  Message,
  Part,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatus,
} from '@surecall/client/protocol';

/** `T` with the fields `K` made optional: the ones a ProtoJSON writer may leave out at their default. */
type Omitting<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** A task as written: `history` is left out when it is empty or `historyLength` is 0 (A2A spec §3.2.4). */
export type WireTask = Omitting<Task, 'history'>;

/** An artifact chunk as written: `append` and `lastChunk` are left out when false. */
export type WireArtifactUpdate = Omitting<TaskArtifactUpdateEvent, 'append' | 'lastChunk'>;

/** One stream event, or one webhook body, as written (A2A spec §3.1.2, §4.3.3). */
export type WireStreamResponse =
  | { readonly task: WireTask }
  | { readonly message: Message }
  | { readonly statusUpdate: TaskStatusUpdateEvent }
  | { readonly artifactUpdate: WireArtifactUpdate };

/** A ListTasks page as written (A2A spec §3.1.4). */
export type WireListTasksResponse = Omit<ListTasksResponse, 'tasks'> & { tasks: WireTask[] };

/**
An agent card as written: `securityRequirements` and `signatures` may be left out, and empty `extensions` are
not sent.
*/
export type WireAgentCard = Omit<
  Omitting<AgentCard, 'securityRequirements' | 'signatures'>,
  'capabilities'
> & {
  capabilities: Omitting<AgentCapabilities, 'extensions'>;
};
