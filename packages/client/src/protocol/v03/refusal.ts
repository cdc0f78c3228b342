/**
@module
How the v0.3 mappings (`answers.ts`, `proto-answers.ts`, `card.ts`, `requests.ts`, `routes.ts`) say no: a walk
over a v0.3 value throws a {@link Refusal} where it meets what v0.3 itself refuses, and the mapping's entry
turns it into the violation it answers with (a path and a rule of docs/protocol-checks.md#rule-ids), so no
step of a deep walk threads a result through. A `Refusal` never leaves these modules.
*/
import type { Violation } from '../../core/violation-text.js';
import type { JsonObject, JsonValue } from '../json-value.js';

/** A v0.3 value as its v1.0 JSON, or where and why it is not v0.3. */
export type V03Mapping =
  | { readonly ok: true; readonly value: JsonValue; readonly error?: never }
  | { readonly ok: false; readonly error: Violation; readonly value?: never };

/** One refusal, thrown inside a mapping's walk and answered as its `error`. */
export class Refusal {
  readonly violation: Violation;
  constructor(rule: string, path: string) {
    this.violation = { rule, path };
  }
}

/** The violation a walk was refused with; any other error is a defect, thrown on. */
export function violationOf(error: unknown): Violation {
  if (error instanceof Refusal) {
    return error.violation;
  }
  throw error;
}

/** What `build` returns as a mapping's value, or the violation its walk was refused with. */
export function mapped(build: () => JsonValue): V03Mapping {
  try {
    return { ok: true, value: build() };
  } catch (error) {
    return { ok: false, error: violationOf(error) };
  }
}

/** The members of `source` named in `names` that are present, in that order. */
export function pick(source: JsonObject, names: readonly string[]): JsonObject {
  const kept: JsonObject = {};
  for (const name of names) {
    const value = source[name];
    if (value !== undefined) {
      kept[name] = value;
    }
  }
  return kept;
}
