/**
The `surecall` command end to end against a peer whose words are hostile (README.md#the-surecall-command): the
mock agent on a real loopback socket (`listenLoopback`), its card served with a name, a version, a skill and
an interface tenant holding bidi controls and invisible characters (all a label may hold), and its SendMessage
answers with the task's id, its status message and its artifact's name rewritten the same way, the message
text carrying escape sequences and a line feed that would forge a line of ours. Every line `card`, `send`
(plain, echoed, streamed, durable) and `sends list|show` print shows those characters escaped, and every
`--json` document is valid JSON holding the exact text, with nothing a terminal would act on or hide.
*/
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  agentCardPath,
  createAgent,
  createFaultLab,
  createMockHandle,
  jsonRpcPath,
  type MockAgent,
} from '@surecall/mocks';
import { type LoopbackServer, listenLoopback } from '@surecall/mocks/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, surecall } from './support/surecall.js';

// A label (a name, an id, a tenant) may hold no control character, but bidi controls and invisible format
// characters pass the card contract: an override that reverses what follows, an isolate, a zero-width space,
// a BOM.
const hostileName = 'acme\u202egnp.exe\u2066\u200bagent\ufeffbot';
const shownName = 'acme\\u202egnp.exe\\u2066\\u200bagent\\ufeffbot';
const hostileTaskId = 'task-\u202e1\u200b';
const shownTaskId = 'task-\\u202e1\\u200b';
// A text part may hold anything: clear the screen, a hyperlink (OSC 8), a C1 CSI, a line feed that forges a
// line of ours, a carriage return, an override, a backslash.
const hostileText =
  'ok\x1b[2J\x1b]8;;https://evil.example/\x07link\x1b]8;;\x07\u009b31m\nCOMPLETED: forged\r\u202eevil\\';
const shownText =
  'ok\\x1b[2J\\x1b]8;;https://evil.example/\\x07link\\x1b]8;;\\x07\\x9b31m\\nCOMPLETED: forged\\r\\u202eevil\\\\';

// A refusal's message may hold no control character but TAB, LF and CR
// (docs/protocol-checks.md#error-answers): a line feed that forges a line of ours, a carriage return, an
// override, an isolate, a backslash.
const hostileRefusal = 'refused\nCOMPLETED: forged\r\u202eevil\t\u2066x\\u{a}';

// What must never reach the terminal raw: a line feed only ends one of our lines.
const raw = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const rawOutside = (output: string) => raw.test(output.replaceAll('\n', ''));

/** `text` as a pattern that matches it literally. */
const literal = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

type JsonObject = { readonly [key: string]: unknown };
type WireCard = JsonObject & { readonly skills?: readonly unknown[] };
type WireTask = JsonObject & {
  readonly id?: unknown;
  readonly status?: JsonObject & { readonly message?: JsonObject };
  readonly artifacts?: readonly JsonObject[];
};
type WireAnswer = JsonObject & {
  readonly result?: JsonObject & { readonly task?: WireTask };
  readonly error?: unknown;
};

/** The mock agent's card, with the hostile labels added (in whichever JSON names its printer uses). */
function hostileCard(card: WireCard): WireCard {
  const key = 'supportedInterfaces' in card ? 'supportedInterfaces' : 'supported_interfaces';
  const interfaces = (card[key] ?? []) as readonly JsonObject[];
  return {
    ...card,
    name: hostileName,
    version: '1.0\u2067.0',
    [key]: [...interfaces, { ...interfaces[0], tenant: 'acme\u202eevil' }],
    skills: [
      ...(card.skills ?? []),
      {
        id: 'sk\u202eill',
        name: hostileName,
        description: 'a description\nwith a line that forges',
        tags: ['t\u200bag'],
      },
    ],
  };
}

/**
A SendMessage answer whose task the mock agent made, with its id, its status message (where it has one) and
its artifacts' names hostile.
*/
function hostileAnswer(body: WireAnswer): WireAnswer {
  const { result, error } = body;
  if (typeof error === 'object' && error !== null) {
    // A refusal's own words are the peer's too.
    return { ...body, error: { ...error, message: hostileRefusal } };
  }
  if (result?.task === undefined) {
    return body;
  }
  const { id } = result.task;
  // Every mention of the task's id (the task's, its history's, its status message's) is the hostile one.
  const task = JSON.parse(JSON.stringify(result.task), (_, value: unknown) =>
    value === id ? hostileTaskId : value,
  ) as WireTask;
  return {
    ...body,
    result: {
      ...result,
      task: {
        ...task,
        ...(task.status?.message === undefined
          ? {}
          : {
              status: { ...task.status, message: { ...task.status.message, parts: [{ text: hostileText }] } },
            }),
        artifacts: (task.artifacts ?? []).map((artifact) => ({ ...artifact, name: 'art\u202eifact' })),
      },
    },
  };
}

let agent: MockAgent;
let server: LoopbackServer;
let cardUrl: string;
let directory: string;

beforeAll(async () => {
  agent = createAgent({ stepMs: 5 });
  const inner = createMockHandle({ agent, faults: createFaultLab() });
  server = await listenLoopback({
    cors: false,
    handle: async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === agentCardPath) {
        return Response.json(hostileCard((await (await inner(request)).json()) as WireCard));
      }
      const method =
        pathname === jsonRpcPath && request.method === 'POST'
          ? ((await request.clone().json()) as { method?: unknown }).method
          : undefined;
      const answer = await inner(request);
      if (method !== 'SendMessage') {
        return answer;
      }
      return Response.json(hostileAnswer((await answer.json()) as WireAnswer), { status: answer.status });
    },
  });
  cardUrl = `${server.origin}${agentCardPath}`;
  directory = await mkdtemp(join(tmpdir(), 'surecall-hostile-'));
});

