/**
@module
The malformed-answer faults (internal to `faults.ts`): changes to one JSON document, a unary body or one
frame's data, at the JSON-RPC envelope or in the result it carries. A document the fault does not fit comes
back unchanged.
*/

import { protoEnums } from '../agent/serializer.js';
import type { Call, FaultSpec, ForeignMessageIdsFault } from './fault-types.js';

/**
A JSON object, seen through the members the lab reads or rewrites; every other member passes through
untouched.
*/
export type JsonObject = {
  id?: unknown;
  contextId?: unknown;
  taskId?: unknown;
  role?: unknown;
  parts?: unknown;
  text?: unknown;
  status?: unknown;
  history?: unknown;
  message?: unknown;
  task?: unknown;
  tasks?: unknown;
  statusUpdate?: unknown;
  artifactUpdate?: unknown;
  artifacts?: unknown;
  artifact?: unknown;
  data?: unknown;
  result?: unknown;
  error?: unknown;
  method?: unknown;
  kind?: unknown;
  [member: string]: unknown;
};

/** A plain JSON object. */
export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The faults whose change is to one JSON document: a unary body or one frame's data. */
export type DocumentFault = Extract<
  FaultSpec,
  {
    kind:
      | 'duplicate-keys'
      | 'wrong-jsonrpc-id'
      | 'result-and-error'
      | 'two-union-members'
      | 'blocking-submitted'
      | 'different-task-id'
      | 'altered-history'
      | 'altered-data'
      | 'foreign-message-ids';
  }
>;

/** True for the faults that change one JSON document. */
export function rewritesDocuments(spec: FaultSpec): spec is DocumentFault {
  switch (spec.kind) {
    case 'duplicate-keys':
    case 'wrong-jsonrpc-id':
    case 'result-and-error':
    case 'two-union-members':
    case 'blocking-submitted':
    case 'different-task-id':
    case 'altered-history':
    case 'altered-data':
    case 'foreign-message-ids':
      return true;
    default:
      return false;
  }
}

/** The index of the frame a document fault rewrites in a stream. */
export function frameOf(spec: DocumentFault): number {
  return 'frame' in spec && spec.frame !== undefined ? spec.frame : 0;
}

/** Where a document rewrite applies: to which operation's answer, for which fault. */
export type DocumentRewrite = { readonly call: Call; readonly spec: DocumentFault };

// The members the lab reads, whatever serializer style printed them (mocks/src/agent/serializer.ts): their
// proto field names become JSON names and enum numbers names, outside `metadata` and `data`, whose content is
// the sender's. A rewritten document is written back so, which every ProtoJSON parser reads too.
const enumNames: Readonly<Record<string, readonly string[]>> = {
  role: protoEnums.Role,
  state: protoEnums.TaskState,
};

// The proto names of the members the lab reads (see JsonObject).
const jsonNames: Readonly<Record<string, string>> = {
  context_id: 'contextId',
  task_id: 'taskId',
  status_update: 'statusUpdate',
  artifact_update: 'artifactUpdate',
};

function canonicalNames(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(canonicalNames);
  }
  if (!isRecord(value)) {
    return value;
  }
  const out: JsonObject = {};
  for (const [key, member] of Object.entries(value)) {
    const name = jsonNames[key] ?? key;
    const names = enumNames[name];
    out[name] =
      name === 'metadata' || name === 'data'
        ? member
        : names !== undefined && typeof member === 'number'
          ? (names[member] ?? member)
          : canonicalNames(member);
  }
  return out;
}

/** Rewrite one JSON document; a document the fault does not fit comes back unchanged. */
export function rewriteDocument(
  text: string,
  { status, call, spec }: DocumentRewrite & { readonly status: number },
): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isRecord(parsed)) {
    return text;
  }
  // Faults that read the result see it in JSON names; the envelope faults change the document and nothing
  // else.
  const readsResult =
    spec.kind !== 'duplicate-keys' && spec.kind !== 'wrong-jsonrpc-id' && spec.kind !== 'result-and-error';
  const document = readsResult ? (canonicalNames(parsed) as JsonObject) : parsed;
  if (call.binding === 'JSONRPC') {
    return rewriteEnvelope(document, spec) ?? text;
  }
  // HTTP+JSON answers are the bare result (A2A spec, §11.3); an error status carries an error body, not a
  // result.
  if (status < 200 || status > 299 || spec.kind === 'wrong-jsonrpc-id' || spec.kind === 'result-and-error') {
    return text;
  }
  if (spec.kind === 'duplicate-keys') {
    return duplicateFirstKey(document) ?? text;
  }
  return rewriteResult(document, spec) ? JSON.stringify(document) : text;
}

