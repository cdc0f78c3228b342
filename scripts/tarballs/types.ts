// Typechecked in the scratch project with `module: NodeNext`: Node users see the file store's API through the export
// conditions of '@surecall/client/ledger', and the public types of every entry resolve from the installed dist/.
import { type A2aClient, type Message, textPart, userMessage } from '@surecall/client';
import { compactLedger, type Ledger, openLedger } from '@surecall/client/ledger';
import type { SurecallDevtoolsProps } from '@surecall/devtools';
import type { MockAgentFixture } from '@surecall/mocks/playwright';

export async function compacted(name: string): Promise<number> {
  const ledger: Ledger = await openLedger({ name });
  return (await compactLedger(ledger)).records;
}

export const message: Message = userMessage([textPart('hello')]);
export type Props = SurecallDevtoolsProps & { readonly client: A2aClient };
export type Fixture = MockAgentFixture['cardUrl'];
