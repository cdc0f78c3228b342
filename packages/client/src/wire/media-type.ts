/**
How the answer's `Content-Type` was classified: `none` when absent, `other` when unknown, malformed or
repeated.
*/
export type MediaType = 'json' | 'sse' | 'none' | 'other';

/**
Classifies a `Content-Type` value by its essence: `none` when absent (`null`), `json` for `application/json`
and `application/a2a+json`, `sse` for `text/event-stream`, `other` for anything else or for more than one
media type.
*/
export function classifyMediaType(value: string | null): MediaType {
  if (value === null) {
    return 'none';
  }
  // Fetch joins a repeated header with ", ": a comma outside a quoted parameter means more than one media
  // type.
  let quoted = false;
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index];
    if (quoted) {
      if (char === '\\') {
        index += 1;
      } else if (char === '"') {
        quoted = false;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      return 'other';
    }
  }
  const semicolon = value.indexOf(';');
  const essence = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  if (essence === 'application/json' || essence === 'application/a2a+json') {
    return 'json';
  }
  return essence === 'text/event-stream' ? 'sse' : 'other';
}