afterAll(async () => {
  await server.close();
  agent.close();
  await rm(directory, { recursive: true, force: true });
});

describe('surecall card of a hostile card', () => {
  it('prints the name, the version, the skill and the tenant escaped, and JSON that holds them exactly', async () => {
    const human = await surecall(['card', cardUrl, '--loopback']);
    expect(human).toMatchObject({ code: 0, stderr: '' });
    const lines = human.stdout.split('\n');
    expect(lines[0]).toBe(`${shownName} 1.0\\u2067.0`);
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {4}JSONRPC +http:\S+ tenant acme\\u202eevil \(v1\.0\)$/),
    );
    expect(lines).toContain('  sk\\u202eill  in: text/plain, application/json  out: text/plain');
    expect(rawOutside(human.stdout)).toBe(false);

    const json = await surecall(['card', cardUrl, '--loopback', '--json']);
    expect(json.code).toBe(0);
    expect(rawOutside(json.stdout)).toBe(false);
    expect(json.stdout).toContain('"name":"acme\\u202egnp.exe\\u2066\\u200bagent\\ufeffbot"');
    expect(documents(json.stdout)).toEqual([
      expect.objectContaining({
        name: hostileName,
        skills: expect.arrayContaining([expect.objectContaining({ id: 'sk\u202eill', name: hostileName })]),
      }),
    ]);
  });
});

describe('surecall send to a hostile agent', () => {
  it('prints an echoed text escaped, on one line', async () => {
    const run = await surecall(['send', cardUrl, `echo ${hostileText}`, '--loopback']);
    expect(run).toMatchObject({ code: 0, stdout: `message: echo ${shownText}\n` });
    const json = await surecall(['send', cardUrl, `echo ${hostileText}`, '--loopback', '--json']);
    expect(rawOutside(json.stdout)).toBe(false);
    expect(documents(json.stdout)).toEqual([
      {
        status: 'answered',
        answer: { message: expect.objectContaining({ parts: [{ text: `echo ${hostileText}` }] }) },
      },
    ]);
  });

  it("prints the task's id, its status message and its artifact's name escaped", async () => {
    const run = await surecall(['send', cardUrl, 'task alpha', '--loopback']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toEqual([
      `task ${shownTaskId} COMPLETED`,
      `  ${shownText}`,
      'artifact art\\u202eifact: alpha',
      '',
    ]);
  });

  it("prints a refusal's own words as the client escaped them, on one line", async () => {
    const run = await surecall(['send', cardUrl, 'slow 0', '--loopback']);
    expect(run.code).toBe(1);
    // ARCHITECTURE.md#errors: `\\` and `\u{…}`, by the client, once; a backslash the peer sent reads `\\`.
    const said = 'refused\\u{a}COMPLETED: forged\\u{d}\\u{202e}evil\\u{9}\\u{2066}x\\\\u{a}';
    expect(run.stderr).toMatch(
      new RegExp(`nothing was applied \\(.*\\); the agent said: ${literal(said)}\n$`),
    );
    expect(rawOutside(run.stderr)).toBe(false);
  });

  it('prints streamed artifact chunks escaped', async () => {
    const run = await surecall(['send', cardUrl, 'task a\x1b[2Jb c\u202ed\x9b', '--loopback', '--stream']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('\nartifact text: a\\x1b[2Jb \n  + text: c\\u202ed\\x9b (last chunk)\n');
    expect(rawOutside(run.stdout)).toBe(false);
  });
});

describe('surecall sends list and show of a send to a hostile agent', () => {
  it('prints the task id the peer chose escaped, and JSON that holds it exactly', async () => {
    const ledger = join(directory, 'hostile.jsonl');
    const sent = await surecall([
      'send',
      cardUrl,
      'task alpha',
      '--loopback',
      '--durable',
      '--ledger',
      ledger,
    ]);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(
      new RegExp(
        `^ledger ${literal(ledger)}\\n\\S+ committed task ${literal(shownTaskId)}: the agent accepted it\\n$`,
      ),
    );

    const listed = await surecall(['sends', 'list', '--ledger', ledger]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^committed +\\S+ +\\S+ committed task ${literal(shownTaskId)}: the agent accepted it\\n1 send, 0 not settled\\n$`,
      ),
    );
    expect(rawOutside(listed.stdout)).toBe(false);

    const json = await surecall(['sends', 'list', '--ledger', ledger, '--json']);
    expect(rawOutside(json.stdout)).toBe(false);
    const [{ records }] = documents(json.stdout) as [{ records: { id: string; result: unknown }[] }];
    expect(records).toEqual([
      expect.objectContaining({ result: expect.objectContaining({ taskId: hostileTaskId }) }),
    ]);

    const id = records[0]?.id ?? '';
    const shown = await surecall(['sends', 'show', id, '--ledger', ledger]);
    expect(shown.code).toBe(0);
    expect(shown.stdout.split('\n')[0]).toBe(`${id} committed task ${shownTaskId}: the agent accepted it`);
    expect(rawOutside(shown.stdout)).toBe(false);
  });
});
