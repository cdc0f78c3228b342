/**
@module
`surecall card <card-url>`: fetch and check the card as `discover()` does
(docs/protocol-checks.md#discovery-steps) and print what a reviewer needs, ending with the digest
(`sha256:<hex>`, SHA-256 over the RFC 8785 form) to pin with `--digest` or `trust: { kind: 'digest' }`.
*/
import { type AgentCard, fetchAgentCard, honoursIdempotency, type ProtocolVersion } from '@surecall/client';
import { spokenVersion, versionOptions } from '../connect.js';
import { type ExitCode, exitCodes } from '../exit-code.js';
import type { Output } from '../output.js';
import { terminalText } from '../text.js';

const spoken = new Set(['JSONRPC', 'HTTP+JSON']);
// A client given the gRPC binding speaks it too (`surecall card --binding GRPC`).
const spokenWithGrpc = new Set([...spoken, 'GRPC']);

/** The card as the command reports it. */
export type CardReport = {
  readonly name: string;
  readonly version: string;
  readonly interfaces: readonly {
    readonly binding: string;
    readonly url: string;
    readonly tenant?: string;
    readonly protocolVersion: string;
    /**
    The first v1.0 interface over a binding surecall speaks, else with 0.3 admitted the first v0.3 one it
    speaks: the one `discover()` uses.
    */
    readonly preferred: boolean;
  }[];
  readonly security: {
    readonly schemes: readonly string[];
    /** Each alternative: the scheme names it requires together; `[]` admits anonymous callers. */
    readonly requirements: readonly (readonly string[])[];
  };
  readonly extensions: readonly { readonly uri: string; readonly required: boolean }[];
  readonly honoursIdempotency: boolean;
  readonly skills: readonly {
    readonly id: string;
    readonly name: string;
    readonly inputModes: readonly string[];
    readonly outputModes: readonly string[];
  }[];
  readonly digest: string;
};

/**
The report of a checked card.

@example
```ts
cardReport(card, 'sha256:…').interfaces.find((entry) => entry.preferred);
```
*/
export function cardReport(
  card: AgentCard,
  digest: string,
  withGrpc = false,
  versions?: readonly ProtocolVersion[],
): CardReport {
  const speaks = withGrpc ? spokenWithGrpc : spoken;
  const first = (version: string) =>
    card.supportedInterfaces.findIndex(
      (entry) => spokenVersion(entry, speaks.has(entry.protocolBinding), versions) === version,
    );
  const v10 = first('1.0');
  const preferred = v10 === -1 ? first('0.3') : v10;
  return {
    name: card.name,
    version: card.version,
    interfaces: card.supportedInterfaces.map((entry, index) => ({
      binding: entry.protocolBinding,
      url: entry.url,
      ...(entry.tenant === undefined ? {} : { tenant: entry.tenant }),
      protocolVersion: entry.protocolVersion,
      preferred: index === preferred,
    })),
    security: {
      schemes: Object.keys(card.securitySchemes ?? {}),
      requirements: (card.securityRequirements ?? []).map((requirement) => Object.keys(requirement.schemes)),
    },
    extensions: card.capabilities.extensions.map((extension) => ({
      uri: extension.uri,
      required: extension.required,
    })),
    honoursIdempotency: honoursIdempotency(card),
    skills: card.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      inputModes: skill.inputModes ?? card.defaultInputModes,
      outputModes: skill.outputModes ?? card.defaultOutputModes,
    })),
    digest,
  };
}

function printReport(out: Output, report: CardReport): void {
  // Every string of the report but the digest is the card's, so the peer's words
  // (README.md#the-surecall-command).
  const p = terminalText;
  out.line(`${p(report.name)} ${p(report.version)}`);
  out.line('interfaces (* the one discover() uses)');
  for (const entry of report.interfaces) {
    const tenant = entry.tenant === undefined ? '' : ` tenant ${p(entry.tenant)}`;
    out.line(
      `  ${entry.preferred ? '*' : ' '} ${p(entry.binding).padEnd(9)} ${p(entry.url)}${tenant} (v${p(entry.protocolVersion)})`,
    );
  }
  out.line(`security schemes: ${report.security.schemes.map(p).join(', ') || 'none'}`);
  const alternatives = report.security.requirements.map((schemes) =>
    schemes.length === 0 ? 'anonymous' : schemes.map(p).join(' + '),
  );
  out.line(`security requirements: ${alternatives.join(' | ') || 'none (anonymous)'}`);
  out.line('extensions');
  for (const extension of report.extensions) {
    out.line(`  ${p(extension.uri)}${extension.required ? ' (required)' : ''}`);
  }
  if (report.extensions.length === 0) {
    out.line('  none');
  }
  out.line(
    report.honoursIdempotency
      ? 'idempotency keys: honoured (a keyed send can be re-sent safely: --delivery keyed)'
      : 'idempotency keys: not honoured (a lost answer is reconciled from the task history)',
  );
  out.line('skills');
  for (const skill of report.skills) {
    out.line(
      `  ${p(skill.id)}  in: ${skill.inputModes.map(p).join(', ')}  out: ${skill.outputModes.map(p).join(', ')}`,
    );
  }
  out.line(`digest ${report.digest}`);
}

/**
Runs `surecall card`.

@example
```ts
await cardCommand(out, { cardUrl, loopback: true }); // 0
```
*/
export async function cardCommand(
  out: Output,
  args: {
    readonly cardUrl: string;
    readonly loopback: boolean;
    readonly binding?: string | undefined;
    readonly protocolVersions?: readonly ProtocolVersion[] | undefined;
  },
): Promise<ExitCode> {
  const fetched = await fetchAgentCard({
    cardUrl: args.cardUrl,
    loopback: args.loopback,
    ...versionOptions(args.protocolVersions),
  });
  const report = cardReport(fetched.card, fetched.digest, args.binding === 'GRPC', args.protocolVersions);
  out.document(report);
  printReport(out, report);
  return exitCodes.ok;
}
