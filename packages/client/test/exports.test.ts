import * as root from '@surecall/client';
import * as grpc from '@surecall/client/grpc';
import * as idempotency from '@surecall/client/idempotency';
import * as ledger from '@surecall/client/ledger';
import * as fileLedger from '@surecall/client/ledger/file';
import * as journal from '@surecall/client/ledger/journal';
import * as memoryLedger from '@surecall/client/ledger/memory';
import * as postgresLedger from '@surecall/client/ledger/postgres';
import * as otel from '@surecall/client/otel';
import * as protocol from '@surecall/client/protocol';
import * as v03 from '@surecall/client/v03';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { readSource } from '../../../scripts/source-facts.js';
import pkg from '../package.json' with { type: 'json' };
// The IndexedDB store is what a browser bundle gets for '@surecall/client/ledger'; Node never resolves it by
// name.
import * as idbLedger from '../src/ledger/idb.js';
// And where no condition names the platform, the same store behind a refusal that names the explicit choices.
import * as portableLedger from '../src/ledger/portable.js';

// Every entry's runtime names, sorted: a name added to or dropped from the public API changes a snapshot
// below, so it is a reviewed change.
const names = (entry: object): string[] => Object.keys(entry).sort();

describe('the package entries', () => {
  it('keep the root to what an application needs, at most 35 values', () => {
    expect(names(root).length).toBeLessThanOrEqual(35);
    expect(names(root)).toMatchInlineSnapshot(`
      [
        "AuthorizationError",
        "CanonicalJsonError",
        "CapabilityError",
        "DiscoveryError",
        "ExchangeError",
        "HttpProtocolError",
        "InvalidResponseError",
        "LedgerError",
        "OptionsError",
        "RemoteError",
        "RequestError",
        "TransportError",
        "cardDigest",
        "createClient",
        "dataPart",
        "defaultLimits",
        "discover",
        "durableAgent",
        "fetchAgentCard",
        "fileUrlPart",
        "honoursIdempotency",
        "isClientError",
        "isInterrupted",
        "isTerminal",
        "keyOf",
        "newIdempotencyKey",
        "remoteSkill",
        "setKey",
        "skillMetadataKey",
        "startDelegation",
        "textPart",
        "userMessage",
        "verifyCardSignature",
      ]
    `);
  });

  it('give the protocol its own entry: parsers, the error table, the operation table', () => {
    expect(names(protocol)).toMatchInlineSnapshot(`
      [
        "a2aErrors",
        "a2aProtoDescriptor",
        "compareTimestamps",
        "contractBounds",
        "errorByCode",
        "errorByReason",
        "errorDetailsProtoDescriptor",
        "errorDomain",
        "errorInfoType",
        "grpcMessages",
        "grpcServiceName",
        "interruptedStates",
        "operationNames",
        "operations",
        "parseAgentCard",
        "parseMessage",
        "parseTask",
        "safeParseAgentCard",
        "safeParseMessage",
        "safeParseTask",
        "statusProtoDescriptor",
        "terminalStates",
      ]
    `);
  });

  it('give OpenTelemetry its own entry, the one that imports the optional peer', () => {
    expect(names(otel)).toMatchInlineSnapshot(`
      [
        "createDurableTracing",
        "createMetrics",
        "createTracing",
        "tracedCallsKept",
        "tracerName",
      ]
    `);
  });

  it("give an agent's half of the idempotency extension its own entry", () => {
    expect(names(idempotency)).toMatchInlineSnapshot(`
      [
        "declaresExtension",
        "idempotencyExtensionUri",
        "idempotencyMetadataKey",
        "keyErrorText",
        "keyOf",
        "maxKeyLength",
        "minKeyLength",
        "validateKey",
      ]
    `);
  });

  it('give every ledger store the same names, whichever the export conditions pick', () => {
    expect(names(memoryLedger)).toMatchInlineSnapshot(`
      [
        "openLedger",
        "statusOf",
        "verifyHistory",
      ]
    `);
    expect(names(idbLedger)).toEqual(names(memoryLedger));
    expect(names(portableLedger)).toEqual(names(memoryLedger));
    // The file store alone can compact its journal.
    expect(names(fileLedger)).toMatchInlineSnapshot(`
      [
        "compactLedger",
        "ledgerPath",
        "openLedger",
        "statusOf",
        "verifyHistory",
      ]
    `);
    expect(names(fileLedger)).toEqual([...names(memoryLedger), 'compactLedger', 'ledgerPath'].sort());
    // The fleet's store: its own opener with the worker, lease and schema, and its schema version.
    expect(names(postgresLedger)).toMatchInlineSnapshot(`
      [
        "openLedger",
        "openPostgresLedger",
        "postgresSchemaVersion",
        "statusOf",
        "verifyHistory",
      ]
    `);
    expect(names(postgresLedger)).toEqual(
      [...names(memoryLedger), 'openPostgresLedger', 'postgresSchemaVersion'].sort(),
    );
    // Under Node, '@surecall/client/ledger' is the file store.
    expect(ledger).toBe(fileLedger);
  });

  it('give every ledger store the same type names too, read from their sources', () => {
    const exported = (path: string) => [...readSource(`packages/client/src/ledger/${path}`).exports].sort();
    const shared = exported('memory.ts');
    expect(shared).toContain('LedgerRecord');
    expect(shared).toContain('DurableStatus');
    expect(exported('idb.ts')).toEqual(shared);
    expect(exported('portable.ts')).toEqual(shared);
    for (const path of ['file.ts', 'postgres/entry.ts']) {
      expect(exported(path)).toEqual(expect.arrayContaining(shared));
    }
  });

  it('give the journal format its own browser-safe entry: the reader the file store replays with', () => {
    expect(names(journal)).toMatchInlineSnapshot(`
      [
        "readJournal",
      ]
    `);
  });

  it('give the gRPC binding its own Node entry, which the root never imports', () => {
    expect(names(grpc)).toMatchInlineSnapshot(`
      [
        "createGrpcRegistry",
        "grpcBinding",
      ]
    `);
    expect(grpc.grpcBinding.protocolBinding).toBe('GRPC');
  });

  it('keep every gRPC byte out of a browser build of the root entry, and the gRPC entry null there', async () => {
    const built = await build({
      stdin: { contents: "export * from '@surecall/client';", resolveDir: import.meta.dirname },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      conditions: ['@surecall/source'],
      logLevel: 'silent',
    });
    const text = built.outputFiles.map((file) => file.text).join('\n');
    for (const marker of ['lf.a2a.v1', 'A2AService', 'grpc-status-details-bin', 'makeUnaryRequest']) {
      expect(text).not.toContain(marker);
    }
    expect(pkg.exports['./grpc'].browser).toBeNull();
  });

  it('give the v0.3 binding its own entry, whose mapping no build of the root entry holds', async () => {
    expect(names(v03)).toMatchInlineSnapshot(`
      [
        "v03Binding",
      ]
    `);
    expect(v03.v03Binding.protocolVersion).toBe('0.3');
    const built = await build({
      stdin: { contents: "export * from '@surecall/client';", resolveDir: import.meta.dirname },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      conditions: ['@surecall/source'],
      logLevel: 'silent',
    });
    const text = built.outputFiles.map((file) => file.text).join('\n');
    for (const marker of [
      'message/send',
      'tasks/resubscribe',
      'getAuthenticatedExtendedCard',
      'additionalInterfaces',
    ]) {
      expect(text).not.toContain(marker);
    }
  });
});
