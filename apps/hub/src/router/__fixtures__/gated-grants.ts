import type { Store } from "../../store/store.js";

/**
 * Grants every user of the hub access to every gated model, as their owners would on request: tests that
 * run inference on the catalogue's gated models (meta-llama, FLUX.1-dev...) through the router, which asks
 * for the grant a gated model's files need. Call it once the test's users (and their tokens) exist.
 */
export async function grantGatedModelsToEveryone(store: Store): Promise<void> {
  const users = await store.accounts.users.list();
  for (const { id } of await store.models.top({ limit: 1_000_000 })) {
    const model = await store.models.get(id);
    if (!model?.gated) continue;
    for (const user of users) {
      await store.accounts.accessRequests.request({
        repoType: "model",
        repoId: id,
        userId: user.id,
        status: "accepted",
        fields: {},
      });
    }
  }
}

/**
 * What to create an inference token with (accountsService.createToken) when its calls use gated models: an
 * inference-only fine-grained token, with no permission to read gated files: the user's grant is what a gated
 * model's inference needs (authorize "inference" on the model).
 */
export const INFERENCE_TOKEN_FOR_GATED_MODELS = {
  role: "fineGrained",
  fineGrained: { canReadGatedRepos: false, global: ["inference.serverless.write"], scoped: [] },
} as const;
