/**
@module
Peer text on a terminal (README.md#the-surecall-command): a card's names, an id, a task's status message, an
artifact's chunks are the peer's words, printed because the user asked for them. Every such string is printed
through `terminalText`, and every JSON document through `terminalJson`, so a peer can neither move the cursor,
clear the screen, set the title or a hyperlink (ECMA-48 §5: C0, DEL, C1, and the ESC, CSI and OSC sequences
they start), nor forge a line of ours, nor make text read otherwise than it is (bidi overrides and isolates,
zero-width and other invisible format characters).

A person's output is line-oriented, and a line feed in a peer's text would print a line that reads as ours
(`COMPLETED: done`, a record's outcome): so every peer string is printed on one line, its line feeds, carriage
returns and tabs shown as `\n`, `\r`, `\t`. The exact text is in the `--json` documents.
*/

// What is shown escaped: the backslash (so the escaped form reads back one way), controls (Cc: C0, DEL, C1),
// format characters (Cf: bidi controls, zero-width characters, the BOM, tag characters…), the line and
// paragraph separators (Zl, Zp) and unpaired surrogates (Cs). Kept as they are: U+200D after an emoji (or its
// skin tone, or its VS16) and before another, the ZWJ that joins 👩‍💻 into one emoji, and the tag characters
// of an emoji tag sequence (🏴 + tags + cancel tag, a subdivision flag).
const shownInText =
  /(?:\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|(?<=\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F)\u200D(?=\p{Extended_Pictographic}))|([\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}])/gu;

const short: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');

/**
One escaped code point: `\\`, `\n`, `\r`, `\t`, `\xhh` below U+0100, `\uhhhh` in the BMP, `\u{hhhhh}` above.
*/
function escaped(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return (
    short[char] ??
    (code < 0x100 ? `\\x${hex(code, 2)}` : code < 0x10000 ? `\\u${hex(code, 4)}` : `\\u{${hex(code, 5)}}`)
  );
}

/**
A peer's `text` as one line of terminal text: nothing in it is a control, an escape sequence, a bidi control
or an invisible format character, every such code point is shown escaped (`\x1b`, `\u202e`, `\n`), and a
backslash as `\\`, so the printed form reads back to exactly one text. Letters, marks, CJK, emoji and their
ZWJ sequences are printed as they are.

@example
```ts
terminalText('ok\u001b[2J'); // 'ok\\x1b[2J'
terminalText('a\nb'); // 'a\\nb'
terminalText('👩‍💻 café'); // '👩‍💻 café'
```
*/
export function terminalText(text: string): string {
  return text.replace(shownInText, (whole, shown: string | undefined) =>
    shown === undefined ? whole : escaped(shown),
  );
}

// What JSON.stringify leaves raw but a terminal would act on or hide: DEL, C1, format characters, U+2028 and
// U+2029 (it already escapes C0 and unpaired surrogates, and nothing outside a string is beyond ASCII).
const shownInJson = /[\u007f-\u009f\p{Cf}\u2028\u2029]/gu;

/** `\uhhhh` for each UTF-16 unit of `char`: a JSON string escape, which JSON.parse reads back as `char`. */
function jsonEscaped(char: string): string {
  let units = '';
  for (let index = 0; index < char.length; index++) {
    units += `\\u${hex(char.charCodeAt(index), 4)}`;
  }
  return units;
}

/**
`value` as compact JSON that is also safe terminal text: `JSON.stringify`, with the characters it leaves raw
that a terminal would act on or hide (DEL, C1, format characters, U+2028, U+2029) written as `\u` escapes. The
document is still valid JSON and parses back to the same value.

@example
```ts
terminalJson({ name: 'a\u202eb' }); // '{"name":"a\\u202eb"}'
JSON.parse(terminalJson({ name: 'a\u202eb' })).name; // 'a\u202eb'
```
*/
export function terminalJson(value: unknown): string {
  return String(JSON.stringify(value)).replace(shownInJson, jsonEscaped);
}
