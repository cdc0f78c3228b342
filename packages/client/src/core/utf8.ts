/**
@module
UTF-8 and UTF-16 text helpers of the JSON parser: where an input stops being encodable or decodable, and ASCII
keys turned into strings without a decoder call.
*/

// In unicode mode a paired surrogate is one code point, so this matches only unpaired ones.
const loneSurrogate = /\p{Cs}/u;

type WellFormedCheck = { readonly isWellFormed?: (this: string) => boolean };

/** The UTF-16 index of the first unpaired surrogate in `text`, or -1. */
export function loneSurrogateIndex(text: string): number {
  // `isWellFormed` (ES2024, native in current engines) answers several times faster than the regex, which
  // then only has to locate the surrogate; older engines use the regex alone.
  const isWellFormed = (String.prototype as WellFormedCheck).isWellFormed;
  if (isWellFormed?.call(text) === true) {
    return -1;
  }
  return text.search(loneSurrogate);
}

/**
The offset of the first byte that starts no well-formed UTF-8 sequence (WHATWG Encoding, UTF-8 decoder); runs
only after the fatal decoder refused.
*/
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] ?? 0;
    if (lead < 0x80) {
      index++;
      continue;
    }
    let needed: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      needed = 1;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      needed = 2;
      // Overlong forms and UTF-16 surrogates are not UTF-8 (RFC 3629 §3).
      lower = lead === 0xe0 ? 0xa0 : 0x80;
      upper = lead === 0xed ? 0x9f : 0xbf;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      needed = 3;
      lower = lead === 0xf0 ? 0x90 : 0x80;
      upper = lead === 0xf4 ? 0x8f : 0xbf;
    } else {
      return index;
    }
    for (let next = 1; next <= needed; next++) {
      const byte = bytes[index + next] ?? -1;
      if (byte < (next === 1 ? lower : 0x80) || byte > (next === 1 ? upper : 0xbf)) {
        return index;
      }
    }
    index += needed + 1;
  }
  return index;
}

const keyCacheMask = 511;
// Long keys are rare and would make the cache hold a lot of memory.
const maxCachedKey = 32;
const keyCache: string[] = new Array<string>(keyCacheMask + 1).fill('');

/** The ASCII key `bytes[start, end)`, from the cache when an equal key was seen before. */
export function cachedKey(bytes: Uint8Array, start: number, end: number, hash: number): string {
  if (end - start > maxCachedKey) {
    return asciiText(bytes, start, end);
  }
  const slot = hash & keyCacheMask;
  const cached = keyCache[slot];
  if (cached !== undefined && cached.length === end - start) {
    let index = 0;
    while (index < cached.length && cached.charCodeAt(index) === bytes[start + index]) {
      index++;
    }
    if (index === cached.length) {
      return cached;
    }
  }
  const key = asciiText(bytes, start, end);
  keyCache[slot] = key;
  return key;
}

// Short texts are cheapest one character at a time; a longer one is built from flat chunks, never from one
// string per byte.
const shortText = 16;
const textChunk = 4096;

/** The text of the ASCII bytes `bytes[start, end)`, one character per byte. */
export function asciiText(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= shortText) {
    let text = '';
    for (let index = start; index < end; index++) {
      text += String.fromCharCode(bytes[index] ?? 0);
    }
    return text;
  }
  const parts: string[] = [];
  for (let index = start; index < end; index += textChunk) {
    parts.push(String.fromCharCode(...bytes.subarray(index, Math.min(end, index + textChunk))));
  }
  return parts.join('');
}
