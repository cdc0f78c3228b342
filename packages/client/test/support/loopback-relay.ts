/**
@module
The relay inside a partition test's network namespace (`test/support/netns.ts`): it listens on
`127.0.0.1:<port>` there and pipes each connection to `<host>:<through>`, the forwarder on the namespace's
agent path, so a worker inside reaches the mock agent at the very URL its card names. It prints one line once
it listens.

Arguments: `<port> <host> <through>`.
*/
import { connect, createServer } from 'node:net';

const [port = '0', host = '', through = '0'] = process.argv.slice(2);

const server = createServer((inbound) => {
  const outbound = connect(Number(through), host);
  for (const socket of [inbound, outbound]) {
    socket.on('error', () => socket.destroy());
  }
  inbound.on('close', () => outbound.destroy());
  outbound.on('close', () => inbound.destroy());
  inbound.pipe(outbound).pipe(inbound);
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\n'));
