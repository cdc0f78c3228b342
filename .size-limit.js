/**
`npm run size` (part of `npm test`): what a web app loads from `@surecall/client` must not grow unnoticed (CONTRIBUTING.md#packages-and-size). Each check bundles an import of the source, as a browser app's bundler would (ESM, minified, the `browser` platform, the `@surecall/source` condition so no build is needed), and fails when the gzipped size passes its limit: the first counts what the page loads (the code behind the dynamic import left out), the others every byte, the code loaded on demand included. A change that grows a bundle raises the limit in the same commit, saying why; `npm run bench -- client` compares the size with the official SDK's client.
*/
const browser = (config) => ({
  ...config,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  conditions: ['@surecall/source'],
});

// What the page loads: the module behind the one dynamic import (`deferred.ts`, ARCHITECTURE.md#decisions, "Code loads with its first use") is left out of the bundle, as a page that never streams, never refuses and calls nothing but `sendMessage()` never fetches it.
const withoutDeferred = (config) => ({
  ...browser(config),
  plugins: [
    {
      name: 'deferred-stays-out',
      setup(build) {
        build.onResolve({ filter: /\/deferred\.js$/ }, (args) => ({ path: args.path, external: true }));
      },
    },
  ],
});

export default [
  {
    name: 'discover() and the client it returns, as the page loads it',
    path: 'packages/client/src/index.ts',
    import: '{ discover }',
    gzip: true,
    // 34.0 kB as one file (`npm run bench -- client` counts the same code split into the page's entry and the chunk it shares with `deferred.ts`, each gzipped apart): the stream runner and opener, the SSE decoder, the JSON-RPC stream, the HTTP+JSON binding and its routes, the retry loop, a refusal's decoding, the extra-header checks, a skill's scopes and every operation's schemas and checks but SendMessage's load on demand; zod's string, number, boolean, record and pipe types are replaced by custom schemas with their verdicts (protocol/scalars.ts).
    // +3.8 kB (34.0 kB): ky 2 (8.9 kB gzipped alone, against ky 1.14's 5.1 kB; the design keeps ky as the HTTP layer).
    // -0.1 kB (33.8 kB): issue 28's restructure (named modules and functions over explicit state, the loader handed down, the client layer in client/, protocol/ without its barrel, durable/ split) ends smaller than it started: the members that may be absent are written by one function (core/optional-members.ts), and client/client.ts imports the loader and then the call runner before the rest, so that the bundle lays ky and zod out ahead of the client's own code.
    // +0.27 kB (34.09 kB): what the page's own path must hold for three features whose code otherwise loads on demand: the card request's A2A-Version and the call that asks for its fallback, the refusals that name their fix (both issue 34), the token kept to mask it in a refusal's own words and A2aClient.withExtendedCard (both issue 39); each stayed within 34.0 kB alone, together they do not.
    // +0.05 kB (34.14 kB): a client given the gRPC binding pins and selects a GRPC interface (`speaks` in client/pin.ts, the discovery fix naming a GRPC interface; issue 29): the binding itself is behind `@surecall/client/grpc`, none of it in this bundle.
    // +0.13 kB (34.27 kB): ClientOptions.interceptors (issue 33 item 1): the option's check where every option is resolved, when the client is built (client/options.ts, an OptionsError naming the interceptor), and the call's hand-over to the hooks, which load on demand with the extra headers (client/interceptors.ts); nothing of it can load later, since a bad list must be refused by createClient itself.
    // +0.034 kB (34.306 kB): a card that offers only v0.3 is refused by that version (issue 34: `NoSupportedInterface` with detail `protocol-version-0.3`, for a v0.3 card that fails the 1.0 contract and for a 1.0 card whose usable interfaces all speak 0.3), which must hold in every client with nothing opted in; the test itself loads on demand (discovery/version-refusal.ts, only a card already refused reaches it), and the page keeps the two calls that ask for it with their awaits (discovery/card-fetch.ts decodeCard, discovery/discovery.ts selectPin): 6 B over the 34.3 kB this row had.
    // +0.165 kB (34.471 kB): v0.3 peers, opt in (issue 34): `protocolVersions` checked where every option is resolved (client/options.ts), the interface's version on the pin with 1.0 preferred (client/pin.ts preferredInterface, shared by discovery's selection), the v0.3 card read before the card contract and the v0.3 binding built for a 0.3 pin (discovery/card-fetch.ts, client/call.ts): the hand-over to a binding given as `v03`, which createClient and discover() must check synchronously and before any I/O. The mapping, the v0.3 binding and the version checks of a list naming 0.3 are behind `@surecall/client/v03`, none of them in this bundle.
    // -0.029 kB (34.442 kB): fetch is handed the request's URL and whole init instead of ky's Request, which it copied on every call (wire/http.ts), and interceptors with no `after` read no answer headers (client/interceptors.ts): the limit follows the saving down.
    // ±0 kB (34.442 kB): v0.3 over HTTP+JSON (issue 34): the v0.3 binding is handed the client's resolved options and builds the binding its pin names (client/call.ts), which the page's path pays nothing for; the binding itself is behind `@surecall/client/v03`.
    // -0.025 kB (34.417 kB): the JSON scanner keeps its levels' state in plain arrays grown as levels open, not four typed arrays sized for `jsonDepth` per answer (wire/json-scanner.ts): the limit follows the saving down.
    // +0.008 kB (34.425 kB): an answer read in one chunk is that chunk, not a copy into a buffer of its own (wire/response-body.ts readAll): 17 B under the 34.442 kB this row had before the scanner's saving.
    limit: '34.425 kB',
    modifyEsbuildConfig: withoutDeferred,
  },
  {
    name: 'discover() and the client it returns, with everything it loads on demand',
    path: 'packages/client/src/index.ts',
    import: '{ discover }',
    gzip: true,
    // +1.4 kB for stream resumption (resumption.ts, the validator's seam): a broken stream continues by SubscribeToTask.
    // +0.3 kB: the SSE decoder finds lines in each chunk's decoded text and locates them in the bytes (sse-decoder.ts).
    // +1.9 kB: bundled into one file, every module behind the dynamic import of `deferred.ts` (which reaches `discover` so that the page's path stays one chunk) gets esbuild's lazy-initialisation wrapper; the page itself loads 5.5 kB less (the check above).
    // -0.9 kB (42.7 kB): zod's string, number, boolean, record and pipe types replaced by custom schemas (protocol/scalars.ts), and the files split off for the deferred module.
    // +4.1 kB (46.9 kB): ky 2, as above.
    // -0.1 kB (46.8 kB): issue 28's restructure, as above; with the loader imported first, the deferred module sits next to the protocol and JSON code again (once the call runner took its loader as a parameter, ky had come between them: +0.6 kB).
    // +0.7 kB (47.49 kB): a stream's budgets across its resumptions (client/stream-budget.ts: one event and one byte budget for every connection, a total of attempts and of time without progress; the stricter progress and the regressing seam snapshot in bindings/stream.ts; idle measured between events in wire/sse.ts), all in the deferred module (issue 36 item 3, issue 30 item 5).
    // +0.3 kB (47.79 kB): a refusal's own words as inert data (`RemoteError.remote`: the token masked, cut, escaped), in the deferred module that decodes refusals (issue 39 item 2); the page's own share grows by 32 B (the token kept for the mask, the hand-over where the call ends).
    // +0.08 kB (47.87 kB): A2aClient.withExtendedCard, a client on the extended card (issue 39 item 3); the card digest it records comes from the deferred module, which already holds it for discover(); the page's own share grows by 80 B (the method).
    // +0.11 kB (47.98 kB): the card request's A2A-Version and its one plain fallback in a page whose cross-origin card fetch failed (issue 34 item 2): the fallback's test and event load on demand (discovery/card-fallback.ts), and the page's path carries only the call that asks for it (+0.06 kB in the row above, within its limit).
    // +0.14 kB (48.12 kB): the refusals that name their fix (issue 34 item 3: DiscoveryError.fix, `loopback` where it admits a refused loopback URL or first-fetch trust, the card's preferred interface for a pin mismatch), which discover() throws from the page's path before anything loads; the row above carries them too (+0.11 kB, to 33.995 kB of its 34.0), paid in part by one check of the callback options (client/options.ts functionOption).
    // +0.05 kB (48.17 kB): a refusal's text may hold any character, escaped before the caller sees it (protocol/text.ts inertText; issue 39 item 2).
    // +0.05 kB (48.22 kB): a client given the gRPC binding pins and selects a GRPC interface (`speaks` in client/pin.ts, used by discovery; the provider's binding built in client/call.ts); the gRPC binding itself is in no browser bundle (`@surecall/client/grpc`, issue 29).
    // +0.25 kB (48.47 kB): ClientOptions.interceptors (issue 33 item 1): the page's share as above, and the hooks themselves in the deferred module (client/interceptors.ts: each `before` checked with `headers`, each `after` shown the answer's head).
    // +0.017 kB (48.499 kB, within the limit): an interceptor's `after` sees a gRPC answer's head too (issue 33, docs/protocol-checks.md#interceptors): the one function that shows an answer to every `after` is shared by the hooks' `fetch` and handed to the gRPC channel through the request's target (`observe`); the page's share is unchanged and the channel itself is behind `@surecall/client/grpc`.
    // +0.161 kB (48.66 kB): a card that offers only v0.3 is refused by that version, as above (issue 34): the page's two calls with their awaits, the two names the loader's `DeferredCode` gives them, and the test itself in the deferred module with the imports of its own file.
    // +0.191 kB (48.851 kB): v0.3 peers, opt in, as above (issue 34), and the refusal by version naming its fix (`protocolVersions`, discovery/version-refusal.ts, in the deferred module).
    // -0.012 kB (48.839 kB): the same two per-call savings, as above.
    // -0.001 kB (48.838 kB): v0.3 over HTTP+JSON, as above: the limit follows the byte down.
    // -0.034 kB (48.805 kB): the JSON scanner's plain arrays, as above.
    // +0.010 kB (48.815 kB): an answer read in one chunk is that chunk, as above.
    // +0.001 kB (48.816 kB): both of the above together.
    // -0.012 kB (48.804 kB): the v1.0 HTTP+JSON binding's route prefix in one function (bindings/rest.ts routePrefix), which the v0.3 binding shares with its status rule instead of copies of them.
    limit: '48.804 kB',
    modifyEsbuildConfig: browser,
  },
  {
    name: 'the whole root entry',
    path: 'packages/client/src/index.ts',
    gzip: true,
    // remoteSkill adds 1.7 kB (the Standard Schema bridge, the skill's media rules, a task's bounded completion) to 48.7 kB; an app that imports discover() alone loads none of it. The message and part builders and the error messages that name the operation add 0.7 kB more; stream resumption 1.0 kB (resumption.ts, the validator's seam); the durable agent's audit, interface identity, duplicated outcome and reconcileDue with its claims 1.7 kB; the SSE decoder that finds lines in decoded text 0.3 kB; the lazy-initialisation wrappers of the modules behind `deferred.ts`, bundled into one file, 2.1 kB; the durable path's synchronous SHA-256 (core/sha256.ts) 0.1 kB. zod's string, number, boolean, record and pipe types, replaced by custom schemas with their verdicts (protocol/scalars.ts), take 0.4 kB off (56.4 kB). The ledger's one-pass check of the common intent (`plainIntent`, ledger/record.ts: a file ledger's commits per second at 256 writers +15%) and the SSE decoder's fatal first decoder add 0.1 kB (56.5 kB). A remote skill's issue paths that name no key of the peer's answer, by the wire layer's rule for keys (durable/skill-value.ts, core/violation-path.ts), add 0.1 kB (56.54 kB).
    // +4.0 kB (60.6 kB): ky 2, as above.
    // -0.04 kB (60.53 kB): issue 28's restructure, as above, with the remote skills listed in index.ts ahead of the durable sends they run on; a send whose outcome the store cannot record ending unknown (issue 30) is included.
    // +1.0 kB (61.52 kB): the stream budgets, as above (0.7 kB), and what a ledger refusal tells its reader to do (core/ledger-error.ts: a file lock judged by heartbeat, a worker id another process holds; issue 30 items 3 and 4).
    // +0.33 kB (61.84 kB): a refusal's own words as inert data, as above (issue 39 item 2); the optional message ids (issue 39 item 1) took 1 B off.
    // +0.1 kB (61.94 kB): A2aClient.withExtendedCard, as above (issue 39 item 3).
    // +0.12 kB (62.06 kB): the card request's A2A-Version and its fallback, as above (issue 34 item 2).
    // +0.14 kB (62.2 kB): the refusals that name their fix, as above (issue 34 item 3).
    // +0.09 kB (62.29 kB): a durable send the peer answered with a direct Message ends unresolved (direct-message) after one probe (issue 34 item 4: the reason in the ledger's schemas, one test of a given-up record where there were three, and the probe's verdict in durable/reconciliation.ts); the page loads none of it.
    // +0.02 kB (62.31 kB): a refusal's text may hold any character, as above.
    // -0.32 kB (61.99 kB): what the Node stores' refusals tell their reader to do leaves core/ledger-error.ts for ledger/refusal-hints.ts, which only those stores import; the durable agent tells Deno from Node by the marks each prints (durable/environment.ts), with the client and ledger checks sharing one helper (issue 38).
    // +0.06 kB (62.05 kB): a client given the gRPC binding pins and selects a GRPC interface, as above (issue 29).
    // +0.31 kB (62.36 kB): ClientOptions.interceptors, as above (issue 33 item 1).
    // +0.011 kB (62.392 kB, within the limit): a durable record's trace context (issue 33), two optional labels of the intent (ledger/intent.ts) copied into the record (ledger/state-machine.ts); an intent that carries them takes the schema path, so the fast path is unchanged. The spans that write and read them are behind `@surecall/client/otel`.
    // +0.177 kB (62.569 kB): a card that offers only v0.3 is refused by that version, as above (issue 34).
    // +0.178 kB (62.748 kB): v0.3 peers, opt in, as above (issue 34), fetchAgentCard's check of the option included; the v0.3 binding and mapping are behind `@surecall/client/v03`.
    // +0.031 kB (62.779 kB): a durable send to a v0.3 peer whose lost answer no scan can settle ends unresolved (no-list-tasks) at its first probe (issue 34 item 4: the reason in the ledger's two reason schemas, ledger/record.ts, and the probe's verdict, durable/reconciliation.ts); the page loads none of it.
    // -0.001 kB (62.778 kB): v0.3 over HTTP+JSON, as above.
    // -0.032 kB (62.747 kB): the JSON scanner's plain arrays, as above.
    // +0.008 kB (62.755 kB): an answer read in one chunk is that chunk, as above.
    // -0.001 kB (62.754 kB): both of the above together.
    // +0.001 kB (62.755 kB): the route prefix in one function, as above.
    limit: '62.755 kB',
    modifyEsbuildConfig: browser,
  },
];
