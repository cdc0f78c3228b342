/**
@module
How the agent prints its answers: the ProtoJSON styles real A2A servers use, so a client can be tried against
each (docs/interop.md#serializer-styles). ProtoJSON lets a printer omit or print a default, use the proto
field name or the JSON name, and write an enum as its name or its number; a conformant parser reads them all
as one message.

- `omit-defaults`: defaults left out, JSON names, enum names (the official JS SDK; the agent's own shape).
- `emit-defaults`: every field without presence printed, at its default when unset (`"filename":""`,
  `"artifacts":[]`, `"metadata":{}`), as the official Python SDK does.
- `proto-names`: the original snake_case names (`context_id`, `status_update`).
- `enum-numbers`: enums as integers (`"state":3`).

Styles combine: `['emit-defaults', 'proto-names']`. The agent decides what to say; the style only changes how
it is written.
*/

/** One printer style; see the module comment. */
export type SerializerStyle = 'omit-defaults' | 'emit-defaults' | 'proto-names' | 'enum-numbers';

/** Every style, in the order the tests run them. */
export const serializerStyles: readonly SerializerStyle[] = Object.freeze([
  'omit-defaults',
  'emit-defaults',
  'proto-names',
  'enum-numbers',
]);

/** The messages the agent writes, by proto name. */
export type WireType =
  | 'Task'
  | 'TaskStatus'
  | 'Message'
  | 'Part'
  | 'Artifact'
  | 'TaskStatusUpdateEvent'
  | 'TaskArtifactUpdateEvent'
  | 'SendMessageResponse'
  | 'StreamResponse'
  | 'ListTasksResponse'
  | 'TaskPushNotificationConfig'
  | 'AuthenticationInfo'
  | 'ListTaskPushNotificationConfigsResponse'
  | 'AgentCard'
  | 'AgentInterface'
  | 'AgentProvider'
  | 'AgentCapabilities'
  | 'AgentExtension'
  | 'AgentSkill'
  | 'AgentCardSignature'
  | 'Empty';

/** The enums the agent writes, their names in proto number order (index = number). */
export const protoEnums = {
  TaskState: [
    'TASK_STATE_UNSPECIFIED',
    'TASK_STATE_SUBMITTED',
    'TASK_STATE_WORKING',
    'TASK_STATE_COMPLETED',
    'TASK_STATE_FAILED',
    'TASK_STATE_CANCELED',
    'TASK_STATE_INPUT_REQUIRED',
    'TASK_STATE_REJECTED',
    'TASK_STATE_AUTH_REQUIRED',
  ],
  Role: ['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'],
} as const;

/**
A field as a printer sees it. Scalars, lists, maps and enums have no presence (proto3): `emit-defaults` prints
them when unset. A message, a oneof member or a proto3 `optional` scalar (`presence`) is printed only when
set. `opaque` is a Struct or a Value, or a message the agent passes through as it is (security schemes): its
content is never renamed.
*/
type Field =
  | { readonly kind: 'string' | 'bool' | 'int' | 'map' }
  | { readonly kind: 'enum'; readonly of: keyof typeof protoEnums }
  | { readonly kind: 'message'; readonly of: WireType }
  | { readonly kind: 'list'; readonly of: WireType | 'string' }
  | { readonly kind: 'presence'; readonly of: WireType | 'scalar' }
  | { readonly kind: 'opaque' };

const string = { kind: 'string' } as const;
const bool = { kind: 'bool' } as const;
const int = { kind: 'int' } as const;
const map = { kind: 'map' } as const;
const opaque = { kind: 'opaque' } as const;
const strings = { kind: 'list', of: 'string' } as const;
const scalar = { kind: 'presence', of: 'scalar' } as const;
const list = (of: WireType) => ({ kind: 'list', of }) as const;
const message = (of: WireType) => ({ kind: 'message', of }) as const;
const member = (of: WireType | 'scalar') => ({ kind: 'presence', of }) as const;

