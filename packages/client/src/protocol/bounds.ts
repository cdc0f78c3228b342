const KiB = 1024;
const MiB = 1024 * KiB;

/**
The protocol contract bounds every decoded A2A value is held to (docs/protocol-checks.md#agent-card and
ARCHITECTURE.md#bounds). Unlike `defaultLimits` in `limits.ts`, which bound the transport (bytes, events,
time) and are configurable, these are properties of a valid value: a peer that breaks one sent something this
client refuses to act on, whatever the configuration.

@example
```ts
contractBounds.partsPerMessage; // 128
```
*/
export const contractBounds = Object.freeze({
  /** Message, task, context, artifact, push-config ids and tenants, in UTF-8 bytes. */
  idBytes: 512,
  /** Short human labels: names, versions, filenames, scheme names, metadata keys, tags. */
  labelBytes: 512,
  /** Descriptions and examples. */
  descriptionBytes: 16 * KiB,
  /** Any URL or URI. */
  urlBytes: 4096,
  /** One media type (`mediaType`, input and output modes). */
  mediaTypeBytes: 256,
  /** Page tokens, request and response. */
  pageTokenBytes: 2048,
  /** Push tokens and credentials. */
  secretBytes: 16 * KiB,
  /** Parts in one message or artifact (at least one). */
  partsPerMessage: 128,
  /** One part: text bytes, decoded `raw` bytes, or compact JSON bytes of `data`. */
  partBytes: 1 * MiB,
  /** Entries in one `metadata`, `params` or JWS `header` object. */
  metadataEntries: 256,
  /** One `metadata` object, as compact JSON. */
  metadataBytes: 256 * KiB,
  /** Messages in a task's history; also the largest `historyLength` this client asks for. */
  historyMessages: 256,
  /** Artifacts in one task. */
  artifactsPerTask: 128,
  /** `referenceTaskIds` of one message. */
  referenceTaskIds: 128,
  /** Extension URIs on one message or artifact, and declared by one card. */
  extensions: 64,
  /** ListTasks `pageSize`: A2A spec §3.1.4, 1..100, default 50. */
  taskPageSize: 100,
  /** ListTaskPushNotificationConfigs `pageSize`: a local ceiling, the spec sets none. */
  pushConfigPageSize: 256,
  /** `supportedInterfaces` of one card (at least one). */
  interfaces: 16,
  /** Skills of one card. */
  skills: 256,
  /** Input or output modes of one card or skill. */
  modes: 64,
  /** Tags or examples of one skill. */
  tagsPerSkill: 64,
  /** Security schemes of a card; alternatives in a requirement list; schemes in one alternative. */
  securityEntries: 64,
  /** Scopes of one OAuth flow or one requirement. */
  scopes: 128,
  /** Signatures of one card. */
  signatures: 64,
  /** `protected` and `signature` of one card signature. */
  signatureBytes: 1 * MiB,
  /** A whole agent card, as compact JSON. */
  agentCardBytes: 1 * MiB,
});

/** The type of {@link contractBounds}. */
export type ContractBounds = typeof contractBounds;
