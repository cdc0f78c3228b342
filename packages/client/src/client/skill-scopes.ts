/**
@module
The scopes of a call made for one of the card's skills (`CallOptions.skill`;
docs/protocol-checks.md#security-selection, skill-level security). Only a call that names a skill reaches
this, so it loads with the first one (`deferred.ts`, ARCHITECTURE.md#decisions, "Code loads with its first
use").
*/
import { OptionsError, RequestError } from '../core/errors.js';
import type { AgentCard } from '../protocol/agent-card.js';
import { type ResolvedSecurity, selectScopes } from './security.js';

/**
The scopes a call made for `skillId` needs (docs/protocol-checks.md#security-selection, skill-level security):
the skill's own requirements when it declares some, otherwise the card-level scopes already selected. An empty
list counts as none, because ProtoJSON cannot tell an empty repeated field from a missing one. Throws
`OptionsError` on `skills.<index>.securityRequirements` when the client's security cannot satisfy the skill,
and `undefined` is returned for a skill the card does not list.

@example
```ts
skillScopes(card, security, 'summarise'); // ['skill.invoke'] where the skill asks for it
```
*/
export function skillScopes(
  card: AgentCard,
  security: ResolvedSecurity,
  skillId: string,
): readonly string[] | undefined {
  const index = card.skills.findIndex((skill) => skill.id === skillId);
  const requirements = card.skills[index]?.securityRequirements;
  if (index === -1) {
    return undefined;
  }
  if (requirements === undefined || requirements.length === 0) {
    return security.scopes;
  }
  return selectScopes(requirements, card.securitySchemes, security, `skills.${index}.securityRequirements`);
}

/**
The token's scopes for a call that names `skill`, as the outbound contract refuses it
(docs/protocol-checks.md#requests): `RequestError` `invalid-params` `unknown-skill` for a skill the card does
not list, `skill-security` for one whose requirements this client's security cannot satisfy.

@example
```ts
skillCallScopes(card, security, 'summarise'); // ['skill.invoke'], or the card's scopes for a skill without requirements
```
*/
export function skillCallScopes(
  card: AgentCard,
  security: ResolvedSecurity,
  skill: unknown,
): readonly string[] {
  let scopes: readonly string[] | undefined;
  try {
    scopes = typeof skill === 'string' ? skillScopes(card, security, skill) : undefined;
  } catch (error) {
    if (error instanceof OptionsError) {
      // The skill asks for security this client was not configured with.
      throw new RequestError('invalid-params', { violation: { rule: 'skill-security' } });
    }
    throw error;
  }
  if (scopes === undefined) {
    throw new RequestError('invalid-params', { violation: { rule: 'unknown-skill' } });
  }
  return scopes;
}
