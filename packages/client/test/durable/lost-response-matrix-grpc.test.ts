/**
The lost-response matrix (`test/support/lost-response-matrix.ts`) over gRPC: the same faults, rows and
expectations, against the mock agent's gRPC mount (`@surecall/mocks/grpc`) with the same agent core and fault
lab, each peer on its own loopback port. No MSW listens here: its interception of Node's sockets keeps an
HTTP/2 connection from opening.
*/
import { afterAll } from 'vitest';
import { closeGrpcPeers } from '../support/durable-peers.js';
import { describeMatrix } from '../support/lost-response-matrix.js';

afterAll(() => closeGrpcPeers());

describeMatrix('GRPC');
