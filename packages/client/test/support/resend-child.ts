/**
@module
A child process for `test/durable/runtime-resend.test.ts`, run by Node, Bun and Deno alike: the probe of
`resend-probe.ts` against the loopback mock agent at `<origin>` (control routes behind `<token>`), its lost
send reconciled. It reports one JSON object on stdout and never exits non-zero on a finding.
*/
import { probeResend } from './resend-probe.js';

const [origin = '', token = ''] = process.argv.slice(2);
process.stdout.write(`${JSON.stringify(await probeResend(origin, token, { reconcile: true }))}\n`);
