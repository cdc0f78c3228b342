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
  };
}
