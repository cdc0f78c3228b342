/**
`npm run size` (part of `npm test`): what a web app loads from `@surecall/client` must not grow unnoticed (CONTRIBUTING.md#packages-and-size). Each check bundles an import of the source, as a browser app's bundler would (ESM, minified, the `browser` platform, the `@surecall/source` condition so no build is needed), and fails when the gzipped size passes its limit. A change that grows a bundle raises the limit in the same commit, saying why; `npm run bench -- client` compares the size with the official SDK's client.
*/
const browser = (config) => ({
  ...config,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  conditions: ['@surecall/source'],
});

export default [
  {
    name: 'discover() and the client it returns',
    path: 'packages/client/src/index.ts',
    import: '{ discover }',
    gzip: true,
    // +1.4 kB for stream resumption (resumption.ts, the validator's seam): a broken stream continues by SubscribeToTask.
    // +0.3 kB: the SSE decoder finds lines in each chunk's decoded text and locates them in the bytes (sse-decoder.ts).
    limit: '41.7 kB',
    modifyEsbuildConfig: browser,
  },
  {
    name: 'the whole root entry',
    path: 'packages/client/src/index.ts',
    gzip: true,
    // remoteSkill adds 1.7 kB (the Standard Schema bridge, the skill's media rules, a task's bounded completion) to 48.7 kB; an app that imports discover() alone loads none of it. The message and part builders and the error messages that name the operation add 0.7 kB more; stream resumption 1.0 kB (resumption.ts, the validator's seam); the durable agent's audit, interface identity, duplicated outcome and reconcileDue with its claims 1.7 kB; the SSE decoder that finds lines in decoded text 0.3 kB.
    limit: '54.6 kB',
    modifyEsbuildConfig: browser,
  },
];