const fields: Readonly<Record<WireType, Readonly<Record<string, Field>>>> = {
  Task: {
    id: string,
    contextId: string,
    status: message('TaskStatus'),
    artifacts: list('Artifact'),
    history: list('Message'),
    metadata: map,
  },
  TaskStatus: { state: { kind: 'enum', of: 'TaskState' }, message: message('Message'), timestamp: scalar },
  Message: {
    messageId: string,
    contextId: string,
    taskId: string,
    role: { kind: 'enum', of: 'Role' },
    parts: list('Part'),
    metadata: map,
    extensions: strings,
    referenceTaskIds: strings,
  },
  Part: {
    text: scalar,
    raw: scalar,
    url: scalar,
    data: opaque,
    metadata: map,
    filename: string,
    mediaType: string,
  },
  Artifact: {
    artifactId: string,
    name: string,
    description: string,
    parts: list('Part'),
    metadata: map,
    extensions: strings,
  },
  TaskStatusUpdateEvent: { taskId: string, contextId: string, status: message('TaskStatus'), metadata: map },
  TaskArtifactUpdateEvent: {
    taskId: string,
    contextId: string,
    artifact: message('Artifact'),
    append: bool,
    lastChunk: bool,
    metadata: map,
  },
  SendMessageResponse: { task: member('Task'), message: member('Message') },
  StreamResponse: {
    task: member('Task'),
    message: member('Message'),
    statusUpdate: member('TaskStatusUpdateEvent'),
    artifactUpdate: member('TaskArtifactUpdateEvent'),
  },
  ListTasksResponse: { tasks: list('Task'), nextPageToken: string, pageSize: int, totalSize: int },
  TaskPushNotificationConfig: {
    tenant: string,
    id: string,
    taskId: string,
    url: string,
    token: string,
    authentication: message('AuthenticationInfo'),
  },
  AuthenticationInfo: { scheme: string, credentials: string },
  ListTaskPushNotificationConfigsResponse: {
    configs: list('TaskPushNotificationConfig'),
    nextPageToken: string,
  },
  AgentCard: {
    name: string,
    description: string,
    supportedInterfaces: list('AgentInterface'),
    provider: message('AgentProvider'),
    version: string,
    documentationUrl: scalar,
    capabilities: message('AgentCapabilities'),
    securitySchemes: opaque,
    securityRequirements: opaque,
    defaultInputModes: strings,
    defaultOutputModes: strings,
    skills: list('AgentSkill'),
    signatures: list('AgentCardSignature'),
    iconUrl: scalar,
  },
  AgentInterface: { url: string, protocolBinding: string, tenant: string, protocolVersion: string },
  AgentProvider: { url: string, organization: string },
  AgentCapabilities: {
    streaming: scalar,
    pushNotifications: scalar,
    extensions: list('AgentExtension'),
    extendedAgentCard: scalar,
  },
  AgentExtension: { uri: string, description: string, required: bool, params: map },
  AgentSkill: {
    id: string,
    name: string,
    description: string,
    tags: strings,
    examples: strings,
    inputModes: strings,
    outputModes: strings,
    securityRequirements: opaque,
  },
  AgentCardSignature: { protected: string, signature: string, header: map },
  Empty: {},
};

type Options = {
  readonly emitDefaults: boolean;
  readonly protoNames: boolean;
  readonly enumNumbers: boolean;
};

/**
A printer of `type`'s values in the given styles; `omit-defaults` alone (or nothing) prints values as they
are.
*/
export type Serializer = (type: WireType, value: unknown) => unknown;

/**
Makes the printer for `styles`.

@example
```ts
const print = createSerializer(['emit-defaults']);
print('Part', { text: 'done' }); // { text: 'done', metadata: {}, filename: '', mediaType: '' }
```
*/
export function createSerializer(styles: SerializerStyle | readonly SerializerStyle[] = []): Serializer {
  const chosen = new Set(typeof styles === 'string' ? [styles] : styles);
  const options: Options = {
    emitDefaults: chosen.has('emit-defaults'),
    protoNames: chosen.has('proto-names'),
    enumNumbers: chosen.has('enum-numbers'),
  };
  if (!options.emitDefaults && !options.protoNames && !options.enumNumbers) {
    return (_type, value) => value;
  }
  return (type, value) => printMessage(type, value, options);
}

function printMessage(type: WireType, value: unknown, options: Options): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return value;
  }
  const source = value as Record<string, unknown>;
  const shape = fields[type];
  const printed: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const key = options.protoNames ? protoName(name) : name;
    if (source[name] !== undefined) {
      printed[key] = printField(field, source[name], options);
    } else if (options.emitDefaults) {
      const fallback = defaultOf(field, options);
      if (fallback !== undefined) {
        printed[key] = fallback;
      }
    }
  }
  // Members the agent adds beyond the proto (none today) pass through as they are.
  for (const [name, member] of Object.entries(source)) {
    if (!Object.hasOwn(shape, name)) {
      printed[name] = member;
    }
  }
  return printed;
}

function printField(field: Field, value: unknown, options: Options): unknown {
  switch (field.kind) {
    case 'enum':
      return options.enumNumbers && typeof value === 'string' ? enumNumber(field.of, value) : value;
    case 'message':
      return printMessage(field.of, value, options);
    case 'list':
      return field.of === 'string' || !Array.isArray(value)
        ? value
        : value.map((element) => printMessage(field.of as WireType, element, options));
    case 'presence':
      return field.of === 'scalar' ? value : printMessage(field.of, value, options);
    default:
      return value;
  }
}

// What an emit-defaults printer writes for an unset field; nothing for a field with presence.
function defaultOf(field: Field, options: Options): unknown {
  switch (field.kind) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int':
      return 0;
    case 'map':
      return {};
    case 'list':
      return [];
    case 'enum':
      return options.enumNumbers ? 0 : protoEnums[field.of][0];
    default:
      return undefined;
  }
}

function enumNumber(of: keyof typeof protoEnums, name: string): number | string {
  const index = (protoEnums[of] as readonly string[]).indexOf(name);
  return index < 0 ? name : index;
}

function protoName(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
Reads `text` as a list of styles (`emit-defaults`, `proto-names,enum-numbers`), or `undefined` when a name is
not a style.

@example
```ts
parseSerializerStyles('emit-defaults,proto-names'); // ['emit-defaults', 'proto-names']
```
*/
export function parseSerializerStyles(text: string): SerializerStyle[] | undefined {
  const names = text.split(',').map((name) => name.trim());
  return names.every((name): name is SerializerStyle =>
    (serializerStyles as readonly string[]).includes(name),
  )
    ? names
    : undefined;
}
