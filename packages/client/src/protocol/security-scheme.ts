import * as z from 'zod/mini';
import { contractBounds } from './bounds.js';
import { Bool, items, oneof, protoMap, protoString, violate, wireObject } from './scalars.js';
import { Description, Label, Url } from './text.js';

/**
OAuth scopes: scope name to its description, ≤ 128 entries. A REQUIRED map ProtoJSON drops when empty, so a
missing one reads `{}`.
*/
const Scopes = z._default(protoMap(Label, Description, contractBounds.scopes), () => ({}));

/** OAuth 2.0 authorization code flow; `pkceRequired` is a plain bool, so a missing one reads `false`. */
export const AuthorizationCodeOAuthFlow = wireObject({
  authorizationUrl: Url,
  tokenUrl: Url,
  refreshUrl: z.optional(Url),
  scopes: Scopes,
  pkceRequired: z._default(Bool, false),
});

/** OAuth 2.0 client credentials flow. */
export const ClientCredentialsOAuthFlow = wireObject({
  tokenUrl: Url,
  refreshUrl: z.optional(Url),
  scopes: Scopes,
});

/** OAuth 2.0 device code flow (RFC 8628). */
export const DeviceCodeOAuthFlow = wireObject({
  deviceAuthorizationUrl: Url,
  tokenUrl: Url,
  refreshUrl: z.optional(Url),
  scopes: Scopes,
});

/** Deprecated in the proto, not removed (A2A spec §4.5.7), so still read. No member is REQUIRED. */
export const ImplicitOAuthFlow = wireObject({
  authorizationUrl: z.optional(Url),
  refreshUrl: z.optional(Url),
  scopes: Scopes,
});

/** Deprecated in the proto, not removed (A2A spec §4.5.7), so still read. No member is REQUIRED. */
export const PasswordOAuthFlow = wireObject({
  tokenUrl: z.optional(Url),
  refreshUrl: z.optional(Url),
  scopes: Scopes,
});

/**
The one flow an OAuth 2.0 scheme declares (A2A spec §4.5.7: `OAuthFlows` is a oneof, so a scheme with two
flows is invalid).

@example
```ts
const flows: OAuthFlows = { clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: { read: 'Read tasks' } } };
```
*/
export const OAuthFlows = oneof(
  {
    authorizationCode: AuthorizationCodeOAuthFlow,
    clientCredentials: ClientCredentialsOAuthFlow,
    implicit: ImplicitOAuthFlow,
    password: PasswordOAuthFlow,
    deviceCode: DeviceCodeOAuthFlow,
  },
  {},
);
/** Exactly one OAuth 2.0 flow. */
export type OAuthFlows = z.infer<typeof OAuthFlows>;

const API_KEY_LOCATIONS: ReadonlySet<string> = new Set(['query', 'header', 'cookie']);

/** An API key sent in a query parameter, a header or a cookie (v0.3 called `location` `in`). */
export const APIKeySecurityScheme = wireObject({
  description: z.optional(Description),
  location: protoString().check((payload) => {
    if (!API_KEY_LOCATIONS.has(payload.value)) {
      violate(payload, 'api-key-location');
    }
  }),
  name: Label,
});

/** HTTP authentication (RFC 9110 §11), e.g. `Bearer` with an optional `bearerFormat` hint. */
export const HTTPAuthSecurityScheme = wireObject({
  description: z.optional(Description),
  scheme: Label,
  bearerFormat: z.optional(Label),
});

/** OAuth 2.0 with exactly one flow and an optional RFC 8414 metadata URL. */
export const OAuth2SecurityScheme = wireObject({
  description: z.optional(Description),
  flows: OAuthFlows,
  oauth2MetadataUrl: z.optional(Url),
});

/** OpenID Connect through its discovery URL. */
export const OpenIdConnectSecurityScheme = wireObject({
  description: z.optional(Description),
  openIdConnectUrl: Url,
});

/** Mutual TLS; `{}` when it has no description. */
export const MutualTlsSecurityScheme = wireObject({
  description: z.optional(Description),
});

/**
How a client authenticates (A2A spec §4.5.1): a oneof told apart by its member name, after OpenAPI 3.2 but
with no `type` field. Exactly one member.

@example
```ts
const scheme: SecurityScheme = { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } };
if ('httpAuthSecurityScheme' in scheme) { scheme.httpAuthSecurityScheme.scheme; }
```
*/
export const SecurityScheme = oneof(
  {
    apiKeySecurityScheme: APIKeySecurityScheme,
    httpAuthSecurityScheme: HTTPAuthSecurityScheme,
    oauth2SecurityScheme: OAuth2SecurityScheme,
    openIdConnectSecurityScheme: OpenIdConnectSecurityScheme,
    mtlsSecurityScheme: MutualTlsSecurityScheme,
  },
  {},
);
/** Exactly one way to authenticate. */
export type SecurityScheme = z.infer<typeof SecurityScheme>;

/**
The scopes one scheme needs (`StringList`); an empty list is dropped by ProtoJSON, so a missing one reads
`[]`.
*/
const StringList = wireObject({
  list: z._default(items(Label, 0, contractBounds.scopes), () => []),
});

/**
One alternative of a requirement list: every named scheme, each with its scopes, is needed together
(docs/protocol-checks.md#security-selection). A card's or skill's list of these is an OR of ANDs; the card
checks that every name refers to one of its `securitySchemes`.

@example
```ts
const requirement: SecurityRequirement = { schemes: { oidc: { list: ['openid', 'tasks'] } } };
```
*/
export const SecurityRequirement = wireObject({
  schemes: z._default(protoMap(Label, StringList, contractBounds.securityEntries), () => ({})),
});
/** One alternative of a requirement list. */
export type SecurityRequirement = z.infer<typeof SecurityRequirement>;

/** A card's or a skill's requirement alternatives: ≤ 64. */
export const SecurityRequirements = items(SecurityRequirement, 0, contractBounds.securityEntries);
