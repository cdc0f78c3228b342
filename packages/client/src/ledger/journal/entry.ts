/**
@module
`@surecall/client/ledger/journal`: the file ledger's journal format, read without the store and without Node
(ARCHITECTURE.md#public-surface). A tool that holds a journal's bytes (the devtools import a file the user
picks) verifies it with the very code the file store replays it with (docs/durable-send.md#file-journal);
`@surecall/client/ledger/file` opens a journal by its path, read-only, with the same checks.
*/

export type { JournalContents, JournalEntry } from './reader.js';
export { readJournal } from './reader.js';
