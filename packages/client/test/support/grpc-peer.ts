/**
@module
Test support: a real gRPC server on a loopback port that answers each RPC of `lf.a2a.v1.A2AService` as the
test says, in bytes, so a test can send what no conformant server would: a message that is no protobuf, a
message over a bound, a status with details of its own, an answer that never comes. Every call it receives is
recorded with its metadata and its request's bytes. The gRPC binding's own codec writes the valid messages.
*/
import {
  Metadata,
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { type ClientMethod, methods } from '../../src/protocol/methods.js';

/** What the peer does with one call. */
export type PeerAnswer =
  | { readonly kind: 'answer'; readonly bytes: Uint8Array }
  | { readonly kind: 'stream'; readonly messages: readonly Uint8Array[] }
  | {
      readonly kind: 'fail';
      readonly code: number;
      readonly details?: string;
      readonly statusDetails?: Uint8Array;
    }
  | { readonly kind: 'hang' };

/** One call the peer received. */
export type PeerCall = {
  readonly method: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
};

/** The running peer. */
export type GrpcPeer = {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly calls: readonly PeerCall[];
  /** How the next calls are answered, until set again. */
  answer(answer: PeerAnswer): void;
  close(): Promise<void>;
};

const identity = (value: Buffer): Buffer => value;

function metadataOf(metadata: Metadata): Record<string, string> {
  const entries = Object.entries(metadata.getMap()).map(([key, value]) => [key, String(value)] as const);
  return Object.fromEntries(entries);
}

/**
Starts the peer on 127.0.0.1 with a free port.

@example
```ts
const peer = await startGrpcPeer();
peer.answer({ kind: 'fail', code: 5 });
```
*/
export async function startGrpcPeer(): Promise<GrpcPeer> {
  const server = new Server();
  const calls: PeerCall[] = [];
  let current: PeerAnswer = { kind: 'hang' };
  const definition: Record<string, ServiceDefinition[string]> = {};
  const implementation: UntypedServiceImplementation = {};
  for (const [operation, facts] of Object.entries(methods) as [
    ClientMethod,
    { name: string; streams: boolean },
  ][]) {
    const streams = facts.streams;
    definition[operation] = {
      path: `/lf.a2a.v1.A2AService/${facts.name}`,
      requestStream: false,
      responseStream: streams,
      requestSerialize: identity,
      requestDeserialize: identity,
      responseSerialize: identity,
      responseDeserialize: identity,
      originalName: facts.name,
    };
    implementation[operation] = streams
      ? (call: ServerWritableStream<Buffer, Buffer>) => {
          calls.push({ method: facts.name, metadata: metadataOf(call.metadata), body: call.request });
          const answer = current;
          if (answer.kind === 'stream') {
            for (const message of answer.messages) {
              call.write(Buffer.from(message));
            }
            call.end();
          } else if (answer.kind === 'fail') {
            call.emit('error', failure(answer));
          }
        }
      : (call: ServerUnaryCall<Buffer, Buffer>, callback: (error: object | null, value?: Buffer) => void) => {
          calls.push({ method: facts.name, metadata: metadataOf(call.metadata), body: call.request });
          const answer = current;
          if (answer.kind === 'answer') {
            callback(null, Buffer.from(answer.bytes));
          } else if (answer.kind === 'fail') {
            callback(failure(answer));
          }
        };
  }
  server.addService(definition, implementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    );
  });
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    answer: (answer) => {
      current = answer;
    },
    close: async () => {
      server.forceShutdown();
    },
  };
}

function failure(answer: Extract<PeerAnswer, { kind: 'fail' }>): object {
  const metadata = new Metadata();
  if (answer.statusDetails !== undefined) {
    metadata.set('grpc-status-details-bin', Buffer.from(answer.statusDetails));
  }
  return { code: answer.code, details: answer.details ?? 'peer words', metadata };
}