/**
JSON-RPC 2.0, §5: an answer holds exactly one of `result` and `error`, and echoes the request `id` (in every
stream event too, A2A spec §9.4.2).
*/
function rewriteEnvelope(envelope: JsonObject, spec: DocumentFault): string | undefined {
  switch (spec.kind) {
    case 'wrong-jsonrpc-id': {
      const id = envelope.id;
      envelope.id = typeof id === 'number' ? id + 1_000_000 : `${String(id)}-wrong`;
      return JSON.stringify(envelope);
    }
    case 'result-and-error': {
      if ('result' in envelope && !('error' in envelope)) {
        envelope.error = { code: -32603, message: 'Internal error' };
      } else if ('error' in envelope && !('result' in envelope)) {
        envelope.result = {};
      }
      return JSON.stringify(envelope);
    }
    case 'duplicate-keys': {
      const result = envelope.result;
      const raw = isRecord(result) ? duplicateFirstKey(result) : undefined;
      return raw === undefined ? undefined : stringifyWithRaw(envelope, { key: 'result', raw });
    }
    default: {
      const result = envelope.result;
      return isRecord(result) && rewriteResult(result, spec) ? JSON.stringify(envelope) : undefined;
    }
  }
}

function duplicateFirstKey(object: JsonObject): string | undefined {
  const first = Object.entries(object)[0];
  if (first === undefined) {
    return undefined;
  }
  const [key, value] = first;
  return `{${JSON.stringify(key)}:${JSON.stringify(value)},${JSON.stringify(object).slice(1)}`;
}

/** `JSON.stringify`, except that one member's value is written as the given text. */
function stringifyWithRaw(
  object: JsonObject,
  member: { readonly key: string; readonly raw: string },
): string {
  const members = Object.entries(object).map(
    ([key, value]) => `${JSON.stringify(key)}:${key === member.key ? member.raw : JSON.stringify(value)}`,
  );
  return `{${members.join(',')}}`;
}

const unionMembers = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

/** The Task objects a result holds: a bare Task (GetTask, CancelTask), `{task}`, or ListTasks' `tasks`. */
function tasksIn(result: JsonObject): JsonObject[] {
  if (typeof result.id === 'string' && isRecord(result.status)) {
    return [result];
  }
  const task = result.task;
  if (isRecord(task)) {
    return [task];
  }
  const tasks = result.tasks;
  return Array.isArray(tasks) ? tasks.filter(isRecord) : [];
}

// A v0.3 agent's result is the bare object, told apart by `kind` (mocks/src/v03/answers.ts); seen as the v1.0
// member that holds it, the same object, every rewrite below changes it in place.
const v03Members: Readonly<Record<string, (typeof unionMembers)[number]>> = {
  task: 'task',
  message: 'message',
  'status-update': 'statusUpdate',
  'artifact-update': 'artifactUpdate',
};

/** Change a result in place; says whether anything changed. */
function rewriteResult(raw: JsonObject, spec: DocumentFault): boolean {
  const member = typeof raw.kind === 'string' ? v03Members[raw.kind] : undefined;
  const result: JsonObject = member === undefined ? raw : { [member]: raw };
  switch (spec.kind) {
    case 'two-union-members':
      // v0.3's union is its `kind`: a second member has nothing to be told apart by, so a v0.3 answer passes.
      return member === undefined && addUnionMember(result);
    case 'blocking-submitted': {
      const task = result.task;
      if (!isRecord(task)) {
        return false;
      }
      const state = member === undefined ? 'TASK_STATE_SUBMITTED' : 'submitted';
      task.status = { ...(isRecord(task.status) ? task.status : {}), state };
      return true;
    }
    case 'different-task-id':
      return substituteTaskId(result, spec.taskId);
    case 'altered-history':
      return alterHistory(result, spec.text);
    case 'altered-data':
      return alterData(result, spec.data ?? defaultAlteredData);
    case 'foreign-message-ids':
      return foreignMessageIds(result, spec);
    default:
      return false;
  }
}

/**
A send result or stream event is a proto `oneof payload`: exactly one member is present, and that member is
what it is (A2A spec, Appendix A.2.1). Add a second, well-formed one.
*/
function addUnionMember(result: JsonObject): boolean {
  const present = unionMembers.filter((member) => isRecord(result[member]));
  const [member] = present;
  const value = member === undefined ? undefined : result[member];
  if (present.length !== 1 || !isRecord(value)) {
    return false;
  }
  const taskId = member === 'task' ? value.id : value.taskId;
  const contextId = value.contextId;
  if (member === 'task') {
    result.message = {
      messageId: 'fault-lab-extra-message',
      role: 'ROLE_AGENT',
      parts: [{ text: 'added by the fault lab' }],
      ...(typeof contextId === 'string' ? { contextId } : {}),
      ...(typeof taskId === 'string' ? { taskId } : {}),
    };
  } else {
    result.task = {
      id: typeof taskId === 'string' ? taskId : 'fault-lab-extra-task',
      contextId: typeof contextId === 'string' ? contextId : 'fault-lab-extra-context',
      status: { state: 'TASK_STATE_WORKING' },
    };
  }
  return true;
}

