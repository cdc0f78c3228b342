/**
`npm run demo`: the lost response, end to end, on this machine. It starts the mock agent on loopback, arms its
`drop-after` fault (the agent runs the next SendMessage, then the answer is lost on the way back), makes one
durable send with the file ledger, shows the record become unknown, reconciles it from the agent's task
history, and prints the timeline: executing → unknown → committed, with the agent's execution count. It exits
1 if anything else happens, so it doubles as a smoke check.
*/
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DurableEvent, discover, durableAgent, textPart } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger';
import { startMockAgent } from '@surecall/mocks/node';

function line(text = ''): void {
  process.stdout.write(`${text}\n`);
}

const mock = await startMockAgent({ port: 0, stepMs: 25 });
const directory = await mkdtemp(join(tmpdir(), 'surecall-demo-'));
const ledger = await openLedger({ name: join(directory, 'sends.jsonl') });
let ok = false;
try {
  // Local development (README.md#local-development): an http: card on a literal loopback address, trusted as
  // first fetched.
  const client = await discover({
    cardUrl: mock.cardUrl,
    pins: [{ binding: 'JSONRPC', url: `${mock.origin}/a2a/jsonrpc` }],
    loopback: true,
    trust: { kind: 'first-fetch' },
    security: { kind: 'anonymous' },
  });
  const agent = durableAgent({
    client,
    ledger,
    recovery: { kind: 'context-history', maxPages: 4, historyLength: 64, retryAfterMs: 1000 },
  });
  const started = performance.now();
  const timeline: string[] = [];
  const states: string[] = [];
  const at = () => `${(performance.now() - started).toFixed(1).padStart(7)} ms`;
  agent.events.subscribe((event: DurableEvent) => {
    if (event.type === 'transition') {
      states.push(event.to);
      const why = event.reason === undefined ? '' : ` (${event.reason})`;
      timeline.push(`  ${at()}  ${event.to.padEnd(10)} ${event.cause}${why}`);
    } else if (event.type === 'probe') {
      timeline.push(
        `  ${at()}  ${'probe'.padEnd(10)} ${event.recovery}: ${event.pagesScanned} page, ${event.tasksExamined} task, ${event.matches} match → ${event.result}`,
      );
    }
  });

  line('surecall: the lost-response demo');
  line(`  mock agent on ${mock.origin} (JSON-RPC); ledger ${join(directory, 'sends.jsonl')}`);
  line('  fault armed: the agent runs the next SendMessage, then its answer is dropped (drop-after)');
  line();
  mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
  const sent = await agent.send({ role: 'ROLE_USER', parts: [textPart('task book the 9:40 to Lyon')] });
  const messageId = sent.record.attempts[0]?.messageId ?? '';
  const cause = sent.record.state.status === 'unknown' ? sent.record.state.cause : undefined;
  line(
    `send      → ${sent.status}${cause === undefined ? '' : ` (${cause.kind} ${cause.reason}, dispatched: ${cause.dispatched})`}`,
  );
  line(
    '            the request left and the answer never came: the task may exist or not, so nothing is sent again',
  );
  const reconciled = await agent.reconcile(sent.id);
  const state = reconciled.record.state;
  line(
    `reconcile → ${reconciled.status}${state.status === 'committed' ? `: task ${state.result.taskId} found in its context, holding the message unchanged` : ''}`,
  );
  line();
  line(`timeline of ${sent.id}:`);
  for (const entry of timeline) {
    line(entry);
  }
  line();
  const runs = mock.executions.of(messageId);
  line(`executions of the message at the agent: ${runs}`);
  ok =
    sent.status === 'unknown' &&
    reconciled.status === 'committed' &&
    runs === 1 &&
    states.join(' → ') === 'prepared → executing → unknown → committed';
  line(
    ok
      ? 'executing → unknown → committed, executed once.'
      : 'UNEXPECTED: the demo did not go as described above.',
  );
} finally {
  await ledger.close();
  await mock.close();
  await rm(directory, { recursive: true, force: true });
}
process.exitCode = ok ? 0 : 1;
