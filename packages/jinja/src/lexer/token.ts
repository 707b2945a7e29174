export type TokenType =
  | "data"
  | "var_begin"
  | "var_end"
  | "block_begin"
  | "block_end"
  | "name"
  | "string"
  | "integer"
  | "float"
  | "op"
  | "eof";

export interface Token {
  type: TokenType;
  /** Text for data/name/op, decoded text for strings, numeric value for numbers. */
  value: string;
  /** Offset in the normalized source, for error locations. */
  pos: number;
}
