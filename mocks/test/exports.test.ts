/**
The value names of every entry of `@surecall/mocks`, imported through the package's own `exports`
(CONTRIBUTING.md#public-entries): a name added to or dropped from an entry changes a list below, so the growth
of the surface is a reviewed change.
*/
import * as root from '@surecall/mocks';
import * as browser from '@surecall/mocks/browser';
import * as grpc from '@surecall/mocks/grpc';
import * as node from '@surecall/mocks/node';
import * as playwright from '@surecall/mocks/playwright';
import * as sdkAgent from '@surecall/mocks/sdk-agent';
import { describe, expect, it } from 'vitest';

const names = (entry: object): string[] => Object.keys(entry).sort();

describe('the package entries', () => {
  it('keep the root to what the READMEs and the other packages use: the agent, its paths, the fault lab and the handlers', () => {
    expect(names(root)).toEqual([
      'agentCardPath',
      'createAgent',
      'createFaultLab',
      'createHandlers',
      'createMockHandle',
      'idempotencyExtensionUri',
      'jsonRpcPath',
      'parseFaultSpec',
      'restPath',
      'safeParseFaultSpec',
    ]);
  });

  it('give each mount its own entry', () => {
    expect(names(node)).toEqual([
      'createMockAgentServer',
      'createNodeListener',
      'listenLoopback',
      'mockTokenHeader',
      'startMockAgent',
    ]);
    expect(names(browser)).toEqual(['createMockAgentWorker']);
    expect(names(playwright)).toEqual(['expect', 'test']);
    expect(names(grpc)).toEqual(['listenGrpc']);
  });

  it('give the official SDK server its own entry', () => {
    expect(names(sdkAgent)).toEqual([
      'sdkExtendedDescription',
      'sdkExtensionUri',
      'sdkTenant',
      'startSdkAgent',
    ]);
  });
});
