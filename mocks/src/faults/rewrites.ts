/**
@module
What an armed fault does to one exchange (internal to `faults.ts`): lose the answer, delay it, replace it with
another status, or rewrite the answer the agent gave, frame by frame for a stream (`streams.ts`) or on one
JSON document (`documents.ts`). Every fault but `drop-before` and an abandoned `delay` keeps the agent's work:
only what the client reads changes.
*/

import { rewriteDocument, rewritesDocuments } from './documents.js';
import type { Call, FaultSpec, Handle } from './fault-types.js';
import { streamRewrite } from './streams.js';

/** Read a body to its end so that the agent's work finishes; stop early only if the client gives up. */
async function drain(response: Response, signal: AbortSignal): Promise<void> {
  const reader = response.body?.getReader();
  if (reader === undefined) {
    return;
  }
  const stop = () => {
    void reader.cancel().catch(() => undefined);
  };
  signal.addEventListener('abort', stop, { once: true });
  try {
    while (!(await reader.read()).done) {
      // Discard: only the side effects of producing the body matter.
    }
  } catch {
    // A broken body still means the agent stopped producing it.
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** Wait `ms`, or less if the signal aborts; resolves whether the whole wait happened. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const html413 =
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>PayloadTooLargeError: request entity too large</pre>\n</body>\n</html>\n';

/** Apply one fault to the exchange of `request` with the agent's `handle`. */
export async function applyFault(
  spec: FaultSpec,
  { call, request, handle }: { readonly call: Call; readonly request: Request; readonly handle: Handle },
): Promise<Response> {
  const { signal } = request;
  switch (spec.kind) {
    case 'drop-before':
      return Response.error();
    case 'drop-after': {
      await drain(await handle(request), signal);
      return Response.error();
    }
    case 'delay': {
      if (spec.when === 'after') {
        const response = await handle(request);
        if (await sleep(spec.ms, signal)) {
          return response;
        }
        await response.body?.cancel().catch(() => undefined);
        return Response.error();
      }
      return (await sleep(spec.ms, signal)) ? handle(request) : Response.error();
    }
    case 'status-after': {
      await drain(await handle(request), signal);
      const headers = new Headers({ 'content-type': 'text/plain; charset=utf-8' });
      if (spec.retryAfterSeconds !== undefined) {
        headers.set('retry-after', String(spec.retryAfterSeconds));
      }
      const status = spec.status ?? 503;
      return new Response(spec.body === 'empty' ? null : `${status} injected by the fault lab\n`, {
        status,
        headers,
      });
    }
    case 'html-413': {
      await drain(await handle(request), signal);
      return new Response(html413, { status: 413, headers: { 'content-type': 'text/html; charset=utf-8' } });
    }
    case 'redirect': {
      await drain(await handle(request), signal);
      const target = new URL(spec.location ?? '/__redirected', request.url).href;
      return new Response(null, { status: 302, headers: { location: target } });
    }
    default:
      return reshape(await handle(request), { spec, call });
  }
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

function isJson(response: Response): boolean {
  return /^application\/([\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '');
}

function copyHeaders(response: Response): Headers {
  const headers = new Headers(response.headers);
  // The body changes length, so any declared length would now be a lie of its own.
  headers.delete('content-length');
  return headers;
}

/** The faults that rewrite the answer the agent gave. */
export async function reshape(
  response: Response,
  { spec, call }: { readonly spec: FaultSpec; readonly call: Call },
): Promise<Response> {
  if (response.type === 'error' || response.body === null) {
    return response;
  }
  const init = { status: response.status, statusText: response.statusText, headers: copyHeaders(response) };
  if (spec.kind === 'wrong-media-type') {
    init.headers.set('content-type', 'text/plain; charset=utf-8');
    return new Response(response.body, init);
  }
  if (isEventStream(response)) {
    const frames = streamRewrite(response.body, { spec, call });
    return frames === undefined ? response : new Response(frames, init);
  }
  if (spec.kind === 'premature-eof') {
    const bytes = new Uint8Array(await response.arrayBuffer());
    return new Response(bytes.slice(0, Math.floor(bytes.length / 2)), init);
  }
  if (!isJson(response) || !rewritesDocuments(spec)) {
    return response;
  }
  return new Response(rewriteDocument(await response.text(), { status: response.status, call, spec }), init);
}
