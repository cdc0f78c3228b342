import { discover, durableAgent, userMessage } from '@surecall/client';
import { openLedger } from '@surecall/client/ledger/memory';
import { startMockAgent } from '@surecall/mocks/node';
import { describe, expect, it } from 'vitest';
import { createFaultLabClient } from '../fault-lab.js';
import { executionMessageIds, executionTable } from './executions.js';
import type { SendRecord } from './send.js';

function boxSend(messageId: string, text: string): SendRecord {
  return {
    messageId,
    text,
    mode: 'send',
    startedAt: 0,
    status: 'answered',
    outcome: 'message',
    taskId: undefined,
    contextId: undefined,
    events: 0,
  };
}

describe('executionTable', () => {
  it('agrees with the agent’s own counter for plain and durable sends, a lost answer and another client’s', async () => {
    const mock = await startMockAgent({ port: 0, stepMs: 1 });
    try {
      const client = await discover({
        cardUrl: mock.cardUrl,
        pins: [{ binding: 'JSONRPC', url: `${mock.origin}/a2a/jsonrpc` }],
        loopback: true,
        trust: { kind: 'first-fetch' },
        security: { kind: 'anonymous' },
      });
      const ledger = await openLedger({ name: 'executions' });
      const agent = durableAgent({ client, ledger });
      const plain = userMessage('echo hello');
      await client.sendMessage({ message: plain });
      mock.faults.set({ kind: 'drop-after', operation: 'SendMessage' });
      const lost = await agent.send({ role: 'ROLE_USER', parts: [{ text: 'task book it' }] });
      expect(lost.status).toBe('unknown');
      expect((await agent.reconcile(lost.id)).status).toBe('committed');
      await agent.send({ role: 'ROLE_USER', parts: [{ text: 'echo durable' }] });
      // Another page's send: counted by the agent, not sent from here.
      await client.sendMessage({ message: userMessage('echo elsewhere') });

      const sends = [boxSend(plain.messageId, 'echo hello')];
      const records = await ledger.list();
      const lab = createFaultLabClient(mock.origin, mock.token);
      const executions = await lab.executions(executionMessageIds(sends, records));
      const table = executionTable(sends, records, executions);

      expect(table.total).toBe(4);
      expect(table.rows.map((row) => [row.text, row.source, row.executions])).toEqual(
        expect.arrayContaining([
          ['echo hello', 'send box', 1],
          ['task book it', 'durable', 1],
          ['echo durable', 'durable', 1],
        ]),
      );
      expect(table.rows).toHaveLength(3);
      expect(table.rows.find((row) => row.text === 'task book it')).toMatchObject({
        recordId: lost.id,
        outcome: 'committed',
      });
      expect(table.others).toBe(1);
      expect(table.rows.reduce((sum, row) => sum + (row.executions ?? 0), 0) + table.others).toBe(
        table.total,
      );
      await ledger.close();
    } finally {
      await mock.close();
    }
  });

  it('counts a message once when the send box and the ledger both name it, and never below zero', () => {
    const sends = [boxSend('m-1', 'echo')];
    const table = executionTable(sends, [], { total: 0, byMessageId: {} });
    expect(table).toEqual({
      rows: [
        {
          messageId: 'm-1',
          text: 'echo',
          source: 'send box',
          recordId: undefined,
          outcome: 'message',
          executions: undefined,
        },
      ],
      others: 0,
      total: 0,
    });
    expect(executionMessageIds([boxSend('m-1', 'a'), boxSend('m-1', 'a')], [])).toEqual(['m-1']);
  });
});
