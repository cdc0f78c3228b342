/**
@module
Test support: the mock agent's card as served, read as the client reads ProtoJSON (JSON names, defaults
absent), so a suite can override members by their JSON names whichever printer style the agent uses
(docs/interop.md#serializer-styles).
*/
import { AgentCard } from '../../src/protocol/agent-card.js';
import type { JsonObject } from '../../src/protocol/json-value.js';
import { canonical } from '../../src/protocol/protojson.js';

/** Fetches the card at `url` and returns it in JSON names. */
export async function servedCard(url: string): Promise<JsonObject> {
  const read = canonical(AgentCard, await (await fetch(url)).json());
  if (!read.ok) {
    throw new Error('the served card names a field twice');
  }
  return read.value as JsonObject;
}
