import type * as z from 'zod/mini';
import { contractBounds } from './bounds.js';
import { type ContractRule, protoString, violate } from './scalars.js';

/**
UTF-8 length of a string, as `TextEncoder` would encode it (a lone surrogate becomes 3 bytes of U+FFFD).
*/
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) {
      continue;
    }
    if (code < 0x800) {
      bytes += 1;
    } else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      // Two UTF-16 units, four UTF-8 bytes.
      bytes += 2;
      index++;
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
`utf8Length(text) <= maxBytes`, without counting when the UTF-16 length already decides (1 to 3 bytes per
unit).
*/
export function withinBytes(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) {
    return false;
  }
  return text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes;
}

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

// The set `String.prototype.trim` removes, decided per code unit so that no string is copied.
function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
The first rule a label breaks: non-empty, within `maxBytes`, no surrounding whitespace, no control character
(docs/protocol-checks.md#agent-card, "text rule").
*/
export function labelRule(text: string, maxBytes: number): ContractRule | undefined {
  if (text.length === 0) {
    return 'empty';
  }
  if (!withinBytes(text, maxBytes)) {
    return 'max-bytes';
  }
  if (isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1))) {
    return 'whitespace';
  }
  return hasControl(text) ? 'control-character' : undefined;
}

/** The first rule prose breaks: within `maxBytes`, no control character but TAB, LF and CR. */
function proseRule(text: string, maxBytes: number, required: boolean): ContractRule | undefined {
  if (required && text.length === 0) {
    return 'empty';
  }
  if (!withinBytes(text, maxBytes)) {
    return 'max-bytes';
  }
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isControl(code) && code !== 0x09 && code !== 0x0a && code !== 0x0d) {
      return 'control-character';
    }
  }
  return undefined;
}

/** A label of at most `maxBytes` UTF-8 bytes (see {@link labelRule}). */
export function label(maxBytes: number): z.ZodMiniCustom<string, string> {
  return protoString().check((payload) => {
    const rule = labelRule(payload.value, maxBytes);
    if (rule !== undefined) {
      violate(payload, rule);
    }
  });
}

/**
Prose (descriptions, examples). The text rule of docs/protocol-checks.md#agent-card forbids every control
character and surrounding whitespace; for prose that would refuse any multi-line description, which cards
written in YAML or Markdown routinely carry, so prose keeps the byte bound and refuses only the control
characters that are never text.
*/
export function prose(
  maxBytes: number,
  options: { readonly required: boolean },
): z.ZodMiniCustom<string, string> {
  return protoString().check((payload) => {
    const rule = proseRule(payload.value, maxBytes, options.required);
    if (rule !== undefined) {
      violate(payload, rule);
    }
  });
}

/**
Text that is only data to us, never shown raw: within `maxBytes`, non-empty when `required`, any character
allowed. A peer's own error text is such text (JSON-RPC 2.0 §5.1 and A2A spec §11.6 say only "a string"): it
is escaped before the caller sees it (ARCHITECTURE.md#errors), so refusing a control character in it would
refuse a conformant peer's refusal.
*/
export function inertText(
  maxBytes: number,
  options: { readonly required: boolean },
): z.ZodMiniCustom<string, string> {
  return protoString().check((payload) => {
    if (options.required && payload.value.length === 0) {
      violate(payload, 'empty');
    } else if (!withinBytes(payload.value, maxBytes)) {
      violate(payload, 'max-bytes');
    }
  });
}

/**
An opaque identifier: message, task, context, artifact, push config, tenant (ARCHITECTURE.md#bounds: ≤ 512 B).
*/
export const Id = label(contractBounds.idBytes);

/** A short human label: a name, a version, a filename. */
export const Label = label(contractBounds.labelBytes);

/** An optional description. */
export const Description = prose(contractBounds.descriptionBytes, { required: false });

/** A description the proto marks REQUIRED, so it must not be empty. */
export const RequiredDescription = prose(contractBounds.descriptionBytes, { required: true });

/** A page token; `""` is not a token (it means "no further page" and is modelled where it may appear). */
export const PageToken = label(contractBounds.pageTokenBytes);

/**
A push token or credential: non-empty, ≤ 16 KiB, no control character at all (it ends up in a header value,
where a line break would split it).
*/
export const Secret = protoString().check((payload) => {
  const text = payload.value;
  if (text.length === 0) {
    violate(payload, 'empty');
  } else if (!withinBytes(text, contractBounds.secretBytes)) {
    violate(payload, 'max-bytes');
  } else if (hasControl(text)) {
    violate(payload, 'control-character');
  }
});

function hasControl(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    if (isControl(text.charCodeAt(index))) {
      return true;
    }
  }
  return false;
}

//// URLs and media types ////

// The last URL found absolute: a client checks the same agent URL on every call and every ledger record, and
// parsing it (`new URL`) costs more than the rest of a small record's checks.
let lastAbsoluteUrl: string | undefined;

/** True for an absolute URL with a host and no userinfo (docs/protocol-checks.md#agent-card). */
export function isAbsoluteUrl(text: string): boolean {
  if (text === lastAbsoluteUrl) {
    return true;
  }
  try {
    const url = new URL(text);
    const absolute = url.host !== '' && url.username === '' && url.password === '';
    if (absolute) {
      lastAbsoluteUrl = text;
    }
    return absolute;
  } catch {
    return false;
  }
}

/** An absolute URL with a host and no userinfo, ≤ 4096 B. */
export const Url = protoString().check((payload) => {
  const rule = labelRule(payload.value, contractBounds.urlBytes);
  if (rule !== undefined) {
    violate(payload, rule);
  } else if (!isAbsoluteUrl(payload.value)) {
    violate(payload, 'url');
  }
});

// RFC 3986 §3: scheme ":" hier-part, with only the characters a URI may hold (unreserved, reserved and "%").
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/**
True for an absolute URI (RFC 3986 §4.3): a scheme, a colon and a non-empty rest, any scheme (`urn:`,
`https:`, `tag:`).
*/
export function isAbsoluteUri(text: string): boolean {
  return URI.test(text);
}

/**
An identifier the spec only calls a URI (`AgentExtension.uri`, a message's or an artifact's `extensions`): any
absolute RFC 3986 URI, `urn:example:ext:v1` as much as `https://…`, ≤ 4096 B. Nothing connects to it, so the
URL rules ({@link Url}) do not apply.
*/
export const Uri = protoString().check((payload) => {
  const rule = labelRule(payload.value, contractBounds.urlBytes);
  if (rule !== undefined) {
    violate(payload, rule);
  } else if (!isAbsoluteUri(payload.value)) {
    violate(payload, 'uri');
  }
});

// RFC 9110 §8.3.1: type "/" subtype *( OWS ";" OWS parameter ), tokens per §5.6.2, parameter values a token
// or a quoted-string.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED}))*$`);

/** True for a syntactically valid media type, parameters included. */
export function isMediaType(text: string): boolean {
  return MEDIA_TYPE.test(text);
}

/** A media type (`mediaType`, input and output modes), ≤ 256 B. */
export const MediaType = protoString().check((payload) => {
  const rule = labelRule(payload.value, contractBounds.mediaTypeBytes);
  if (rule !== undefined) {
    violate(payload, rule);
  } else if (!isMediaType(payload.value)) {
    violate(payload, 'media-type');
  }
});
