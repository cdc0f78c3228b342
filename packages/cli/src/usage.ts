/**
@module
The usage text, printed on stderr with exit code 2 whenever the arguments break a rule, and on stdout for
`surecall help`.
*/

/** The whole usage, one command per paragraph. */
export const usage = `usage: surecall <command> [options]

  surecall card <card-url> [--loopback] [--binding GRPC] [--protocol-versions 1.0,0.3] [--json]
      Fetch and check an agent's card as discover() does; print its interfaces, security,
      extensions, skills and digest (sha256:<hex>, RFC 8785) to pin with --digest or trust.
      --binding GRPC marks the interface a client that also speaks gRPC would use;
      --protocol-versions 1.0,0.3 reads a v0.3 card and marks what a client that also speaks v0.3 would use.

  surecall send <card-url> [<text>] [--data <json>] [--skill <id>] [--loopback]
                [--binding JSONRPC|HTTP+JSON|GRPC] [--pin <url>]... [--digest sha256:<hex>]
                [--token-env <VAR> | --token-stdin] [--scheme <name>] [--protocol-versions 1.0,0.3] [--stream]
                [--durable --ledger <path|postgres://…> [--schema <name>] [--delivery keyed|at-most-once]]
                [--json]
      Send one message (a text part, a JSON data part, or both): plain (SendMessage), streaming (--stream: states and artifact chunks
      live), or durable (--durable: recorded in the ledger before it leaves, sent once). --protocol-versions
      names the A2A versions to speak (1.0 and 0.3, each once; 1.0 alone by default), 1.0 preferred.

  surecall sends list|show <id>|reconcile [<id>...]|watch --ledger <path|postgres://…> [--schema <name>]
                [--card <card-url> [--loopback] [--binding …] [--pin …] [--digest …] [--token-env …] [--protocol-versions …]] [--json]
      The durable sends of a ledger. reconcile (needs --card) claims and probes every unknown send of
      that agent that is due, then prints the pass's report (claimed, committed, pending, unresolved,
      skipped, superseded), or probes the given ones; watch follows the ledger until interrupted.

  surecall devtools --ledger <path|postgres://…> [--schema <name>] [--port <n>] [--json]
      Serve the devtools on 127.0.0.1 with a read-only view of the ledger.

A postgres:// ledger is the fleet store (@surecall/client/ledger/postgres, with the pg driver); --schema
names its schema when it is not the store's default. Readers (list, show, watch, devtools) open it
read-only; send and reconcile write as worker surecall-cli-<hostname>-<pid>.

Exit codes: 0 answered or committed, 1 failed (not started or not applied), 2 usage or options,
3 outcome unknown (the send may have run: reconcile, do not resend), 4 unresolved or duplicated.
Tokens come only from an environment variable (--token-env) or stdin (--token-stdin), never argv.`;
