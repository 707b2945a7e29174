import { HubError } from "../errors.js";

export { GatedRepoError, RepoNotFoundError } from "../errors.js";

/**
 * The refusals of the auth layer, in the public hub's exact shapes: huggingface_hub's `hf_raise_for_status`
 * turns them into its typed errors by status, `X-Error-Code` and `X-Error-Message`.
 */

export const INVALID_CREDENTIALS_MESSAGE = "Invalid credentials in Authorization header";

/**
 * A credential was sent but is not valid (unknown, revoked, expired, its user disabled, a revoked or expired
 * session). huggingface_hub keys on this exact `X-Error-Message` to tell it from a hidden repository.
 */
export class InvalidCredentialsError extends HubError {
  constructor() {
    super(401, "unauthorized", INVALID_CREDENTIALS_MESSAGE, true);
  }
}

/** An action that needs someone signed in (or a token), asked anonymously. */
export class AuthenticationRequiredError extends HubError {
  constructor(message = 'Authentication required: send "Authorization: Bearer hf_...".') {
    super(401, "unauthorized", message);
  }
}

/** The caller is known but may not do this (role, token permissions, not a member). */
export class PermissionDeniedError extends HubError {
  constructor(message: string) {
    super(403, "forbidden", message, false);
  }
}
