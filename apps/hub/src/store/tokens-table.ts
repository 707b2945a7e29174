import type Database from "better-sqlite3";

export const TOKEN_SCOPES = ["inference", "read"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A hub token as the store knows it: never the token itself, only its hash and a hint. */
export interface TokenInfo {
  id: number;
  name: string;
  /** "hf_…" plus the last 4 characters: enough to recognise a token, useless to use it. */
  hint: string;
  scopes: TokenScope[];
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

interface TokenRow {
  id: number;
  name: string;
  token_hash: string;
  token_hint: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

function toInfo(row: TokenRow): TokenInfo {
  return {
    id: row.id,
    name: row.name,
    hint: row.token_hint,
    scopes: JSON.parse(row.scopes) as TokenScope[],
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

export function createTokensTable(db: Database.Database, now: () => Date) {
  const insert = db.prepare(
    "INSERT INTO tokens (name, token_hash, token_hint, scopes, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  const byId = db.prepare<[number], TokenRow>("SELECT * FROM tokens WHERE id = ?");
  const byHash = db.prepare<[string], TokenRow>("SELECT * FROM tokens WHERE token_hash = ?");
  const all = db.prepare<[], TokenRow>("SELECT * FROM tokens ORDER BY id");
  const revoke = db.prepare<[string, number]>(
    "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
  );
  const touch = db.prepare<[string, number]>("UPDATE tokens SET last_used_at = ? WHERE id = ?");

  return {
    create(input: { name: string; hash: string; hint: string; scopes: readonly TokenScope[] }): TokenInfo {
      const result = insert.run(
        input.name,
        input.hash,
        input.hint,
        JSON.stringify(input.scopes),
        now().toISOString(),
      );
      return toInfo(byId.get(Number(result.lastInsertRowid))!);
    },
    /** The token with this hash, whether revoked or not (the caller decides what revoked means). */
    findByHash(hash: string): TokenInfo | undefined {
      const row = byHash.get(hash);
      return row ? toInfo(row) : undefined;
    },
    get(id: number): TokenInfo | undefined {
      const row = byId.get(id);
      return row ? toInfo(row) : undefined;
    },
    list(): TokenInfo[] {
      return all.all().map(toInfo);
    },
    /** Returns false when the token does not exist or was already revoked. */
    revoke(id: number): boolean {
      return revoke.run(now().toISOString(), id).changes > 0;
    },
    markUsed(id: number): void {
      touch.run(now().toISOString(), id);
    },
  };
}

export type TokensTable = ReturnType<typeof createTokensTable>;
