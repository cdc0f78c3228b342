/**
@module
A peer's own words beside the error they came with (ARCHITECTURE.md#errors): the shape a caller gets. The
code that makes them (`bindings/remote-error.ts`) loads on demand with the refusal.
*/

/**
What the peer said in its error answer, as inert, bounded data (ARCHITECTURE.md#errors): its `message` and its
`details` (the JSON text of the ErrorInfo list, or of a JSON-RPC `data`), each with the credential the call
sent replaced by `[credential]`, then cut to its first 1024 UTF-16 code units (never half a surrogate pair),
then escaped: `\\` for a backslash, `\u{…}` for a control, format (bidi), separator or lone surrogate code
point. `truncated` says whether either was cut. Safe to show or log as text; it is never part of an error's
`message`, `stack`, `toJSON()` or an inspector event.

@example
```ts
if (error instanceof RemoteError && error.remote !== undefined) {
  show(`The agent said: ${error.remote.message}`); // 'Task not found: t-1', or 'a\\u{a}b' for a line break
}
```
*/
export type RemoteText = { readonly message: string; readonly details?: string; readonly truncated: boolean };
