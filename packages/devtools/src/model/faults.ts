/**
@module
The Faults panel's model: the mock agent's fault switches (what each does, its parameters), the fault spec a
switch arms, and the answers of the control routes (`GET /__faults`, `GET /__executions`) checked before use.
Only types come from `@surecall/mocks`, so nothing of the mock (or of MSW) reaches the devtools bundle through
this module.
*/
import { type OperationName, operationNames } from '@surecall/client/protocol';
import type { ActiveFault, FaultKind, FaultSpec } from '@surecall/mocks';

/** How the switches are grouped on screen. */
export type FaultGroup = 'lost' | 'timing' | 'malformed';

/** The headings of the groups. */
export const faultGroups: Readonly<Record<FaultGroup, string>> = Object.freeze({
  lost: 'Lost responses',
  timing: 'Slow and broken streams',
  malformed: 'Malformed answers',
});

/** A numeric or choice parameter of a fault. */
export type FaultParam =
  | {
      readonly name: string;
      readonly label: string;
      readonly type: 'number';
      readonly min: number;
      readonly max: number;
      readonly initial: number;
    }
  | {
      readonly name: string;
      readonly label: string;
      readonly type: 'choice';
      readonly choices: readonly string[];
      readonly initial: string;
    };

/** One switch. */
export type FaultSwitch = {
  readonly kind: FaultKind;
  readonly label: string;
  readonly description: string;
  readonly group: FaultGroup;
  readonly params: readonly FaultParam[];
};

const frame: FaultParam = { name: 'frame', label: 'Frame', type: 'number', min: 0, max: 65_535, initial: 0 };

// Descriptions follow the fault table of mocks/src/faults/faults.ts and say what a browser does with a lost
// answer (docs/interop.md#browsers: Chromium re-sends a request whose reused connection closed before any
// byte of the answer); the object form makes the compiler insist on every kind the mock knows.
const switches = {
  'drop-after': {
    label: 'Drop after commit',
    description:
      'The agent does the work, then closes the connection before any byte of its answer. With the agent in this page (or from Node) the client sees a network error: the lost answer. A browser talking to an agent in another process re-sends the POST by itself on a reused connection: a keyed send commits from the replay, an at-most-once one runs twice and ends duplicated. To see the lost answer there, use 5xx after commit.',
    group: 'lost',
    params: [],
  },
  'drop-before': {
    label: 'Drop before',
    description:
      'The request never reaches the agent. With the agent in this page (or from Node): a network error, nothing applied. A browser talking to an agent in another process re-sends it by itself on a reused connection, and that copy is applied once.',
    group: 'lost',
    params: [],
  },
  'status-after': {
    label: '5xx after commit',
    description:
      'The agent does the work, then answers with a 5xx that is not A2A. Every client sees it, a browser included (an answer came, so nothing re-sends it): a durable send ends unknown, for reconciliation.',
    group: 'lost',
    params: [{ name: 'status', label: 'Status', type: 'number', min: 500, max: 599, initial: 503 }],
  },
  delay: {
    label: 'Delay',
    description:
      'Wait before handling (nothing applied if the client gives up) or before answering (applied, then late).',
    group: 'timing',
    params: [
      { name: 'ms', label: 'Milliseconds', type: 'number', min: 0, max: 600_000, initial: 2000 },
      { name: 'when', label: 'When', type: 'choice', choices: ['before', 'after'], initial: 'after' },
    ],
  },
  'cut-stream': {
    label: 'Cut stream',
    description: 'The event stream breaks like a reset connection after some frames; the work carries on.',
    group: 'timing',
    params: [{ name: 'afterFrames', label: 'After frames', type: 'number', min: 0, max: 65_535, initial: 2 }],
  },
  'premature-eof': {
    label: 'Premature end',
    description: 'The body ends early without an error: half a unary body, a stream without its last frame.',
    group: 'timing',
    params: [],
  },
  'oversized-sse-line': {
    label: 'Oversized SSE line',
    description: 'A comment line this long comes before the first frame, to hit the SSE line bound.',
    group: 'timing',
    params: [
      { name: 'bytes', label: 'Bytes', type: 'number', min: 2, max: 64 * 1024 * 1024, initial: 614_400 },
    ],
  },
  'duplicate-keys': {
    label: 'Duplicate keys',
    description: 'The result’s first member is written twice: only a strict parser notices.',
    group: 'malformed',
    params: [frame],
  },
  'wrong-jsonrpc-id': {
    label: 'Wrong JSON-RPC id',
    description: 'JSON-RPC only: the response id is not the request’s.',
    group: 'malformed',
    params: [frame],
  },
  'result-and-error': {
    label: 'Result and error',
    description: 'JSON-RPC only: the response carries both members.',
    group: 'malformed',
    params: [frame],
  },
  'two-union-members': {
    label: 'Two union members',
    description: 'A task-or-message result carries a second member.',
    group: 'malformed',
    params: [frame],
  },
  'wrong-media-type': {
    label: 'Wrong media type',
    description: 'The answer is labelled text/plain, body unchanged.',
    group: 'malformed',
    params: [],
  },
  'html-413': {
    label: 'HTML 413 page',
    description: 'The answer is a proxy’s HTML “413 Payload Too Large” page.',
    group: 'malformed',
    params: [],
  },
  redirect: {
    label: 'Redirect',
    description: 'The answer is a 302 with a Location header.',
    group: 'malformed',
    params: [],
  },
  'blocking-submitted': {
    label: 'Blocking send left submitted',
    description: 'A blocking SendMessage returns its task still SUBMITTED, which the spec forbids.',
    group: 'malformed',
    params: [],
  },
  'different-task-id': {
    label: 'Different task id',
    description: 'The returned task and its messages carry another task id.',
    group: 'malformed',
    params: [frame],
  },
  'altered-history': {
    label: 'Altered history',
    description: 'The user’s message keeps its messageId but its text changes: a same-id substitution.',
    group: 'malformed',
    params: [frame],
  },
  'altered-data': {
    label: 'Altered data',
    description:
      'The agent’s data parts (a reply, a task’s artifacts) hold another value: valid A2A, wrong content.',
    group: 'malformed',
    params: [frame],
  },
  'foreign-message-ids': {
    label: 'Foreign message ids',
    description: 'The agent’s messages name another context than the task or the send they belong to.',
    group: 'malformed',
    params: [frame],
  },
  'bad-status-details': {
    label: 'Bad status details',
    description: 'gRPC only: an error’s google.rpc.Status is malformed or says another code or reason.',
    group: 'malformed',
    params: [
      {
        name: 'details',
        label: 'Details',
        type: 'choice',
        choices: ['malformed', 'other-code', 'foreign-reason'],
        initial: 'malformed',
      },
    ],
  },
} satisfies Record<FaultKind, Omit<FaultSwitch, 'kind'>>;

