// The installed mock agent's control routes, behind the token its command printed (mocks/README.md, "The
// command"): arm a fault for the next matching request, read the execution counter, the ground truth of what
// the agent ran. Shared by the runtime suites (`runtimes.mjs` in Node, Bun and Deno, `worker.mjs` in
// workerd); `fetch` is the runtime's own, so these requests share the client's connection and keep it warm:
// each answer is read to its end, since Deno closes a connection whose answer was cancelled, and the client's
// next request would then leave on a fresh one, which Deno never re-sent (`lost-answer-matrix.mjs`).

/** Throws `what`, named by its runtime, unless `condition` holds. */
export function checker(runtime) {
  return (condition, what) => {
    if (!condition) {
      throw new Error(`${runtime}: ${what}`);
    }
  };
}

/** The control routes of the agent at `origin`. */
export function mockControl(origin, token, check) {
  const headers = { 'x-surecall-mock-token': token, 'content-type': 'application/json' };
  const requests = async () => (await (await fetch(`${origin}/__requests`, { headers })).json()).requests;
  return {
    /** Arms one fault (`{ kind, operation, … }`) for the next matching request. */
    async arm(fault) {
      const armed = await fetch(`${origin}/__faults`, {
        method: 'POST',
        headers,
        body: JSON.stringify(fault),
      });
      check(armed.ok, `the fault ${fault.kind} was armed (${armed.status})`);
      await armed.text();
    },
    /** The faults still armed: one that was not spent means the request it waited for never came. */
    async armed() {
      return (await (await fetch(`${origin}/__faults`, { headers })).json()).faults.length;
    },
    /** Every execution of the agent so far. */
    async total() {
      return (await (await fetch(`${origin}/__executions`, { headers })).json()).total;
    },
    /** How many times the agent ran the message `messageId`. */
    async ranMessage(messageId) {
      const query = new URLSearchParams({ messageId });
      const counted = await (await fetch(`${origin}/__executions?${query}`, { headers })).json();
      return counted.byMessageId[messageId];
    },
    /**
    Marks the loopback mount's request log (`GET /__requests`, mocks/src/http/server.ts) just before a send;
    the function it returns says whether the send's first request rode a connection that had carried an
    earlier one. Only such a request can be sent again by a fetch whose reused connection closed under it
    (docs/interop.md#runtimes); one on a fresh connection, which a pool that has not taken the last
    connection back yet opens, is never re-sent.
    */
    async markWarm() {
      const earlier = await requests();
      const warm = new Set(earlier.map((request) => request.connection));
      const mark = earlier.at(-1)?.number ?? 0;
      // One turn of the event loop, so that the runtime's pool can take back the connection that answer left
      // idle (sent at once, Deno's request sometimes found it still checked out and opened a fresh one).
      await new Promise((resolve) => setTimeout(resolve, 0));
      return async () => {
        const sent = (await requests()).find(
          (request) => request.number > mark && !request.path.startsWith('/__'),
        );
        check(sent !== undefined, 'the send reached the agent');
        return warm.has(sent.connection);
      };
    },
  };
}
