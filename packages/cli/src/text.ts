/**
@module
Peer text on a terminal: a card's names and descriptions, an artifact's chunks are the peer's words, printed because the user asked for them. Control characters are replaced, so a peer cannot move the cursor, clear the screen or forge a line of ours.
*/

// C0 controls but tab and line feed, DEL, and C1 controls (ECMA-48 §5): each could start an escape sequence.
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

/**
`text` with every control character but tab and line feed replaced by U+FFFD; `oneLine` also replaces line feeds by spaces.

@example
```ts
printable('ok\u001b[2J'); // 'ok\uFFFD[2J'
```
*/
export function printable(text: string, oneLine = false): string {
  let safe = '';
  for (const char of text) {
    safe += isControl(char.codePointAt(0) ?? 0) ? '\uFFFD' : char;
  }
  return oneLine ? safe.replace(/[\t\n]+/g, ' ') : safe;
}
