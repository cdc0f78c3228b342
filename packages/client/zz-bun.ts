import { openLedger } from './src/ledger/file.ts';
import { intent } from './test/support/intent.ts';
async function use() {
  const ledger = await openLedger({ name: '/tmp/probe/bun-ledger/sends' });
  await ledger.create(intent('a'));
  console.log('created');
}
await use();
(globalThis as any).Bun?.gc?.(true);
(globalThis as any).gc?.();
await new Promise((r) => setTimeout(r, 200));
(globalThis as any).Bun?.gc?.(true);
(globalThis as any).gc?.();
await new Promise((r) => setTimeout(r, 200));
console.log('end');
