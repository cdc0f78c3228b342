/**
`npm run bench -- grpc`: the gRPC binding against the official SDK's gRPC client.

- `send-latency-grpc`: 1,000 sequential echo SendMessage calls on loopback against the gRPC service of one
  `@a2a-js/sdk@1.3.0` server (mocks/src/sdk/agent.ts, `grpc: true`) in this process, ours
  (`@surecall/client/grpc`) vs the SDK's `ClientFactory` client with its `GrpcTransportFactory`; the value is
  the median latency of one call in ms within a run of 1,000, then the median of alternating runs, as the
  HTTP rows of `bench/client.ts` measure. Both sides pay the same server and the same grpc-js, so the ratio is
  each client's own work around the call: ours checks the request, writes and reads ProtoJSON through the
  proto's descriptors and runs every answer check. The SDK's client takes its card's gRPC interface as a bare
  `host:port`, the form its own examples use, which grpc-js reads as its target; ours the `http://` URL.
*/
import { SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { cardDigest, createClient, type JsonValue } from '@surecall/client';
import { grpcBinding } from '@surecall/client/grpc';
import { parseAgentCard } from '@surecall/client/protocol';
import { startSdkAgent } from '../mocks/src/sdk/agent.js';
import { sequentialSends, userMessage } from './echo.js';
import { type BenchRow, row, sideBySide } from './harness.js';

const runs = 5;

/** Measures `send-latency-grpc`. */
export async function run(): Promise<BenchRow[]> {
  const sdk = await startSdkAgent({ grpc: true });
  try {
    const grpcUrl = sdk.grpcUrl ?? '';
    const served = await (await fetch(sdk.cardUrl)).text();
    const raw = JSON.parse(served) as JsonValue;
    const ours = createClient({
      card: parseAgentCard(raw),
      cardDigest: await cardDigest(raw),
      grpc: grpcBinding,
      pin: { binding: 'GRPC', url: grpcUrl },
      security: { kind: 'anonymous' },
    });
    const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new GrpcTransportFactory()],
      preferredTransports: ['GRPC'],
    });
    const hostPort = new URL(grpcUrl).host;
    const theirs = await new ClientFactory(options).createFromAgentCard(
      JSON.parse(served.replaceAll(grpcUrl, hostPort)),
    );
    if (theirs.transport.protocolName !== 'GRPC') {
      throw new Error(`bench/grpc: the SDK client picked ${theirs.transport.protocolName}, not GRPC`);
    }
    const measured = await sideBySide(
      runs,
      sequentialSends(async () => 'message' in (await ours.sendMessage({ message: userMessage('echo hi') }))),
      sequentialSends(async () => {
        const result = await theirs.sendMessage(
          SendMessageRequest.fromJSON({ message: userMessage('echo hi') }),
        );
        return 'messageId' in result;
      }),
    );
    return [
      row('send-latency-grpc', 'ms/call (median)', measured, '@a2a-js/sdk@1.3.0 gRPC client', {
        op: '<=',
        ratio: 1.1,
      }),
    ];
  } finally {
    await sdk.close();
  }
}
