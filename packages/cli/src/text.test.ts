import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalJson, terminalText } from './text.js';

/** Reads an escaped form back: the inverse the printed form must have to be unambiguous. */
function unescaped(shown: string): string {
  return shown.replace(
    /\\(?:([\\nrt])|x([0-9a-f]{2})|u\{([0-9a-f]+)\}|u([0-9a-f]{4}))/g,
    (whole, letter?: string, byte?: string, astral?: string, unit?: string) => {
      if (letter !== undefined) {
        return { '\\': '\\', n: '\n', r: '\r', t: '\t' }[letter] ?? whole;
      }
      const code = Number.parseInt(byte ?? astral ?? unit ?? '', 16);
      // A lone surrogate was escaped as one unit, and comes back as one.
      return unit === undefined ? String.fromCodePoint(code) : String.fromCharCode(code);
    },
  );
}

// What must never reach a terminal raw.
const controls = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}]/u;
const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// A format character that may stay: U+200D between two emoji, and the tags of a 🏴 tag sequence.
const keptFormat =
  /(?<=\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F)\u200D(?=\p{Extended_Pictographic})|\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;

// What every generated string draws from often: each class the function escapes (one code point each), text
// that looks like its escapes, and the parts of emoji sequences.
const hostile = [
  ...'\x00\x07\x08\t\n\r\x1b\x7f\x80\x85\x9b\x9d\x9f\u00ad\u061c\u200b\u200c\u200d\u200e\u200f\u2028\u2029',
  ...'\u202a\u202b\u202c\u202d\u202e\u2060\u2066\u2067\u2068\u2069\ufeff\u{e0001}\u{e0067}\u{e007f}',
  ...'\u{1f3f4}\u{1f469}\u{1f3fd}\ufe0f\u{1f4bb}\\xu{}nrt01bef[];aé日',
  ...['\\n', '\\t', '\\x1b', '\\x9b', '\\u202e', '\\ud800', '\\u{e0001}', '\\\\', '\\u{', 'x1b', 'u200d'],
];
const char = fc.oneof(
  fc.constantFrom(...hostile),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
);
const text = fc.array(char, { maxLength: 40 }).map((chars) => chars.join(''));