function substituteTaskId(result: JsonObject, replacement: string | undefined): boolean {
  const [task] = tasksIn(result);
  if (task !== undefined && typeof task.id === 'string') {
    const id = replacement ?? `${task.id}-substituted`;
    task.id = id;
    // The messages move with the task, so the id is the only thing that gives the substitution away.
    const status = task.status;
    const messages = [...(Array.isArray(task.history) ? task.history : [])];
    if (isRecord(status) && isRecord(status.message)) {
      messages.push(status.message);
    }
    for (const message of messages) {
      if (isRecord(message) && 'taskId' in message) {
        message.taskId = id;
      }
    }
    return true;
  }
  for (const member of ['statusUpdate', 'artifactUpdate'] as const) {
    const event = result[member];
    if (isRecord(event) && typeof event.taskId === 'string') {
      event.taskId = replacement ?? `${event.taskId}-substituted`;
      return true;
    }
  }
  return false;
}

function alterHistory(result: JsonObject, replacement: string | undefined): boolean {
  for (const task of tasksIn(result)) {
    const history = Array.isArray(task.history) ? task.history : [];
    for (const message of history) {
      const user = isRecord(message) && (message.role === 'ROLE_USER' || message.role === 'user');
      const parts = isRecord(message) ? partsOf(message) : undefined;
      if (!user || parts === undefined) {
        continue;
      }
      const part = parts.find(
        (candidate): candidate is JsonObject => isRecord(candidate) && typeof candidate.text === 'string',
      );
      if (part !== undefined) {
        part.text = replacement ?? `${String(part.text)} (altered)`;
        return true;
      }
    }
  }
  return false;
}

const defaultAlteredData = { 'fault-lab': 'altered' };

/**
The parts of what the agent produced in a result: a reply message, each task's artifacts, an artifact update's
artifact; never the history, whose messages are the caller's or earlier ones.
*/
function outputParts(result: JsonObject): unknown[] {
  const holders: unknown[] = [result.message];
  for (const task of tasksIn(result)) {
    holders.push(...(Array.isArray(task.artifacts) ? task.artifacts : []));
  }
  const update = result.artifactUpdate;
  if (isRecord(update)) {
    holders.push(update.artifact);
  }
  return holders.flatMap((holder) => (isRecord(holder) ? (partsOf(holder) ?? []) : []));
}

/**
A message's or an artifact's parts: `parts`, or `content` for a message of the v0.3 proto's JSON (the v0.3
HTTP+JSON routes, mocks/src/v03/proto-json.ts).
*/
function partsOf(holder: JsonObject): unknown[] | undefined {
  const parts = holder.parts ?? holder['content'];
  return Array.isArray(parts) ? parts : undefined;
}

function alterData(result: JsonObject, replacement: unknown): boolean {
  let changed = false;
  for (const part of outputParts(result)) {
    if (isRecord(part) && 'data' in part) {
      // The v0.3 proto's DataPart nests its value as `{ data: { data } }`; the nesting is kept, so the part
      // stays one its reader decodes and only the data differs.
      const nested = isRecord(part.data) && Object.keys(part.data).length === 1 && 'data' in part.data;
      part.data = nested ? { data: replacement } : replacement;
      changed = true;
    }
  }
  return changed;
}

/** The messages of a result in the places a `foreign-message-ids` fault names. */
function messagesIn(result: JsonObject, where: ForeignMessageIdsFault['where']): unknown[] {
  const found: unknown[] = [];
  if (where === undefined || where === 'reply') {
    found.push(result.message);
  }
  const statuses: unknown[] = tasksIn(result).map((task) => task.status);
  const update = result.statusUpdate;
  if (isRecord(update)) {
    statuses.push(update.status);
  }
  if (where === undefined || where === 'status') {
    found.push(...statuses.map((status) => (isRecord(status) ? status.message : undefined)));
  }
  if (where === undefined || where === 'history') {
    for (const task of tasksIn(result)) {
      found.push(...(Array.isArray(task.history) ? task.history : []));
    }
  }
  return found.filter(isRecord);
}

function foreignMessageIds(result: JsonObject, spec: ForeignMessageIdsFault): boolean {
  const member = spec.member ?? 'contextId';
  const messages = messagesIn(result, spec.where) as JsonObject[];
  for (const message of messages) {
    const own = message[member];
    message[member] = typeof own === 'string' && own !== '' ? `${own}-foreign` : 'fault-lab-foreign';
  }
  return messages.length > 0;
}