/** Every switch, grouped: lost responses, then timing, then malformed answers. */
export const faultSwitches: readonly FaultSwitch[] = Object.freeze(
  (['lost', 'timing', 'malformed'] as const).flatMap((group) =>
    (Object.entries(switches) as [FaultKind, Omit<FaultSwitch, 'kind'>][])
      .filter(([, entry]) => entry.group === group)
      .map(([kind, entry]) => ({ kind, ...entry })),
  ),
);

/** The operations a fault can target, in the spec's order (the client's operation table); `'*'` is any. */
export const faultOperations: readonly (OperationName | '*')[] = Object.freeze([...operationNames, '*']);

/** The initial values of a switch's parameters, as the inputs hold them. */
export function initialValues(entry: Pick<FaultSwitch, 'params'>): Record<string, string> {
  return Object.fromEntries(entry.params.map((param) => [param.name, String(param.initial)]));
}

/** The spec a switch arms, or the parameter to fix. */
export type SpecResult =
  | { readonly ok: true; readonly spec: FaultSpec; readonly problem?: never }
  | {
      readonly ok: false;
      readonly problem: { readonly field: string; readonly message: string };
      readonly spec?: never;
    };

/**
The fault spec of a switch for one operation, its parameters read from the inputs' strings and checked against
the ranges the mock accepts. `count` is how many matching requests it applies to before it disarms itself.

@example
```ts
faultSpec('drop-after', 'SendMessage', {}, 1); // { ok: true, spec: { kind: 'drop-after', operation: 'SendMessage', count: 1 } }
```
*/
export function faultSpec(
  kind: FaultKind,
  operation: OperationName | '*',
  values: Readonly<Record<string, string>>,
  count: number,
): SpecResult {
  if (!Number.isSafeInteger(count) || count < 1 || count > 1_000_000) {
    return {
      ok: false,
      problem: { field: 'count', message: 'Count must be a whole number from 1 to 1000000' },
    };
  }
  const spec: Record<string, unknown> = { kind, operation, count };
  for (const param of switches[kind].params as readonly FaultParam[]) {
    const raw = (values[param.name] ?? String(param.initial)).trim();
    if (param.type === 'choice') {
      if (!param.choices.includes(raw)) {
        return {
          ok: false,
          problem: {
            field: param.name,
            message: `${param.label} must be one of: ${param.choices.join(', ')}`,
          },
        };
      }
      spec[param.name] = raw;
      continue;
    }
    const value = raw === '' ? Number.NaN : Number(raw);
    if (!Number.isSafeInteger(value) || value < param.min || value > param.max) {
      return {
        ok: false,
        problem: {
          field: param.name,
          message: `${param.label} must be a whole number from ${param.min} to ${param.max}`,
        },
      };
    }
    spec[param.name] = value;
  }
  // Every field was set from the switch table, whose kinds and parameters are the mock's own.
  return { ok: true, spec: spec as FaultSpec };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
The armed faults from the body of `GET /__faults`, or `undefined` when the body is not that answer (another
server at that origin).

@example
```ts
const faults = parseFaultList(await (await fetch(`${origin}/__faults`)).json());
```
*/
export function parseFaultList(body: unknown): ActiveFault[] | undefined {
  const { faults: list } = isRecord(body) ? body : {};
  if (!Array.isArray(list)) {
    return undefined;
  }
  const faults: ActiveFault[] = [];
  for (const item of list) {
    const { id, remaining, spec } = isRecord(item) ? item : {};
    const { kind, operation } = isRecord(spec) ? spec : {};
    if (
      typeof id !== 'string' ||
      !isCount(remaining) ||
      typeof kind !== 'string' ||
      !Object.hasOwn(switches, kind) ||
      typeof operation !== 'string'
    ) {
      return undefined;
    }
    // The mock's own list: the kind and operation were checked above, the other fields are shown as they are.
    faults.push(item as ActiveFault);
  }
  return faults;
}

/** The execution counter: every business action the agent ran, and the count of chosen messages. */
export type ExecutionCount = {
  readonly total: number;
  readonly byMessageId: Readonly<Record<string, number>>;
};

/**
The counter from the body of `GET /__executions`, or `undefined` when the body is not that answer.

@example
```ts
parseExecutions({ total: 3, byMessageId: { 'm-1': 1 } }); // { total: 3, byMessageId: { 'm-1': 1 } }
```
*/
export function parseExecutions(body: unknown): ExecutionCount | undefined {
  const { total, byMessageId: counts } = isRecord(body) ? body : {};
  if (!isCount(total)) {
    return undefined;
  }
  const byMessageId: Record<string, number> = {};
  if (counts !== undefined) {
    if (!isRecord(counts)) {
      return undefined;
    }
    for (const [id, count] of Object.entries(counts)) {
      if (!isCount(count)) {
        return undefined;
      }
      byMessageId[id] = count;
    }
  }
  return { total, byMessageId };
}

/**
The path and query of `GET /__executions` for these message ids (at most 20, the latest, so the URL stays
short).

@example
```ts
executionsPath(['m-1', 'm 2']); // '/__executions?messageId=m-1&messageId=m+2'
```
*/
export function executionsPath(messageIds: readonly string[]): string {
  const query = new URLSearchParams(messageIds.slice(-20).map((id) => ['messageId', id])).toString();
  return query === '' ? '/__executions' : `/__executions?${query}`;
}

/**
The armed faults a switch stands for: those of its kind aimed at the operation (or at any operation). The
switch is on while this is not empty.

@example
```ts
const on = armedFor(active, 'drop-after', 'SendMessage').length > 0;
```
*/
export function armedFor(
  active: readonly ActiveFault[],
  kind: FaultKind,
  operation: OperationName | '*',
): ActiveFault[] {
  return active.filter(
    (fault) =>
      fault.spec.kind === kind && (fault.spec.operation === operation || fault.spec.operation === '*'),
  );
}

/**
One line for an armed fault: its label, target, binding and what is left of it.

@example
```ts
describeFault({ id, spec: { kind: 'cut-stream', operation: 'SendStreamingMessage', afterFrames: 2 }, remaining: 1 });
// 'Cut stream on SendStreamingMessage (afterFrames 2), 1 left'
```
*/
export function describeFault(fault: ActiveFault): string {
  const { kind, operation, binding, count: _count, ...params } = fault.spec;
  const label = switches[kind].label;
  const target = operation === '*' ? 'any operation' : operation;
  const details = Object.entries(params).map(([name, value]) => `${name} ${String(value)}`);
  const over = binding === undefined ? '' : ` over ${binding}`;
  return `${label} on ${target}${over}${details.length === 0 ? '' : ` (${details.join(', ')})`}, ${fault.remaining} left`;
}
