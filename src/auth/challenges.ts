/** Parameters of a `Bearer` challenge (RFC 6750 section 3, RFC 9728 section 5.1). */
export interface BearerChallenge {
  resourceMetadata: string;
  /** Scopes to ask for (space-separated in the header). */
  scopes?: readonly string[];
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  description?: string;
}

function quoted(value: string): string {
  // RFC 9110 quoted-string; descriptions are ours, but never let one break the header.
  return `"${value.replace(/[\\"]/g, '').replace(/[^\x20-\x7e]/g, '')}"`;
}

/** The `WWW-Authenticate` value, e.g. `Bearer resource_metadata="…", scope="tools:read", error="invalid_token"`. */
export function bearerChallenge(challenge: BearerChallenge): string {
  const parts = [`resource_metadata=${quoted(challenge.resourceMetadata)}`];
  if (challenge.scopes && challenge.scopes.length > 0) parts.push(`scope=${quoted(challenge.scopes.join(' '))}`);
  if (challenge.error) parts.push(`error=${quoted(challenge.error)}`);
  if (challenge.description) parts.push(`error_description=${quoted(challenge.description)}`);
  return `Bearer ${parts.join(', ')}`;
}