describe('terminalText', () => {
  it.each<[string, string, string]>([
    // Text that stays as it is.
    ['plain ASCII', 'surecall mock agent 0.1.0', 'surecall mock agent 0.1.0'],
    ['accents', 'café naïve Ångström', 'café naïve Ångström'],
    ['a combining accent', 'cafe\u0301', 'cafe\u0301'],
    ['CJK and Hangul', '日本語のテキスト 中文 한국어', '日本語のテキスト 中文 한국어'],
    ['right-to-left letters (no control)', 'שלום مرحبا', 'שלום مرحبا'],
    ['a no-break space', 'a\u00a0b', 'a\u00a0b'],
    ['an emoji', 'done 🎉', 'done 🎉'],
    ['a ZWJ emoji', '👩‍💻', '👩‍💻'],
    ['a ZWJ family', '👨‍👩‍👧‍👦', '👨‍👩‍👧‍👦'],
    ['a ZWJ emoji with a skin tone', '👩🏽‍💻', '👩🏽‍💻'],
    ['a ZWJ emoji after VS16', '🏳️‍🌈 🏴‍☠️', '🏳️‍🌈 🏴‍☠️'],
    ['a flag of regional indicators', '🇫🇷', '🇫🇷'],
    ['a keycap', '1️⃣', '1️⃣'],
    [
      'a subdivision flag (a tag sequence)',
      '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}',
      '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}',
    ],
    // C0 controls, DEL, C1 controls.
    ['NUL', 'a\x00b', 'a\\x00b'],
    ['BEL', 'a\x07', 'a\\x07'],
    ['backspace', 'paid\x08\x08\x08\x08due', 'paid\\x08\\x08\\x08\\x08due'],
    ['vertical tab and form feed', '\x0b\x0c', '\\x0b\\x0c'],
    ['a line feed (it could forge a line)', 'ok\nCOMPLETED: done', 'ok\\nCOMPLETED: done'],
    ['a carriage return (it could overwrite one)', 'evil\rgood', 'evil\\rgood'],
    ['CR LF', 'a\r\nb', 'a\\r\\nb'],
    ['a tab', 'a\tb', 'a\\tb'],
    ['unit separator', '\x1f', '\\x1f'],
    ['DEL', 'a\x7fb', 'a\\x7fb'],
    ['C1: PAD, NEL, CSI, OSC, APC', '\x80\x85\x9b2J\x9d\x9f', '\\x80\\x85\\x9b2J\\x9d\\x9f'],
    // Escape sequences: their ESC is shown, so the rest is plain text.
    ['CSI: clear the screen', '\x1b[2J\x1b[H', '\\x1b[2J\\x1b[H'],
    ['CSI: colours', '\x1b[31mred\x1b[0m', '\\x1b[31mred\\x1b[0m'],
    [
      'OSC 8: a hyperlink',
      '\x1b]8;;https://evil.example/\x07docs\x1b]8;;\x07',
      '\\x1b]8;;https://evil.example/\\x07docs\\x1b]8;;\\x07',
    ],
    ['OSC 0: the title, ended by ST', '\x1b]0;title\x1b\\', '\\x1b]0;title\\x1b\\\\'],
    ['OSC 52: the clipboard', '\x1b]52;c;cm0gLXJmIH4=\x07', '\\x1b]52;c;cm0gLXJmIH4=\\x07'],
    // Bidi controls.
    ['LRE RLE PDF LRO RLO', '\u202a\u202b\u202c\u202d\u202e', '\\u202a\\u202b\\u202c\\u202d\\u202e'],
    ['LRI RLI FSI PDI', '\u2066\u2067\u2068\u2069', '\\u2066\\u2067\\u2068\\u2069'],
    ['an override that reverses a name', 'invoice\u202efdp.exe', 'invoice\\u202efdp.exe'],
    ['LRM RLM ALM', '\u200e\u200f\u061c', '\\u200e\\u200f\\u061c'],
    // Invisible format characters.
    ['zero-width space and non-joiner', 'pay\u200bpal\u200c', 'pay\\u200bpal\\u200c'],
    ['a ZWJ between letters', 'pay\u200dpal', 'pay\\u200dpal'],
    ['a ZWJ after an emoji but before a letter', '👩\u200da', '👩\\u200da'],
    ['a ZWJ at the end', '👩\u200d', '👩\\u200d'],
    ['word joiner, soft hyphen, BOM', '\u2060\u00ad\ufeff', '\\u2060\\xad\\ufeff'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    ['tag characters outside a tag sequence', 'ok\u{E0001}\u{E0069}', 'ok\\u{e0001}\\u{e0069}'],
    ['a tag sequence without its cancel tag', '\u{1F3F4}\u{E0067}', '\u{1F3F4}\\u{e0067}'],
    // Unpaired surrogates, and the backslash itself.
    ['a lone high surrogate', 'a\ud800b', 'a\\ud800b'],
    ['a lone low surrogate', '\udc00', '\\udc00'],
    ['a backslash', 'C:\\tmp', 'C:\\\\tmp'],
    ['text that looks like an escape', '\\x1b[2J', '\\\\x1b[2J'],
  ])('%s', (_, input, shown) => {
    expect(terminalText(input)).toBe(shown);
  });

  it('never lets a control, a bidi control or a hidden format character through', () => {
    fc.assert(
      fc.property(text, (input) => {
        const shown = terminalText(input);
        expect(shown).not.toMatch(controls);
        expect(shown).not.toMatch(bidi);
        expect(shown.replace(keptFormat, '')).not.toMatch(/\p{Cf}/u);
      }),
    );
  });

  it('is unambiguous: the printed form reads back to exactly the text', () => {
    fc.assert(
      fc.property(text, (input) => {
        expect(unescaped(terminalText(input))).toBe(input);
      }),
    );
  });

  it('prints text with nothing to show escaped as it is', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((input) => !/[\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(input)),
        (input) => {
          expect(terminalText(input)).toBe(input);
        },
      ),
    );
  });
});

describe('terminalJson', () => {
  it.each<[string, unknown, string]>([
    ['plain JSON', { sum: 3 }, '{"sum":3}'],
    [
      'C0 and the backslash, escaped by JSON itself',
      { text: 'a\x1b[2J\n\\' },
      '{"text":"a\\u001b[2J\\n\\\\"}',
    ],
    ['DEL and C1', { text: '\x7f\x9b' }, '{"text":"\\u007f\\u009b"}'],
    [
      'bidi and zero-width',
      ['\u202e', '\u2066', '\u200b', '\ufeff'],
      '["\\u202e","\\u2066","\\u200b","\\ufeff"]',
    ],
    ['line and paragraph separators', '\u2028\u2029', '"\\u2028\\u2029"'],
    ['an astral format character, as its two units', 'a\u{E0001}', '"a\\udb40\\udc01"'],
    ['a lone surrogate, escaped by JSON itself', 'a\ud800', '"a\\ud800"'],
    ['a member name', { '\u202ename': 1 }, '{"\\u202ename":1}'],
    [
      'letters, CJK and emoji as they are (a ZWJ escaped: JSON keeps the exact text)',
      { t: 'café 日本 👩‍💻' },
      '{"t":"café 日本 👩\\u200d💻"}',
    ],
  ])('%s', (_, value, shown) => {
    expect(terminalJson(value)).toBe(shown);
  });

  it('is valid JSON of the same value, with nothing a terminal would act on or hide', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: char }), (value) => {
        const shown = terminalJson(value);
        expect(JSON.parse(shown)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(shown).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u);
      }),
    );
  });
});
