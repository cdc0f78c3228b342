/**
@module
`@surecall/mocks/grpc`: the mock agent over gRPC (A2A spec §10), in Node only (`browser` → `null`): a grpc-js
server on 127.0.0.1 over an agent made by `createAgent`, with its fault lab. `startMockAgent({ grpcPort })`
(`@surecall/mocks/node`) and `surecall-mock-agent --grpc-port` start it beside the HTTP server;
`@grpc/grpc-js` and `@bufbuild/protobuf` are optional peers that only this mount loads.
*/
export type { GrpcMount, GrpcMountOptions } from './server.js';
export { listenGrpc } from './server.js';
