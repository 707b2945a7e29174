export const ROLES = ["system", "user", "assistant"] as const;
export type Role = (typeof ROLES)[number];

export interface EditableMessage {
  /** Stable key for React while messages are added and removed. */
  key: number;
  role: Role;
  content: string;
}

let nextKey = 0;
export function message(role: Role, content: string): EditableMessage {
  nextKey += 1;
  return { key: nextKey, role, content };
}

export function starterConversation(): EditableMessage[] {
  return [
    message("system", "You are a helpful assistant."),
    message("user", "What is the capital of France?"),
    message("assistant", "The capital of France is Paris."),
    message("user", "And of Italy?"),
  ];
}

/** The role a new message most likely has: the other speaker of the last turn. */
export function nextRole(messages: readonly EditableMessage[]): Role {
  const last = messages[messages.length - 1];
  return last?.role === "user" ? "assistant" : "user";
}
