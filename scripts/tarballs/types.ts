// Typechecked in the scratch projects with `module: NodeNext`, `strict` and no `types` setting, under
// TypeScript 7 (the latest peers) and 5.9 (the oldest): every public entry's declarations resolve from the
// installed dist/, and Node users see the file store's API through the export conditions of
// '@surecall/client/ledger'.

import type { run } from '@surecall/cli';
import { type A2aClient, type Message, textPart, userMessage } from '@surecall/client';
import type { KeyError } from '@surecall/client/idempotency';
import { compactLedger, type Ledger, openLedger } from '@surecall/client/ledger';
import type { FileLedgerOptions } from '@surecall/client/ledger/file';
import type { JournalContents } from '@surecall/client/ledger/journal';
import type { openLedger as openMemoryLedger } from '@surecall/client/ledger/memory';
import type { PostgresLedgerOptions } from '@surecall/client/ledger/postgres';
import type { TracingOptions } from '@surecall/client/otel';
import type { Task } from '@surecall/client/protocol';
import type { SurecallDevtoolsProps } from '@surecall/devtools';
import type { FaultSpec } from '@surecall/mocks';
import type { MockAgentWorker } from '@surecall/mocks/browser';
import type { MockAgentServer } from '@surecall/mocks/node';
import type { MockAgentFixture } from '@surecall/mocks/playwright';
import type { startSdkAgent } from '@surecall/mocks/sdk-agent';

export async function compacted(name: string): Promise<number> {
  const ledger: Ledger = await openLedger({ name });
  return (await compactLedger(ledger)).records;
}

export const message: Message = userMessage([textPart('hello')]);
export type Props = SurecallDevtoolsProps & { readonly client: A2aClient };
export type Fixture = MockAgentFixture['cardUrl'];
export type Entries = [
  KeyError,
  FileLedgerOptions,
  JournalContents,
  typeof openMemoryLedger,
  PostgresLedgerOptions,
  TracingOptions,
  Task,
  typeof run,
  FaultSpec,
  MockAgentWorker,
  MockAgentServer,
  typeof startSdkAgent,
];
