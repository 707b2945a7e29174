export { createAccessToken, inferenceTokenRequest } from "./access-tokens.js";
export { useSession } from "./account-api.js";
export { CreateTokenForMe } from "./create-token-for-me.js";
export { UserMenu } from "./user-menu.js";
