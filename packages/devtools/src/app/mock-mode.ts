/**
@module
The embedded mock agent: the reference agent of `@surecall/mocks` behind an MSW service worker, answering on
the page's own origin only, so the devtools run with nothing else started. It runs only while the devtools are
connected to it: connecting elsewhere stops it. Loaded with a dynamic `import()` only in mock mode, so neither
the mock nor MSW is ever part of the devtools' main bundle (`msw/browser` alone weighs about 99 KB gzip).
*/

/** The running embedded mock. */
export type EmbeddedMock = {
  /** `${location.origin}/.well-known/agent-card.json` */
  readonly cardUrl: string;
  /** Unregisters the interception and stops the agent's timers. */
  stop(): void;
};

/**
The mock agent's pause between a task's scripted steps: long enough for a person to watch a stream arrive.
*/
export const mockStepMs = 200;

/**
Starts the mock agent in this page. The worker script must be served at `mockServiceWorker.js` beside the page
(the devtools' `dev` and `build` scripts generate it with `msw init`); without it `start` rejects.

@example
```ts
const mock = await startEmbeddedMock();
const connection = await connect({ cardUrl: mock.cardUrl });
```
*/
export async function startEmbeddedMock(): Promise<EmbeddedMock> {
  const { createMockAgentWorker } = await import('@surecall/mocks/browser');
  // Only the page's own origin: a worker without one answers the agent's paths on every origin, so an agent
  // the devtools connect to elsewhere would be answered by this mock (the app also stops it then). Every
  // other request, the app's own modules included, goes through.
  const mock = createMockAgentWorker({ stepMs: mockStepMs, origin: location.origin });
  await mock.start({
    onUnhandledFrame: 'bypass',
    quiet: true,
    serviceWorker: { url: new URL('mockServiceWorker.js', document.baseURI).pathname },
  });
  return { cardUrl: mock.cardUrl, stop: mock.stop };
}
