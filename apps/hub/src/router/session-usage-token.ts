import { generateHubToken, hashToken } from "../auth/hub-tokens.js";

/** What this needs of the accounts' token records (the accounts store's `tokens`, handed in by app.ts). */
export interface TokenRecords {
  list(userId: number): Promise<{ id: number; name: string }[]>;
  create(input: {
    userId: number;
    name: string;
    hash: string;
    hint: string;
    role: "read";
    fineGrained: null;
    expiresAt: string;
  }): Promise<{ id: number }>;
}

/** The name of the record a user's browser-session router calls are counted under (their tokens page shows it). */
export const SESSION_USAGE_TOKEN_NAME = "Web playground (signed-in session, not a credential)";

/**
 * The token record a user's router calls made with their browser session (the web playground) are recorded
 * against: usage rows name a token, and a session has none. One per user, made on their first such call; its
 * secret is never issued and it is born expired, so it can never authenticate anything. Cached per user.
 */
export function sessionUsageTokens(tokens: TokenRecords): (userId: number) => Promise<number> {
  const known = new Map<number, Promise<number>>();
  return (userId) => {
    let id = known.get(userId);
    if (!id) {
      id = findOrCreate(tokens, userId);
      id.catch(() => known.delete(userId));
      known.set(userId, id);
    }
    return id;
  };
}

async function findOrCreate(tokens: TokenRecords, userId: number): Promise<number> {
  const existing = (await tokens.list(userId)).find((token) => token.name === SESSION_USAGE_TOKEN_NAME);
  if (existing) return existing.id;
  const created = await tokens.create({
    userId,
    name: SESSION_USAGE_TOKEN_NAME,
    hash: hashToken(generateHubToken()),
    hint: "session",
    role: "read",
    fineGrained: null,
    expiresAt: new Date(0).toISOString(),
  });
  return created.id;
}
